import { chartGeometry, nearestIndex, SmoothingCache, type ChartAxes, type ChartGeometry, type ChartLine } from '../../../charts/chartGeometry';
import { formatMetric } from '../../../kit/format';
import { button, h, svg } from '../dom';
import type { ChartGroup, GroupedChart } from './chartGroup';

const defaultHeight = 160;
const margin = { top: 10, right: 14, bottom: 24, left: 56 };
/** The right margin when a line is read against a right axis: room for its labels. */
const rightAxisMargin = 52;
/** Colour classes map to VS Code's chart colours in pageBase.css. */
export const paletteSize = 6;
/** A drag shorter than this is a click, not a zoom. */
const minimumDragPx = 5;

export interface ChartSeriesData extends ChartLine {
  /** The series' name in the legend and the hover (foreign text: set as text only). */
  label: string;
  colorIndex: number;
  /** How the hover names the step of a point ("model step 58 · job step 34"); the x value otherwise. */
  describeX?: (index: number) => string;
  /** What the hover says of the point at `index` (foreign text: set as text only); "label: value" otherwise. */
  describePoint?: (index: number) => string;
  /** A level to compare with (a base model's score), drawn dashed or dotted, with no dot and no latest value. */
  reference?: 'dashed' | 'dotted';
  /** A dot on every point drawn, not only the latest: a series of few points (checkpoints) reads better so. */
  dotEveryPoint?: boolean;
}

/** What a chart may do beyond one plain scale: taller, labels of its own, a second axis, its own CSV. */
export interface MetricChartOptions extends ChartAxes {
  height?: number;
  /** The left axis' labels (a score to two places, say); every value is formatted alike otherwise. */
  formatY?: (value: number) => string;
  /** The CSV export's text, when the chart's data reads better in columns of its own than as series, step, value. */
  csv?: () => string;
  /** What a screen reader hears of the chart; the series and their latest values otherwise. */
  describe?: () => string;
}

/** A step marked on a chart: where a job started, say. */
export interface ChartMarker {
  x: number;
  /** Its tooltip (foreign text: set as text only). */
  label: string;
}

/** What a chart hands to an export: a file name and its content. */
export interface ChartFile {
  fileName: string;
  content: string;
  encoding: 'utf8' | 'base64';
}

/**
 * A line chart of one or more series against steps, drawn as SVG with the theme's colours, read
 * together with the other charts of its group (chartGroup.ts): smoothing with the raw line kept
 * faint, a log scale, zoom by dragging across steps (double-click for the whole range), one hover
 * across charts. Exports its data as CSV and itself as a PNG drawn on a canvas from the same
 * geometry (a page may load no image, so the SVG is never rasterised through one).
 */
export class MetricChart implements GroupedChart {
  readonly element: HTMLElement;
  private readonly plot: SVGSVGElement;
  private readonly latest: HTMLElement;
  private readonly hoverBox: HTMLElement;
  private readonly note: HTMLElement;
  private width = 340;
  private lines: ChartSeriesData[] = [];
  private markers: ChartMarker[] = [];
  private geometry: ChartGeometry | undefined;
  private readonly cache = new SmoothingCache();
  private drag: { startPx: number; band: SVGRectElement } | undefined;
  private readonly height: number;

