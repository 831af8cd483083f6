/**
 * Score against step: each checkpoint's mean score with its 95 % interval as a band, by training
 * step, and on a second axis (right) a training metric of the same checkpoints (a reward when one
 * is recorded; a select picks another). The base model is the dashed line from step 0, catalogue
 * models dotted lines across: what training has to beat. SVG with theme colours only.
 */
import type { EvalModelRef, LeaderboardRow } from '../model/evalModel';
import { formatMetric } from '../../platform/kit/format';
import { h, svg } from '../../platform/pages/page/dom';
import { formatScore, modelLabel, shortLabel } from './labels';

const height = 230;
const margin = { top: 14, right: 56, bottom: 36, left: 46 };

/** The metric keys the checkpoints record, and the one shown first: a key named like reward, else the first. */
export function metricChoices(models: readonly EvalModelRef[]): { keys: string[]; preferred: string | undefined } {
  const keys: string[] = [];
  for (const model of models) {
    if (model.kind !== 'checkpoint' || !model.metrics) continue;
    for (const [key, value] of Object.entries(model.metrics)) if (typeof value === 'number' && Number.isFinite(value) && !keys.includes(key)) keys.push(key);
  }
  const preferred = keys.find((key) => key.toLowerCase() === 'reward') ?? keys.find((key) => /reward/i.test(key)) ?? keys[0];
  return { keys, preferred };
}

interface CheckpointPoint {
  step: number;
  row: LeaderboardRow;
  model: EvalModelRef;
}

export class ScoreChart {
  readonly element: HTMLElement;
  private readonly plot: SVGSVGElement;
  private readonly select = h('select', { ariaLabel: 'Training metric on the right axis' });
  private readonly legend = h('div', { class: 'chart-legend' });
  private readonly empty = h('p', { class: 'muted', hidden: true }, 'No checkpoint with a step in this run: nothing to draw against the step.');
  private width = 480;
  private rows: readonly LeaderboardRow[] = [];
  private models: readonly EvalModelRef[] = [];
  private metric: string | undefined;
  private metricKeys: string[] = [];

  constructor(private readonly metricChanged: (metric: string) => void) {
    this.plot = svg('svg', { height, role: 'img', class: 'score-chart' });
    this.select.addEventListener('change', () => {
      this.metric = this.select.value || undefined;
      if (this.metric) this.metricChanged(this.metric);
      this.draw();
    });
    const metricLabel = h('label', { class: 'metric-pick', title: 'A training metric recorded with each checkpoint, drawn against the right axis' }, 'Right axis ', this.select);
    const head = h('div', { class: 'panel-head' }, h('h2', {}, 'Score against step'), metricLabel);
    this.element = h('section', { class: 'panel chart-panel', ariaLabel: 'Score against step' }, head, this.plot, this.legend, this.empty);
    new ResizeObserver(() => {
      const next = Math.max(280, Math.floor(this.element.clientWidth - 24));
      if (next !== this.width) {
        this.width = next;
        this.draw();
      }
    }).observe(this.element);
  }

  render(rows: readonly LeaderboardRow[], models: readonly EvalModelRef[], savedMetric: string | undefined): void {
    this.rows = rows;
    this.models = models;
    const { keys, preferred } = metricChoices(models);
    if (keys.join('\n') !== this.metricKeys.join('\n')) {
      this.metricKeys = keys;
      this.select.replaceChildren(...keys.map((key) => h('option', {}, key)));
      for (const option of this.select.options) option.value = option.textContent ?? '';
    }
    if (!this.metric || !keys.includes(this.metric)) this.metric = savedMetric && keys.includes(savedMetric) ? savedMetric : preferred;
    this.select.value = this.metric ?? '';
    (this.select.parentElement as HTMLElement).hidden = keys.length === 0;
    this.draw();
  }

