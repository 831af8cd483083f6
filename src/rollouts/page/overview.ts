/**
 * The file at a glance: counts, a histogram of the series picked (reward, completion length or a
 * metric), finish reasons and flag counts. A histogram bar adds a range filter, a flag count a flag
 * filter. Redrawn whole on each state: its size is fixed (20 bins, at most 64 series and reasons).
 */
import { groupFlagMeanings, groupFlags, type GroupFlag } from '../model/groupSummaryShape';
import type { RolloutFileState, SeriesName, ValueRange } from '../model/inspectorModel';
import type { RolloutStatistics, SeriesStatistics } from '../model/rolloutStatistics';
import { h } from '../../platform/pages/page/dom';
import { HistogramView } from './histogram';
import { formatCount, plural } from '../../platform/kit/format';
import { formatNumber, seriesLabel } from './labels';

export interface OverviewEvents {
  addRange(range: ValueRange): void;
  toggleFlag(flag: GroupFlag): void;
}

export class Overview {
  readonly element = h('details', { class: 'overview' });
  private readonly cards = h('div', { class: 'cards' });
  private readonly seriesSelect = h('select', { class: 'series-select', ariaLabel: 'Series the histogram shows' });
  private readonly histogram: HistogramView;
  private readonly reasons = h('div', { class: 'bar-list' });
  private readonly flags = h('div', { class: 'bar-list' });
  private seriesKeys = '';
  private statistics: RolloutStatistics | undefined;
  private shown = '';

  constructor(private readonly events: OverviewEvents) {
    this.element.open = true;
    this.histogram = new HistogramView((range) => events.addRange(range));
    this.seriesSelect.addEventListener('change', () => this.renderHistogram());
    const histogramPanel = h('section', { class: 'panel histogram-panel' }, h('div', { class: 'panel-title' }, h('h3', {}, 'Distribution of'), this.seriesSelect), this.histogram.element);
    const reasonsPanel = h('section', { class: 'panel' }, h('h3', {}, 'Finish reasons'), this.reasons);
    const flagsPanel = h('section', { class: 'panel' }, h('h3', {}, 'Flagged groups'), this.flags);
    this.element.append(h('summary', {}, 'Overview'), this.cards, h('div', { class: 'panels' }, histogramPanel, reasonsPanel, flagsPanel));
  }

  render(state: RolloutFileState): void {
    const statistics = state.statistics;
    // A state comes whenever the file changes; figures that did not change are not drawn again.
    const key = JSON.stringify(statistics);
    if (key === this.shown) return;
    this.shown = key;
    this.statistics = statistics;
    this.cards.replaceChildren(
      card('Groups', formatCount(statistics.groups), plural(statistics.trajectories, 'trajectory', 'trajectories')),
      card(
        'Mean reward',
        statistics.reward.count ? formatNumber(statistics.reward.mean) : '—',
        statistics.reward.count ? `std ${formatNumber(statistics.reward.std)} · ${rangeText(statistics.reward)}` : 'no values yet',
      ),
      card('Mean completion length', statistics.completionLength.count ? `${formatCount(Math.round(statistics.completionLength.mean))} chars` : '—', rangeText(statistics.completionLength)),
      card(
        'Exceptions',
        formatCount(statistics.exceptions),
        statistics.exceptions ? `in ${plural(statistics.flags.exceptions, 'group')}` : 'none recorded',
        statistics.exceptions > 0 ? 'warn' : undefined,
      ),
    );
    this.renderSeriesChoices(statistics);
    this.renderHistogram();
    this.renderReasons(statistics.finishReasons);
    this.renderFlags(statistics);
  }

  private renderSeriesChoices(statistics: RolloutStatistics): void {
    const names: SeriesName[] = ['reward', 'completionLength', ...Object.keys(statistics.metrics).map((key): SeriesName => `metric:${key}`)];
    // A metric that turns out to be a rate is labelled again.
    const keys = names.map((name) => `${name}${seriesOf(statistics, name).rate ? ' rate' : ''}`).join('\n');
    if (keys === this.seriesKeys) return;
    this.seriesKeys = keys;
    const current = this.seriesSelect.value;
    this.seriesSelect.replaceChildren(...names.map((name) => option(name, seriesLabel(name, seriesOf(statistics, name)))));
    this.seriesSelect.value = names.includes(current as SeriesName) ? current : 'reward';
  }

  private renderHistogram(): void {
    if (!this.statistics) return;
    const series = (this.seriesSelect.value || 'reward') as SeriesName;
    this.histogram.render(series, seriesOf(this.statistics, series));
  }

  private renderReasons(reasons: Record<string, number>): void {
    const entries = Object.entries(reasons).sort((a, b) => b[1] - a[1]);
    const most = entries.reduce((top, [, count]) => Math.max(top, count), 0);
    this.reasons.replaceChildren(...entries.map(([reason, count]) => barRow(h('span', { class: 'bar-label' }, reason), count, most)));
    if (entries.length === 0) this.reasons.append(h('p', { class: 'muted' }, 'No trained turns yet.'));
  }

  private renderFlags(statistics: RolloutStatistics): void {
    const most = Math.max(1, statistics.groups);
    this.flags.replaceChildren(
      ...groupFlags.map((flag) => {
        const count = statistics.flags[flag] ?? 0;
        const label = h(
          'button',
          { type: 'button', class: 'link-button bar-label', title: `${groupFlagMeanings[flag].meaning}. Click to list these groups.` },
          h('span', { class: `badge flag-${flag}` }, groupFlagMeanings[flag].badge),
          ` ${groupFlagMeanings[flag].label}`,
        );
        label.dataset.flag = flag;
        label.addEventListener('click', () => this.events.toggleFlag(flag));
        return barRow(label, count, most);
      }),
    );
  }
}

function seriesOf(statistics: RolloutStatistics, series: SeriesName): SeriesStatistics {
  if (series === 'reward') return statistics.reward;
  if (series === 'completionLength') return statistics.completionLength;
  return statistics.metrics[series.slice('metric:'.length)] ?? statistics.reward;
}

function card(title: string, value: string, detail: string, tone?: string): HTMLElement {
  return h('div', { class: `card${tone ? ` ${tone}` : ''}` }, h('div', { class: 'card-title' }, title), h('div', { class: 'card-value' }, value), h('div', { class: 'card-detail muted' }, detail));
}

function rangeText(series: SeriesStatistics, unit = ''): string {
  return series.count ? `from ${formatNumber(series.min)}${unit} to ${formatNumber(series.max)}${unit}` : 'no values yet';
}

function barRow(label: HTMLElement, count: number, most: number): HTMLElement {
  const fill = h('span', { class: 'fill' });
  fill.style.width = `${most > 0 ? (count / most) * 100 : 0}%`;
  return h('div', { class: 'bar-row' }, label, h('span', { class: 'hbar' }, fill), h('span', { class: 'bar-count' }, formatCount(count)));
}

function option(value: string, label: string): HTMLOptionElement {
  const element = h('option', {}, label);
  element.value = value;
  return element;
}
