/**
 * A histogram of one series as a row of bars, each a button: pressing one filters the groups to
 * those with a trajectory in its range. Bars are divs whose height is set through the CSSOM (the
 * page's policy allows no inline styles in markup), coloured by the theme in rollouts.css.
 */
import type { SeriesStatistics } from '../model/rolloutStatistics';
import type { SeriesName, ValueRange } from '../model/inspectorModel';
import { h } from '../../platform/pages/page/dom';
import { formatCount } from '../../platform/kit/format';
import { formatNumber, formatRate, seriesLabel } from './labels';

export class HistogramView {
  readonly element = h('div', { class: 'histogram' });
  private readonly bars = h('div', { class: 'bars' });
  private readonly axis = h('div', { class: 'axis' });
  private readonly note = h('div', { class: 'muted small' });

  constructor(private readonly onPick: (range: ValueRange) => void) {
    this.bars.setAttribute('role', 'group');
    this.element.append(this.bars, this.axis, this.note);
  }

  render(series: SeriesName, statistics: SeriesStatistics): void {
    const { counts, min, max } = statistics.histogram;
    const name = seriesLabel(series, statistics);
    this.bars.setAttribute('aria-label', `Distribution of ${name}: press a bar to show the groups with a value in its range`);
    const highest = counts.reduce((most, count) => Math.max(most, count), 0);
    const width = (max - min) / counts.length;
    const bars = counts.map((count, bin) => {
      // With min = max every value is in the first bin, whose range is that one value.
      const from = width > 0 ? min + bin * width : min;
      const to = width > 0 ? (bin === counts.length - 1 ? max : min + (bin + 1) * width) : max;
      const range = `${formatNumber(from)} to ${formatNumber(to)}`;
      const bar = h('button', { type: 'button', class: 'bar', title: `${name} ${range}: ${formatCount(count)} trajectories. Click to list the groups with a trajectory in this range.` });
      bar.setAttribute('aria-label', `${name} ${range}: ${formatCount(count)}`);
      const fill = h('span', { class: count > 0 ? 'fill' : 'fill empty' });
      fill.style.height = count > 0 && highest > 0 ? `${Math.max(2, (count / highest) * 100)}%` : '1px';
      bar.append(fill);
      bar.disabled = count === 0;
      bar.addEventListener('click', () => this.onPick({ series, min: from, max: to }));
      return bar;
    });
    // Redrawn as the file is read: a bar that had the keyboard's focus keeps it.
    const focused = [...this.bars.children].indexOf(document.activeElement as Element);
    this.bars.replaceChildren(...bars);
    if (focused >= 0) bars[focused]?.focus();
    this.axis.replaceChildren(h('span', {}, formatNumber(min)), h('span', {}, statistics.count ? formatNumber((min + max) / 2) : ''), h('span', {}, formatNumber(max)));
    this.note.textContent =
      statistics.count === 0
        ? 'No values yet.'
        : `${formatCount(statistics.count)} values · ${statistics.rate ? `true in ${formatRate(statistics.mean)}` : `mean ${formatNumber(statistics.mean)} · std ${formatNumber(statistics.std)}`}${
            statistics.histogramOf < statistics.count ? ` · the bars show the first ${formatCount(statistics.histogramOf)}` : ''
          }`;
  }
}