  private draw(): void {
    const byModel = new Map(this.rows.map((row) => [row.model, row]));
    const points: CheckpointPoint[] = [];
    for (const model of this.models) {
      const row = byModel.get(model.id);
      if (model.kind === 'checkpoint' && model.step !== undefined && row && row.scored > 0) points.push({ step: model.step, row, model });
    }
    points.sort((a, b) => a.step - b.step);
    const base = this.models.find((model) => model.kind === 'base');
    const baseRow = base && byModel.get(base.id);
    const catalogue = this.models.filter((model) => model.kind === 'catalogue').flatMap((model) => (byModel.get(model.id)?.scored ? [{ model, row: byModel.get(model.id)! }] : []));
    this.plot.replaceChildren();
    this.plot.setAttribute('width', String(this.width));
    this.plot.setAttribute('viewBox', `0 0 ${this.width} ${height}`);
    this.empty.hidden = points.length > 0;
    this.plot.classList.toggle('is-empty', points.length === 0);
    if (points.length === 0) {
      this.legend.replaceChildren();
      return;
    }
    const innerWidth = this.width - margin.left - margin.right;
    const innerHeight = height - margin.top - margin.bottom;
    const hasBase = Boolean(baseRow?.scored);
    const minStep = hasBase ? Math.min(0, points[0]!.step) : points[0]!.step;
    const maxStep = points[points.length - 1]!.step;
    const xOf = (step: number) => margin.left + (maxStep === minStep ? innerWidth / 2 : ((step - minStep) / (maxStep - minStep)) * innerWidth);
    const scoreValues = [...points.flatMap((point) => [point.row.low, point.row.high]), ...(hasBase ? [baseRow!.mean] : []), ...catalogue.map((each) => each.row.mean)].filter(Number.isFinite);
    const [minY, maxY] = padded(Math.min(...scoreValues), Math.max(...scoreValues));
    const yOf = (value: number) => margin.top + innerHeight - ((value - minY) / (maxY - minY)) * innerHeight;

    for (const tick of ticks(minY, maxY)) {
      const y = yOf(tick);
      this.plot.append(svg('line', { class: 'grid', x1: margin.left, x2: margin.left + innerWidth, y1: y, y2: y }));
      this.plot.append(text('axis score-axis', margin.left - 6, y + 4, 'end', formatScore(tick)));
    }
    const steps = [...(hasBase && points[0]!.step !== 0 ? [0] : []), ...points.map((point) => point.step)];
    for (const step of legibleSteps(steps, xOf)) this.plot.append(text('axis x-axis', xOf(step), height - 20, 'middle', formatMetric(step)));
    this.plot.append(text('axis axis-name', margin.left + innerWidth / 2, height - 3, 'middle', 'training step'));

    // The interval band, then the mean line over it.
    const upper = points.map((point) => `${xOf(point.step).toFixed(1)},${yOf(point.row.high).toFixed(1)}`);
    const lower = points.map((point) => `${xOf(point.step).toFixed(1)},${yOf(point.row.low).toFixed(1)}`).reverse();
    this.plot.append(svg('path', { class: 'ci-band', d: `M${[...upper, ...lower].join('L')}Z` }));
    if (hasBase) {
      const y = yOf(baseRow!.mean);
      this.plot.append(svg('line', { class: 'base-line', x1: xOf(0), x2: margin.left + innerWidth, y1: y, y2: y }));
      const marker = svg('circle', { class: 'base-point', cx: xOf(0), cy: y, r: 3.5 });
      marker.append(title(`base (${base!.id}): ${formatScore(baseRow!.mean, 3)}`));
      this.plot.append(marker, text('line-label base-label', xOf(0) + 6, y - 5, 'start', 'base'));
    }
    for (const { model, row } of catalogue) {
      const y = yOf(row.mean);
      const line = svg('line', { class: 'catalogue-line', x1: margin.left, x2: margin.left + innerWidth, y1: y, y2: y });
      line.append(title(`${modelLabel(model)}: ${formatScore(row.mean, 3)}`));
      this.plot.append(line, text('line-label catalogue-label', margin.left + 4, y - 4, 'start', shortLabel(model)));
    }
    this.plot.append(svg('path', { class: 'score-line', d: pathOf(points.map((point) => [xOf(point.step), yOf(point.row.mean)])) }));
    for (const point of points) {
      const dot = svg('circle', { class: 'score-point', cx: xOf(point.step), cy: yOf(point.row.mean), r: 4, 'data-step': point.step, 'data-model': point.model.id });
      dot.append(title(`${modelLabel(point.model)}: mean ${formatScore(point.row.mean, 3)} (95 % CI ${formatScore(point.row.low, 3)} to ${formatScore(point.row.high, 3)})`));
      this.plot.append(dot);
    }

    const metric = this.metric;
    const metricPoints = metric
      ? points.filter((point) => Number.isFinite(point.model.metrics?.[metric])).map((point) => ({ step: point.step, value: point.model.metrics![metric]!, model: point.model }))
      : [];
    if (metricPoints.length > 0) {
      const values = metricPoints.map((point) => point.value);
      const [low, high] = padded(Math.min(...values), Math.max(...values));
      const y2Of = (value: number) => margin.top + innerHeight - ((value - low) / (high - low)) * innerHeight;
      for (const tick of ticks(low, high)) this.plot.append(text('axis metric-axis', margin.left + innerWidth + 6, y2Of(tick) + 4, 'start', formatMetric(tick)));
      this.plot.append(svg('path', { class: 'metric-line', d: pathOf(metricPoints.map((point) => [xOf(point.step), y2Of(point.value)])) }));
      for (const point of metricPoints) {
        const dot = svg('rect', { class: 'metric-point', x: xOf(point.step) - 3, y: y2Of(point.value) - 3, width: 6, height: 6, 'data-step': point.step });
        dot.append(title(`${modelLabel(point.model)}: ${metric} ${formatMetric(point.value)} (training)`));
        this.plot.append(dot);
      }
    }
    const best = points.reduce((top, point) => (point.row.mean > top.row.mean ? point : top), points[0]!);
    this.plot.setAttribute(
      'aria-label',
      `Mean score of ${points.length} checkpoints by step, best ${modelLabel(best.model)} at ${formatScore(best.row.mean, 3)}${metricPoints.length ? `, with ${metric} on the right axis` : ''}`,
    );
    const keys = [legendItem('key-score', 'mean score (95 % CI band)')];
    if (metricPoints.length) keys.push(legendItem('key-metric', `${metric} (training, right axis)`));
    if (hasBase) keys.push(legendItem('key-base', 'base model'));
    if (catalogue.length) keys.push(legendItem('key-catalogue', 'catalogue models'));
    this.legend.replaceChildren(...keys);
  }
}

