/**
 * The report's place, kept by VS Code while the page is hidden (webview state): the matrix's
 * filters and order, its scroll, the sample shown side by side, the chart's metric. Read back
 * defensively: a state saved by another version of the page may have another shape.
 */
import type { MatrixFilter, SortOrder } from './reportIndex';

export interface EvalReportViewState {
  filter: MatrixFilter;
  sort: SortOrder;
  scrollTop: number;
  /** The sample shown side by side, by id. */
  selected?: string;
  metric?: string;
  diff: boolean;
}

export function parseViewState(raw: unknown): EvalReportViewState | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const state = raw as Record<string, unknown>;
  const filter = typeof state.filter === 'object' && state.filter !== null ? (state.filter as Record<string, unknown>) : {};
  const parsed: EvalReportViewState = {
    filter: { disagree: filter.disagree === true, failures: filter.failures === true, text: typeof filter.text === 'string' ? filter.text.slice(0, 200) : '' },
    sort: state.sort === 'spread' ? 'spread' : 'sample',
    scrollTop: typeof state.scrollTop === 'number' && Number.isFinite(state.scrollTop) && state.scrollTop > 0 ? state.scrollTop : 0,
    diff: state.diff !== false,
  };
  if (typeof state.selected === 'string') parsed.selected = state.selected.slice(0, 1000);
  if (typeof state.metric === 'string') parsed.metric = state.metric.slice(0, 200);
  return parsed;
}
