import { formatMetric } from '../../platform/kit/format';
import { svg } from '../../platform/pages/page/dom';
import type { FlagWords, StepRow } from '../protocol';

const rewardHeight = 170;
const flagHeight = 90;
const gap = 22;
const margin = { top: 10, right: 14, bottom: 22, left: 52 };
/** Flag colours: classes flag-0 … flag-5 map to the theme's chart colours in localRun.css. */
const flagPalette = 6;

/** The words a step's column carries in its tooltip (SVG <title>) and the list. */
export function stepSummary(row: StepRow, flags: readonly FlagWords[]): string {
  if (row.state === 'failed') return `Step ${row.step}: not read (${row.reason ?? 'unknown reason'})`;
  if (row.state === 'pending' || !row.figures) return `Step ${row.step}: reading…`;
  const figures = row.figures;
  const flagged = flags
    .map((flag, index) => ({ flag, count: figures.flagCounts[index] ?? 0 }))
    .filter((entry) => entry.count > 0)
    .map((entry) => `${entry.flag.badge} ${entry.count}`);
  const reward = figures.meanReward === undefined ? 'no reward' : `mean reward ${formatMetric(figures.meanReward)}`;
  return `Step ${row.step}: ${reward} · ${figures.groups} groups, ${figures.trajectories} trajectories${flagged.length ? ` · ${flagged.join(', ')}` : ''}${figures.unreadableGroups ? ` · ${figures.unreadableGroups} groups not readable` : ''}`;
}

/**
 * The run's chart across steps, drawn as SVG from the page: the mean reward per step as a line (a
 * step not read, or not readable, breaks the line: a gap, never a guess) and the groups carrying
 * each flag as stacked bars below it. Every step has a column that shows its figures on hover and
 * opens the step when clicked.
 */
export class RunChart {
  readonly element: SVGSVGElement;
  private width = 640;

  constructor(private readonly onStep: (step: number) => void) {
    this.element = svg('svg', { role: 'img', class: 'run-chart' });
  }

  setWidth(width: number): boolean {
    const next = Math.max(240, Math.floor(width));
    if (next === this.width) return false;
    this.width = next;
    return true;
  }

  render(rows: readonly StepRow[], flags: readonly FlagWords[]): void {
    const height = margin.top + rewardHeight + gap + flagHeight + margin.bottom;
    const plot = this.element;
    plot.setAttribute('width', String(this.width));
    plot.setAttribute('height', String(height));
    plot.setAttribute('viewBox', `0 0 ${this.width} ${height}`);
    const read = rows.filter((row) => row.state === 'read').length;
    plot.setAttribute('aria-label', `Mean reward and flagged groups across ${rows.length} steps; ${read} read`);
    plot.replaceChildren();
    if (rows.length === 0) return;

    const innerWidth = this.width - margin.left - margin.right;
    const firstStep = rows[0]!.step;
    const lastStep = rows[rows.length - 1]!.step;
    const span = Math.max(1, lastStep - firstStep);
    const xOf = (step: number) => margin.left + (lastStep === firstStep ? innerWidth / 2 : ((step - firstStep) / span) * innerWidth);
    const column = Math.max(1, Math.min(24, innerWidth / Math.max(1, rows.length)));

    // Reward scale from the steps read so far.
    const rewards = rows.map((row) => row.figures?.meanReward).filter((value): value is number => value !== undefined && Number.isFinite(value));
    let [low, high] = rewards.length ? [Math.min(...rewards), Math.max(...rewards)] : [0, 1];
    if (low === high) [low, high] = [low - 0.5, high + 0.5];
    const rewardTop = margin.top;
    const yOf = (value: number) => rewardTop + rewardHeight - ((value - low) / (high - low)) * rewardHeight;
    for (const tick of [low, (low + high) / 2, high]) {
      const y = yOf(tick);
      plot.append(svg('line', { class: 'grid', x1: margin.left, x2: this.width - margin.right, y1: y, y2: y }));
      const label = svg('text', { class: 'tick', x: margin.left - 6, y: y + 4, 'text-anchor': 'end' });
      label.textContent = formatMetric(tick);
      plot.append(label);
    }
    const rewardLabel = svg('text', { class: 'axis-name', x: margin.left, y: rewardTop + 10 });
    rewardLabel.textContent = 'mean reward';
    plot.append(rewardLabel);

    // The line, broken wherever a step has no reward (not read yet, failed, no trajectories).
    let path = '';
    let open = false;
    for (const row of rows) {
      const value = row.figures?.meanReward;
      if (value === undefined || !Number.isFinite(value)) {
        open = false;
        continue;
      }
      path += `${open ? 'L' : 'M'}${xOf(row.step).toFixed(1)},${yOf(value).toFixed(1)}`;
      open = true;
    }
    if (path) plot.append(svg('path', { class: 'reward-line', d: path }));
    for (const row of rows) {
      const value = row.figures?.meanReward;
      if (value !== undefined && Number.isFinite(value) && rows.length <= 200) plot.append(svg('circle', { class: 'reward-point', cx: xOf(row.step), cy: yOf(value), r: 2.5 }));
    }

    // Flagged groups per step, stacked.
    const flagTop = rewardTop + rewardHeight + gap;
    const totals = rows.map((row) => (row.figures ? row.figures.flagCounts.reduce((sum, count) => sum + count, 0) : 0));
    const most = Math.max(1, ...totals);
    const flagLabel = svg('text', { class: 'axis-name', x: margin.left, y: flagTop - 5 });
    flagLabel.textContent = `flagged groups (up to ${most})`;
    plot.append(flagLabel);
    plot.append(svg('line', { class: 'axis', x1: margin.left, x2: this.width - margin.right, y1: flagTop + flagHeight, y2: flagTop + flagHeight }));
    for (const row of rows) {
      const x = xOf(row.step) - column / 2;
      if (row.state === 'failed') {
        plot.append(svg('rect', { class: 'gap', x, y: rewardTop, width: column, height: flagTop + flagHeight - rewardTop }));
      } else if (row.figures) {
        let y = flagTop + flagHeight;
        row.figures.flagCounts.forEach((count, index) => {
          if (count === 0) return;
          const barHeight = (count / most) * flagHeight;
          y -= barHeight;
          plot.append(svg('rect', { class: `bar flag-${index % flagPalette}`, x, y, width: Math.max(1, column - 1), height: barHeight }));
        });
      }
      // The step's column: its tooltip, and a click opens it.
      const hit = svg('rect', { class: 'hit', x, y: rewardTop, width: column, height: flagTop + flagHeight - rewardTop, 'data-step': row.step });
      const title = svg('title');
      title.textContent = stepSummary(row, flags);
      hit.append(title);
      hit.addEventListener('click', () => this.onStep(row.step));
      plot.append(hit);
    }

    // Step axis: first and last step, and the middle one.
    const axisY = flagTop + flagHeight + 16;
    for (const step of [...new Set([firstStep, rows[Math.floor(rows.length / 2)]!.step, lastStep])]) {
      const label = svg('text', { class: 'tick', x: xOf(step), y: axisY, 'text-anchor': 'middle' });
      label.textContent = String(step);
      plot.append(label);
    }
  }
}