/** Width of a step label on the axis, in pixels: about a character's width each, and a gap. */
const labelWidth = (step: number): number => formatMetric(step).length * 7 + 8;

/**
 * The steps labelled on the axis: every one that has room, the first and the last always. Steps
 * close together (98, 99, 100 beside 0) would print over one another; the dots keep every step, and
 * each dot's tooltip names it.
 */
export function legibleSteps(steps: readonly number[], xOf: (step: number) => number): number[] {
  const shown: number[] = [];
  const rightOf = (step: number): number => xOf(step) + labelWidth(step) / 2;
  const leftOf = (step: number): number => xOf(step) - labelWidth(step) / 2;
  for (const step of steps) {
    const previous = shown.at(-1);
    if (previous === undefined || leftOf(step) >= rightOf(previous)) shown.push(step);
  }
  const last = steps.at(-1);
  if (last !== undefined && shown.at(-1) !== last) {
    // The last step is labelled: it takes the place of the label it would overlap.
    while (shown.length > 1 && leftOf(last) < rightOf(shown.at(-1)!)) shown.pop();
    shown.push(last);
  }
  return shown;
}

function legendItem(key: string, label: string): HTMLElement {
  return h('span', { class: 'legend-item' }, h('span', { class: `legend-key ${key}` }), label);
}

function pathOf(points: [number, number][]): string {
  return points.map(([x, y], index) => `${index === 0 ? 'M' : 'L'}${x.toFixed(1)},${y.toFixed(1)}`).join('');
}

function text(className: string, x: number, y: number, anchor: string, content: string): SVGTextElement {
  const element = svg('text', { class: className, x, y, 'text-anchor': anchor });
  element.textContent = content;
  return element;
}

function title(content: string): SVGTitleElement {
  const element = svg('title');
  element.textContent = content;
  return element;
}

function padded(min: number, max: number): [number, number] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [0, 1];
  if (min === max) return [min - (Math.abs(min) * 0.1 || 0.5), max + (Math.abs(max) * 0.1 || 0.5)];
  const pad = (max - min) * 0.08;
  return [min - pad, max + pad];
}

/** Round values (1, 2 or 5 times a power of ten apart) inside [min, max], about four of them. */
function ticks(min: number, max: number): number[] {
  const raw = (max - min) / 4;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((factor) => factor * power).find((candidate) => candidate >= raw) ?? raw;
  const out: number[] = [];
  for (let value = Math.ceil(min / step) * step; value <= max + step * 1e-9 && out.length < 12; value += step) out.push(Number(value.toPrecision(12)));
  return out;
}