  constructor(
    private readonly group: ChartGroup,
    private readonly title: string,
    private readonly xName: () => string,
    private readonly onExport: (file: ChartFile) => void,
    private readonly options: MetricChartOptions = {},
  ) {
    this.height = options.height ?? defaultHeight;
    this.element = h('figure', { class: 'chart' });
    this.element.dataset.metric = title;
    const caption = h('figcaption');
    this.latest = h('span', { class: 'chart-latest' });
    const csv = button('CSV', () => this.onExport(this.csv()), { title: `Save the data of ${title} as CSV`, class: 'chart-action' });
    const png = button('PNG', () => this.onExport(this.png()), { title: `Save this chart of ${title} as a PNG image`, class: 'chart-action' });
    caption.append(h('span', { class: 'chart-title' }, title), this.latest, h('span', { class: 'chart-actions' }, csv, png));
    this.plot = svg('svg', { height: this.height, role: 'img' });
    this.hoverBox = h('div', { class: 'chart-hover' });
    this.hoverBox.hidden = true;
    this.note = h('div', { class: 'chart-note muted' });
    this.note.hidden = true;
    this.element.append(caption, this.plot, this.hoverBox, this.note);
    this.plot.addEventListener('mousemove', (event) => this.onMove(event));
    this.plot.addEventListener('mouseleave', () => {
      this.endDrag(undefined);
      this.group.hover(undefined);
    });
    this.plot.addEventListener('mousedown', (event) => this.startDrag(event));
    this.plot.addEventListener('mouseup', (event) => this.endDrag(event));
    this.plot.addEventListener('dblclick', () => this.group.setView({ xRange: undefined }));
    group.add(this);
  }

  setLines(lines: ChartSeriesData[]): void {
    this.lines = lines;
    this.render();
  }

  /** Steps to mark with a dashed line (where a job started), each with what its tooltip says. */
  setMarkers(markers: ChartMarker[]): void {
    this.markers = markers;
  }

  setWidth(width: number): void {
    const next = Math.max(180, Math.floor(width));
    if (next === this.width) return;
    this.width = next;
    this.render();
  }

  render(): void {
    const view = this.group.view;
    const height = this.height;
    const margin = this.margin;
    const geometry = chartGeometry(this.lines, view, { width: this.width, height, margin }, this.cache, { logAxis: this.options.logAxis ?? 'left' });
    this.geometry = geometry;
    this.plot.setAttribute('width', String(this.width));
    this.plot.setAttribute('viewBox', `0 0 ${this.width} ${height}`);
    const children: SVGElement[] = [];
    const formatY = this.options.formatY ?? formatMetric;
    for (const tick of geometry.yTicks) {
      children.push(svg('line', { class: 'grid', x1: margin.left, x2: this.width - margin.right, y1: tick.px, y2: tick.px }));
      children.push(text('axis', margin.left - 6, tick.px + 4, 'end', formatY(tick.value)));
    }
    for (const tick of geometry.rightTicks) children.push(text('axis right-axis', this.width - margin.right + 6, tick.px + 4, 'start', formatMetric(tick.value)));
    for (const tick of geometry.xTicks) children.push(text('axis x-axis', tick.px, height - 8, 'middle', formatMetric(tick.value)));
    const [low, high] = geometry.xDomain;
    for (const marker of this.markers) {
      if (marker.x < low || marker.x > high) continue;
      const px = margin.left + (high === low ? 0.5 : (marker.x - low) / (high - low)) * (this.width - margin.left - margin.right);
      const line = svg('line', { class: 'marker', x1: px, x2: px, y1: margin.top, y2: height - margin.bottom });
      const tooltip = svg('title');
      tooltip.textContent = marker.label;
      line.append(tooltip);
      children.push(line);
    }
    children.push(text('axis x-name', this.width - margin.right, height - 8 + 10, 'end', view.xRange ? `${this.xName()} (zoomed: double-click for all)` : this.xName()));
    // Bands first, under every line.
    geometry.lines.forEach((line, index) => {
      if (line.band && line.band.length > 0) children.push(svg('path', { class: `band series-${(this.lines[index]?.colorIndex ?? index) % paletteSize}`, d: `${pathOf(line.band)}Z` }));
    });
    geometry.lines.forEach((line, index) => {
      const series = this.lines[index];
      const color = `series-${(series?.colorIndex ?? index) % paletteSize}`;
      const style = series?.reference ? ` ${series.reference}` : '';
      children.push(svg('path', { class: `line ${color}${line.smoothed ? ' raw' : ''}${style}`, d: pathOf(line.raw) }));
      if (line.smoothed) children.push(svg('path', { class: `line ${color}${style}`, d: pathOf(line.smoothed) }));
      if (series?.dotEveryPoint) {
        line.indices.forEach((at, drawn) => {
          children.push(svg('circle', { class: `dot ${color}`, cx: line.raw[drawn * 2]!, cy: line.raw[drawn * 2 + 1]!, r: 3, 'data-series': series.key, 'data-step': series.xs[at]! }));
        });
      } else if (line.last && !series?.reference) children.push(svg('circle', { class: `dot ${color}`, cx: line.last.x, cy: line.last.y, r: 2.5 }));
    });
    this.plot.replaceChildren(...children);
    const names = this.lines.map((line) => line.label).join(', ');
    const lastValues = geometry.lines.map((line, index) => (line.last && !this.lines[index]?.reference ? formatMetric(line.last.value) : '')).filter(Boolean);
    this.latest.textContent = lastValues.join(' · ');
    this.plot.setAttribute(
      'aria-label',
      this.options.describe?.() ?? `${this.title} by ${this.xName()}: ${names}; ${geometry.pointsInRange} points${lastValues.length ? `, latest ${lastValues.join(', ')}` : ''}`,
    );
    this.note.hidden = geometry.notPositive === 0;
    this.note.textContent = geometry.notPositive ? `${geometry.notPositive} value${geometry.notPositive === 1 ? '' : 's'} at or below zero not drawn on the log scale.` : '';
  }

