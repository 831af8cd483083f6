import { formatMetric } from '../../platform/kit/format';
import { stepAxisName, type StepAxis } from '../model/jobSteps';
import { stepsOn, type MetricSeries } from '../model/metricSeries';
import { h, svg } from '../../platform/pages/page/dom';

const height = 150;
const margin = { top: 10, right: 12, bottom: 22, left: 52 };
/** Colour classes map to VS Code's chart colours in jobDetails.css. */
const paletteSize = 6;

interface Point {
  x: number;
  y: number;
  jobStep: number;
  modelStep: number;
  value: number;
}

/**
 * A line chart of one metric against the step axis its set chose (model or job step, named under
 * the axis and in the hover), drawn as SVG with the theme's colours.
 * Long series are reduced to the lowest and highest value per pixel column, so a spike is never
 * lost and drawing stays cheap however long the job runs.
 */
export class LineChart {
  readonly element: HTMLElement;
  private readonly plot: SVGSVGElement;
  private readonly latest: HTMLElement;
  private readonly hover: HTMLElement;
  private width = 320;
  private points: Point[] = [];

  /** `axis` says which step numbering the x axis uses now: the same for every chart of a job. */
  constructor(
    private readonly series: MetricSeries,
    colorIndex: number,
    private readonly axis: () => StepAxis,
  ) {
    this.element = h('figure', { class: `chart series-${colorIndex % paletteSize}` });
    this.element.setAttribute('data-metric', series.key);
    const caption = h('figcaption');
    caption.append(h('span', { class: 'chart-title' }, series.key));
    this.latest = h('span', { class: 'chart-latest' });
    caption.append(this.latest);
    this.plot = svg('svg', { height, role: 'img' });
    this.hover = h('div', { class: 'chart-hover' });
    this.hover.hidden = true;
    this.element.append(caption, this.plot, this.hover);
    this.plot.addEventListener('mousemove', (event) => this.showNearest(event));
    this.plot.addEventListener('mouseleave', () => this.clearHover());
  }

  setWidth(width: number): void {
    const next = Math.max(160, Math.floor(width));
    if (next === this.width) return;
    this.width = next;
    this.render();
  }

  render(): void {
    const { values } = this.series;
    const axis = this.axis();
    const axisName = stepAxisName(axis);
    const steps = stepsOn(this.series, axis);
    this.plot.setAttribute('width', String(this.width));
    this.plot.setAttribute('viewBox', `0 0 ${this.width} ${height}`);
    const latest = values.length ? `, latest ${formatMetric(values[values.length - 1]!)} at ${axisName} ${formatMetric(steps[steps.length - 1]!)}` : '';
    this.plot.setAttribute('aria-label', `${this.series.key} by ${axisName}: ${values.length} points${latest}`);
    this.plot.replaceChildren();
    this.latest.textContent = values.length ? formatMetric(values[values.length - 1]!) : '';
    if (values.length === 0) return;

    const innerWidth = this.width - margin.left - margin.right;
    const innerHeight = height - margin.top - margin.bottom;
    const [minX, maxX] = extent(steps);
    const [minY, maxY] = padded(extent(values));
    const xOf = (step: number) => margin.left + (maxX === minX ? innerWidth / 2 : ((step - minX) / (maxX - minX)) * innerWidth);
    const yOf = (value: number) => margin.top + innerHeight - ((value - minY) / (maxY - minY)) * innerHeight;

    for (const tick of [minY, (minY + maxY) / 2, maxY]) {
      const y = yOf(tick);
      this.plot.append(svg('line', { class: 'grid', x1: margin.left, x2: this.width - margin.right, y1: y, y2: y }));
      const label = svg('text', { class: 'axis', x: margin.left - 6, y: y + 4, 'text-anchor': 'end' });
      label.textContent = formatMetric(tick);
      this.plot.append(label);
    }
    // The ends of the x axis carry numbers, its middle says which numbering they are.
    const xLabels: [string, number, string][] =
      minX === maxX
        ? [[`${axisName} ${formatMetric(minX)}`, xOf(minX), 'middle']]
        : [
            [formatMetric(minX), xOf(minX), 'start'],
            [axisName, margin.left + innerWidth / 2, 'middle'],
            [formatMetric(maxX), xOf(maxX), 'end'],
          ];
    for (const [text, x, anchor] of xLabels) {
      const label = svg('text', { class: 'axis x-axis', x, y: height - 6, 'text-anchor': anchor });
      label.textContent = text;
      this.plot.append(label);
    }

    this.points = reduce(this.series, steps, xOf, yOf, innerWidth);
    const path = this.points.map((point, index) => `${index === 0 ? 'M' : 'L'}${point.x.toFixed(1)},${point.y.toFixed(1)}`).join('');
    this.plot.append(svg('path', { class: 'line', d: path }));
    if (this.points.length === 1) this.plot.append(svg('circle', { class: 'dot', cx: this.points[0]!.x, cy: this.points[0]!.y, r: 3 }));
    const last = this.points[this.points.length - 1]!;
    this.plot.append(svg('circle', { class: 'dot', cx: last.x, cy: last.y, r: 2.5 }));
  }

