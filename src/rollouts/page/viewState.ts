/**
 * The page's place, kept by VS Code while the page is unloaded (webview state): read back
 * defensively, since a state saved by an older version of the page may have another shape.
 */
import { defaultQuery, queryLimits, type GroupFilter, type GroupQuery, type SeriesName, type SortColumn, type ValueRange } from '../model/inspectorModel';
import { maxSelectedGroups, type RolloutsViewState } from '../protocol';
import { isFlag } from './labels';

const sortColumns: readonly SortColumn[] = ['index', 'trajectories', 'mean', 'std', 'min', 'max', 'exceptions', 'completionLength'];

export function parseViewState(raw: unknown): RolloutsViewState | undefined {
  if (!isRecord(raw)) return undefined;
  const selected = Array.isArray(raw.selected) ? raw.selected.filter(isIndex).slice(0, maxSelectedGroups) : [];
  const scrollTop = typeof raw.scrollTop === 'number' && Number.isFinite(raw.scrollTop) && raw.scrollTop > 0 ? raw.scrollTop : 0;
  const state: RolloutsViewState = { query: parseQuery(raw.query), scrollTop, selected };
  if (isIndex(raw.openGroup)) state.openGroup = raw.openGroup;
  return state;
}

function parseQuery(raw: unknown): GroupQuery {
  if (!isRecord(raw) || !isRecord(raw.filter) || !isRecord(raw.sort)) return defaultQuery;
  const filter = raw.filter;
  const column = sortColumns.find((each) => each === (raw.sort as Record<string, unknown>).column) ?? 'index';
  const parsed: GroupFilter = {
    flags: Array.isArray(filter.flags) ? [...new Set(filter.flags.filter(isFlag))] : [],
    ranges: Array.isArray(filter.ranges) ? filter.ranges.filter(isRange).slice(0, queryLimits.ranges) : [],
    metadata: Array.isArray(filter.metadata)
      ? filter.metadata
          .filter((entry): entry is { key: string; value: string } => isRecord(entry) && typeof entry.key === 'string' && typeof entry.value === 'string')
          .map((entry) => ({ key: entry.key.slice(0, queryLimits.keyChars), value: entry.value.slice(0, queryLimits.valueChars) }))
          .slice(0, queryLimits.metadata)
      : [],
    text: typeof filter.text === 'string' ? filter.text.slice(0, queryLimits.textChars) : '',
  };
  return { filter: parsed, sort: { column, descending: raw.sort.descending === true } };
}

function isRange(value: unknown): value is ValueRange {
  if (!isRecord(value) || typeof value.min !== 'number' || typeof value.max !== 'number' || typeof value.series !== 'string') return false;
  const series = value.series as SeriesName;
  return series === 'reward' || series === 'completionLength' || series.startsWith('metric:');
}

function isIndex(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