  /** Shows the values of every series at the step nearest to `x` (another chart of the group may be the one hovered). */
  showHover(x: number | undefined): void {
    this.plot.querySelector('.cursor')?.remove();
    if (x === undefined || !this.geometry || this.lines.length === 0) {
      this.hoverBox.hidden = true;
      return;
    }
    const [low, high] = this.geometry.xDomain;
    if (x < low || x > high) {
      this.hoverBox.hidden = true;
      return;
    }
    const margin = this.margin;
    const height = this.height;
    const px = margin.left + (high === low ? 0.5 : (x - low) / (high - low)) * (this.width - margin.left - margin.right);
    this.plot.append(svg('line', { class: 'cursor', x1: px, x2: px, y1: margin.top, y2: height - margin.bottom }));
    const rows: string[] = [];
    let stepText: string | undefined;
    for (const line of this.lines) {
      const index = nearestIndex(line.xs, x);
      if (index < 0) continue;
      stepText ??= line.describeX?.(index) ?? `${this.xName()} ${formatMetric(line.xs[index]!)}`;
      if (line.describePoint) {
        rows.push(line.describePoint(index));
        continue;
      }
      const smoothed = this.group.view.smoothing > 0 ? this.cache.smoothed(line, Math.min(this.group.view.smoothing, 0.99))[index] : undefined;
      const interval = line.band ? ` (${formatMetric(line.band.low[index]!)} to ${formatMetric(line.band.high[index]!)})` : '';
      rows.push(`${line.label}: ${formatMetric(line.ys[index]!)}${interval}${smoothed !== undefined && Number.isFinite(smoothed) ? ` (smoothed ${formatMetric(smoothed)})` : ''}`);
    }
    this.hoverBox.replaceChildren(h('div', { class: 'hover-step' }, stepText ?? ''), ...rows.map((row) => h('div', {}, row)));
    this.hoverBox.hidden = false;
    // CSSOM positioning: allowed by the content security policy, unlike style attributes.
    this.hoverBox.style.left = `${Math.max(0, Math.min(px + 8, this.width - this.hoverBox.offsetWidth))}px`;
  }

  dispose(): void {
    this.group.remove(this);
  }