  private showNearest(event: MouseEvent): void {
    if (this.points.length === 0) return;
    const box = this.plot.getBoundingClientRect();
    const x = ((event.clientX - box.left) / box.width) * this.width;
    let nearest = this.points[0]!;
    for (const point of this.points) if (Math.abs(point.x - x) < Math.abs(nearest.x - x)) nearest = point;
    this.plot.querySelector('.cursor')?.remove();
    this.plot.append(svg('circle', { class: 'dot cursor', cx: nearest.x, cy: nearest.y, r: 4 }));
    this.hover.textContent = `${describePoint(nearest, this.axis())}: ${formatMetric(nearest.value)}`;
    this.hover.hidden = false;
    // CSSOM positioning: allowed by the content security policy, unlike style attributes. The box
    // stays inside the chart, however long its text.
    this.hover.style.left = `${Math.max(0, Math.min(nearest.x, this.width - this.hover.offsetWidth))}px`;
  }

  private clearHover(): void {
    this.plot.querySelector('.cursor')?.remove();
    this.hover.hidden = true;
  }
}

function extent(values: readonly number[]): [number, number] {
  let min = Infinity;
  let max = -Infinity;
  for (const value of values) {
    if (value < min) min = value;
    if (value > max) max = value;
  }
  return [min, max];
}

function padded([min, max]: [number, number]): [number, number] {
  if (min === max) {
    const pad = min === 0 ? 1 : Math.abs(min) * 0.1;
    return [min - pad, max + pad];
  }
  const pad = (max - min) * 0.05;
  return [min - pad, max + pad];
}

/** "model step 58 · job step 34": the axis's numbering first, then the other one when known. */
export function describePoint(point: Pick<Point, 'jobStep' | 'modelStep'>, axis: StepAxis): string {
  const model = Number.isFinite(point.modelStep) ? `model step ${formatMetric(point.modelStep)}` : undefined;
  const job = `job step ${formatMetric(point.jobStep)}`;
  if (axis === 'model' && model) return `${model} · ${job}`;
  return model ? `${job} · ${model}` : job;
}

/** Keeps every point when they fit, else the first, lowest, highest and last point per pixel column. */
function reduce(series: MetricSeries, steps: readonly number[], xOf: (step: number) => number, yOf: (value: number) => number, innerWidth: number): Point[] {
  const all = series.values.map((value, index) => ({
    jobStep: series.jobSteps[index]!,
    modelStep: series.modelSteps[index]!,
    value,
    x: xOf(steps[index]!),
    y: yOf(value),
  }));
  if (all.length <= innerWidth * 2) return all;
  const out: Point[] = [];
  let column: Point[] = [];
  let columnIndex = Math.floor(all[0]!.x);
  const flush = () => {
    if (column.length === 0) return;
    let low = column[0]!;
    let high = column[0]!;
    for (const point of column) {
      if (point.value < low.value) low = point;
      if (point.value > high.value) high = point;
    }
    const picked = [column[0]!, low, high, column[column.length - 1]!].filter((point, index, list) => list.indexOf(point) === index);
    picked.sort((a, b) => a.x - b.x);
    out.push(...picked);
    column = [];
  };
  for (const point of all) {
    if (Math.floor(point.x) !== columnIndex) {
      flush();
      columnIndex = Math.floor(point.x);
    }
    column.push(point);
  }
  flush();
  return out;
}