  /** Every point of every series (the raw values, and the smoothed ones when smoothing), or the chart's own columns. */
  csv(): ChartFile {
    if (this.options.csv) return { fileName: `${fileSafe(this.title)}.csv`, content: this.options.csv(), encoding: 'utf8' };
    const smoothing = this.group.view.smoothing;
    const rows = ['series,step,value' + (smoothing > 0 ? ',smoothed' : '')];
    for (const line of this.lines) {
      const smoothed = smoothing > 0 ? this.cache.smoothed(line, Math.min(smoothing, 0.99)) : undefined;
      for (let index = 0; index < line.xs.length; index++) {
        rows.push([csvField(line.label), line.xs[index], line.ys[index], ...(smoothed ? [smoothed[index]] : [])].join(','));
      }
    }
    return { fileName: `${fileSafe(this.title)}.csv`, content: `${rows.join('\n')}\n`, encoding: 'utf8' };
  }

  /** The chart drawn on a canvas, twice the size for sharpness, in the theme's colours as they are now. */
  png(): ChartFile {
    const scale = 2;
    const height = this.height;
    const canvas = document.createElement('canvas');
    canvas.width = this.width * scale;
    canvas.height = height * scale;
    const context = canvas.getContext('2d');
    if (context) {
      context.scale(scale, scale);
      context.fillStyle = getComputedStyle(this.element).backgroundColor || '#ffffff';
      context.fillRect(0, 0, this.width, height);
      for (const element of Array.from(this.plot.children)) drawOnCanvas(context, element as SVGElement);
    }
    return { fileName: `${fileSafe(this.title)}.png`, content: canvas.toDataURL('image/png').replace(/^data:image\/png;base64,/, ''), encoding: 'base64' };
  }

  /** Room on the right for a second axis' labels when a line is read against one. */
  private get margin(): typeof margin {
    return this.lines.some((line) => line.axis === 'right') ? { ...margin, right: rightAxisMargin } : margin;
  }

  private xAt(event: MouseEvent): number | undefined {
    if (!this.geometry) return undefined;
    const margin = this.margin;
    const box = this.plot.getBoundingClientRect();
    const px = ((event.clientX - box.left) / (box.width || 1)) * this.width;
    const [low, high] = this.geometry.xDomain;
    const inner = this.width - margin.left - margin.right;
    return low + ((px - margin.left) / inner) * (high - low);
  }

  private pxAt(event: MouseEvent): number {
    const box = this.plot.getBoundingClientRect();
    return ((event.clientX - box.left) / (box.width || 1)) * this.width;
  }

  private onMove(event: MouseEvent): void {
    if (this.drag) {
      const px = this.pxAt(event);
      this.drag.band.setAttribute('x', String(Math.min(px, this.drag.startPx)));
      this.drag.band.setAttribute('width', String(Math.abs(px - this.drag.startPx)));
    }
    this.group.hover(this.xAt(event));
  }

  private startDrag(event: MouseEvent): void {
    if (event.button !== 0) return;
    const startPx = this.pxAt(event);
    const band = svg('rect', { class: 'zoom-band', x: startPx, y: margin.top, width: 0, height: this.height - margin.top - margin.bottom });
    this.plot.append(band);
    this.drag = { startPx, band };
  }

  private endDrag(event: MouseEvent | undefined): void {
    const drag = this.drag;
    this.drag = undefined;
    drag?.band.remove();
    if (!drag || !event || !this.geometry) return;
    const endPx = this.pxAt(event);
    if (Math.abs(endPx - drag.startPx) < minimumDragPx) return;
    const [low, high] = this.geometry.xDomain;
    const margin = this.margin;
    const inner = this.width - margin.left - margin.right;
    const toX = (px: number) => low + ((Math.min(Math.max(px, margin.left), this.width - margin.right) - margin.left) / inner) * (high - low);
    const from = toX(Math.min(drag.startPx, endPx));
    const to = toX(Math.max(drag.startPx, endPx));
    if (to > from) this.group.setView({ xRange: [from, to] });
  }
}

function text(className: string, x: number, y: number, anchor: string, value: string): SVGTextElement {
  const element = svg('text', { class: className, x, y, 'text-anchor': anchor });
  element.textContent = value;
  return element;
}

function pathOf(points: Float64Array): string {
  let path = '';
  for (let at = 0; at < points.length; at += 2) path += `${at === 0 ? 'M' : 'L'}${points[at]!.toFixed(1)},${points[at + 1]!.toFixed(1)}`;
  return path;
}

/** Draws one element of the chart's SVG on a canvas, in its computed colours. */
function drawOnCanvas(context: CanvasRenderingContext2D, element: SVGElement): void {
  const style = getComputedStyle(element);
  const number = (name: string) => Number(element.getAttribute(name) ?? 0);
  context.globalAlpha = Number(style.strokeOpacity || style.opacity || 1);
  if (element instanceof SVGPathElement || element instanceof SVGLineElement) {
    context.beginPath();
    if (element instanceof SVGLineElement) {
      context.moveTo(number('x1'), number('y1'));
      context.lineTo(number('x2'), number('y2'));
    } else {
      for (const command of (element.getAttribute('d') ?? '').matchAll(/([ML])([-\d.]+),([-\d.]+)|Z/g)) {
        if (command[0] === 'Z') context.closePath();
        else if (command[1] === 'M') context.moveTo(Number(command[2]), Number(command[3]));
        else context.lineTo(Number(command[2]), Number(command[3]));
      }
    }
    // A band is filled (its outline is not drawn); a line is stroked, dashed as on the page.
    if (element instanceof SVGPathElement && style.fill && style.fill !== 'none') {
      context.globalAlpha = Number(style.fillOpacity || 1);
      context.fillStyle = style.fill;
      context.fill();
    }
    if (style.stroke && style.stroke !== 'none') {
      context.strokeStyle = style.stroke;
      context.lineWidth = Number.parseFloat(style.strokeWidth) || 1;
      const dashes =
        style.strokeDasharray && style.strokeDasharray !== 'none'
          ? style.strokeDasharray
              .split(/[\s,]+/)
              .map(Number.parseFloat)
              .filter(Number.isFinite)
          : [];
      context.setLineDash(dashes);
      context.globalAlpha = Number(style.strokeOpacity || style.opacity || 1);
      context.stroke();
      context.setLineDash([]);
    }
  } else if (element instanceof SVGCircleElement) {
    context.fillStyle = style.fill;
    context.beginPath();
    context.arc(number('cx'), number('cy'), number('r'), 0, 2 * Math.PI);
    context.fill();
  } else if (element instanceof SVGTextElement) {
    context.fillStyle = style.fill;
    context.font = `${style.fontSize} ${style.fontFamily}`;
    const anchor = element.getAttribute('text-anchor');
    context.textAlign = anchor === 'end' ? 'right' : anchor === 'middle' ? 'center' : 'left';
    context.fillText(element.textContent ?? '', number('x'), number('y'));
  }
  context.globalAlpha = 1;
}

/**
 * A CSV field of foreign text (a series' name): quoted when it holds a comma, a quote or a line
 * break, and kept from reading as a formula in a spreadsheet (a leading `=`, `+`, `-` or `@`).
 */
export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** A file name from a metric key (`train/loss` → `train-loss`). */
function fileSafe(name: string): string {
  return (
    name
      .replace(/[^\w.-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 80) || 'chart'
  );
}

/** The width of one chart in a page's grid of charts: as many columns as the grid's width fits. */
export function chartWidthIn(grid: HTMLElement): number {
  const width = grid.clientWidth || 640;
  // The grid's CSS (pageBase.css: auto-fill, at least 340 px, 12 px gaps), so a chart never overflows its cell.
  const columns = Math.max(1, Math.floor((width + 12) / (340 + 12)));
  return (width - (columns - 1) * 12) / columns - 2;
}
