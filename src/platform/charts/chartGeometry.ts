/**
 * Where a chart's lines, ticks and points go, in pixels: one computation for every way a chart is
 * drawn (SVG on the page, a PNG export). Pure, so it is tested in Node and timed by the benchmark.
 *
 * - The x range is the view's zoom (the whole series when none); the y range fits the raw points
 *   in it, padded, on a linear or a log scale (values at or below zero are not drawn on a log
 *   scale, and counted).
 * - Each line is drawn raw and, when the view smooths, smoothed too (an exponential moving average
 *   over the whole series, so zooming in does not change it). Both are downsampled within the range
 *   to about two points per pixel by largest-triangle-three-buckets, which keeps the first and last
 *   point, the highest and the lowest: the latest value and every spike stay.
 * - A line may carry an interval around each value (a mean's 95 % interval), drawn as a band through
 *   the same points as the line, and may be read against a second axis on the right (a training
 *   metric beside a score); the log scale applies to one axis, the left unless the chart says.
 */
import { largestTriangleThreeBuckets } from './downsample';
import { MovingAverage } from './smoothing';

export interface ChartLine {
  key: string;
  /** Steps, ascending. */
  xs: ArrayLike<number>;
  ys: ArrayLike<number>;
  /** The bounds of an interval around each value, by index: drawn as a band behind the line. */
  band?: { low: ArrayLike<number>; high: ArrayLike<number> };
  /** The axis the line is read against: the left one unless it says. */
  axis?: 'left' | 'right';
}

/** Which y axis the view's log scale applies to. */
export interface ChartAxes {
  logAxis?: 'left' | 'right';
}

export interface ChartView {
  /** 0 (none) to 0.99. */
  smoothing: number;
  logScale: boolean;
  /** The zoom on x; undefined for the whole range. */
  xRange?: readonly [number, number];
  /** The steps every chart of a page spans at least, so that charts read side by side line up. */
  xSpan?: readonly [number, number];
}

export interface ChartBox {
  width: number;
  height: number;
  margin: { top: number; right: number; bottom: number; left: number };
}

export interface Tick {
  px: number;
  value: number;
}

export interface LineGeometry {
  key: string;
  /** Pixel pairs x0, y0, x1, y1… of the raw points drawn. */
  raw: Float64Array;
  /** The same for the smoothed line, when the view smooths. */
  smoothed?: Float64Array;
  /** The latest point in range, in pixels, and its value (smoothed when smoothing). */
  last?: { x: number; y: number; value: number };
  /** The series index of each raw point drawn. */
  indices: number[];
  /** The band's outline, when the line has one: pixel pairs along the highs, then back along the lows. */
  band?: Float64Array;
}

export interface ChartGeometry {
  lines: LineGeometry[];
  xTicks: Tick[];
  yTicks: Tick[];
  xDomain: readonly [number, number];
  yDomain: readonly [number, number];
  /** The right axis, when a line is read against it. */
  rightTicks: Tick[];
  rightDomain?: readonly [number, number];
  /** Values not drawn because the scale is logarithmic and they are not above zero. */
  notPositive: number;
  /** Points in range across all lines, before downsampling. */
  pointsInRange: number;
}

/**
 * Smoothed copies are kept per series and weight: a redraw on zoom or hover does not smooth again,
 * and a series that grew (the same array, longer) has only its new points smoothed.
 */
export class SmoothingCache {
  private readonly kept = new Map<string, { ys: ArrayLike<number>; length: number; weight: number; average: MovingAverage; smoothed: Float64Array }>();

  smoothed(line: ChartLine, weight: number): Float64Array {
    let kept = this.kept.get(line.key);
    if (kept && kept.ys === line.ys && kept.weight === weight && kept.length === line.ys.length) return kept.smoothed;
    if (!kept || kept.ys !== line.ys || kept.weight !== weight || kept.length > line.ys.length) {
      kept = { ys: line.ys, length: 0, weight, average: new MovingAverage(weight), smoothed: new Float64Array(0) };
      this.kept.set(line.key, kept);
    }
    kept.smoothed = kept.average.extend(line.ys);
    kept.length = line.ys.length;
    return kept.smoothed;
  }
}

export function chartGeometry(lines: readonly ChartLine[], view: ChartView, box: ChartBox, cache = new SmoothingCache(), axes: ChartAxes = {}): ChartGeometry {
  const innerWidth = Math.max(1, box.width - box.margin.left - box.margin.right);
  const innerHeight = Math.max(1, box.height - box.margin.top - box.margin.bottom);
  const [ownMin, ownMax] = xExtent(lines);
  const fullMin = view.xSpan && Number.isFinite(view.xSpan[0]) ? Math.min(ownMin, view.xSpan[0]) : ownMin;
  const fullMax = view.xSpan && Number.isFinite(view.xSpan[1]) ? Math.max(ownMax, view.xSpan[1]) : ownMax;
  const xDomain: [number, number] = view.xRange ? [Math.max(fullMin, view.xRange[0]), Math.min(fullMax, view.xRange[1])] : [fullMin, fullMax];
  if (!(xDomain[0] <= xDomain[1])) xDomain.splice(0, 2, fullMin, fullMax);
  const smoothing = Math.min(Math.max(view.smoothing, 0), 0.99);
  const logAxis = view.logScale ? (axes.logAxis ?? 'left') : undefined;
  const sideOf = (line: ChartLine) => line.axis ?? 'left';
  const usableOn = (side: 'left' | 'right') => (logAxis === side ? (value: number) => Number.isFinite(value) && value > 0 : (value: number) => Number.isFinite(value));

  // The points in range, per line, and the y range they span on each axis.
  const extent = { left: { min: Infinity, max: -Infinity }, right: { min: Infinity, max: -Infinity } };
  let notPositive = 0;
  let pointsInRange = 0;
  const ranges = lines.map((line) => {
    const from = lowerBound(line.xs, xDomain[0]);
    const to = upperBound(line.xs, xDomain[1]);
    pointsInRange += Math.max(0, to - from);
    const side = sideOf(line);
    const usable = usableOn(side);
    const span = extent[side];
    const widen = (values: ArrayLike<number>, count: boolean) => {
      for (let index = from; index < to; index++) {
        const value = values[index]!;
        if (!usable(value)) {
          if (count && Number.isFinite(value)) notPositive++;
          continue;
        }
        if (value < span.min) span.min = value;
        if (value > span.max) span.max = value;
      }
    };
    widen(line.ys, true);
    if (line.band) {
      widen(line.band.low, false);
      widen(line.band.high, false);
    }
    return { from, to };
  });
  const xOf = (x: number) => box.margin.left + (xDomain[1] === xDomain[0] ? innerWidth / 2 : ((x - xDomain[0]) / (xDomain[1] - xDomain[0])) * innerWidth);
  const scaleOf = (side: 'left' | 'right') => {
    const log = logAxis === side;
    const domain = paddedDomain(extent[side].min, extent[side].max, log);
    const toY = log ? (value: number) => Math.log10(value) : (value: number) => value;
    const [low, high] = [toY(domain[0]), toY(domain[1])];
    const yOf = (y: number) => box.margin.top + innerHeight - ((toY(y) - low) / (high - low || 1)) * innerHeight;
    const values = log ? logTicks(domain[0], domain[1]) : niceTicks(domain[0], domain[1], Math.max(2, Math.floor(innerHeight / 40)));
    return { domain, yOf, usable: usableOn(side), ticks: values.map((value) => ({ px: yOf(value), value })) };
  };
  const left = scaleOf('left');
  const hasRight = lines.some((line) => sideOf(line) === 'right');
  const right = hasRight ? scaleOf('right') : undefined;
  const budget = Math.max(4, Math.round(innerWidth * 2));

  const geometries = lines.map((line, at) => {
    const { from, to } = ranges[at]!;
    const { yOf, usable } = sideOf(line) === 'right' && right ? right : left;
    const xs = sliceOf(line.xs, from, to);
    const ys = maskedSlice(line.ys, from, to, usable);
    const drawn = largestTriangleThreeBuckets(xs, ys, budget);
    const raw = pixels(xs, ys, drawn, xOf, yOf);
    const geometry: LineGeometry = { key: line.key, raw, indices: drawn.map((index) => index + from) };
    if (line.band) geometry.band = bandOutline(xs, maskedSlice(line.band.low, from, to, usable), maskedSlice(line.band.high, from, to, usable), drawn, xOf, yOf);
    let lastYs = ys;
    if (smoothing > 0) {
      const smoothedYs = maskedSlice(cache.smoothed(line, smoothing), from, to, usable);
      geometry.smoothed = pixels(xs, smoothedYs, largestTriangleThreeBuckets(xs, smoothedYs, budget), xOf, yOf);
      lastYs = smoothedYs;
    }
    for (let index = xs.length - 1; index >= 0; index--) {
      if (Number.isFinite(lastYs[index]!)) {
        geometry.last = { x: xOf(xs[index]!), y: yOf(lastYs[index]!), value: lastYs[index]! };
        break;
      }
    }
    return geometry;
  });

  // Steps are whole numbers: no tick between two of them.
  const xTicks = niceTicks(xDomain[0], xDomain[1], Math.max(2, Math.floor(innerWidth / 90)), 1).map((value) => ({ px: xOf(value), value }));
  return {
    lines: geometries,
    xTicks,
    yTicks: left.ticks,
    xDomain,
    yDomain: left.domain,
    rightTicks: right?.ticks ?? [],
    ...(right ? { rightDomain: right.domain } : {}),
    notPositive,
    pointsInRange,
  };
}

/** The index of the point nearest to `x` in ascending `xs`, or -1 when there is none. */
export function nearestIndex(xs: ArrayLike<number>, x: number): number {
  if (xs.length === 0) return -1;
  const after = lowerBound(xs, x);
  if (after === 0) return 0;
  if (after >= xs.length) return xs.length - 1;
  return x - xs[after - 1]! <= xs[after]! - x ? after - 1 : after;
}

/** About `count` round values (1, 2 or 5 times a power of ten apart) covering [min, max]. */
export function niceTicks(min: number, max: number, count: number, minStep = 0): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [];
  if (min === max) return [min];
  const rough = (max - min) / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(rough));
  // The nice factor nearest to the rough step on a log scale (the thresholds are the geometric means).
  const ratio = rough / power;
  const step = Math.max(minStep, power * (ratio >= Math.sqrt(50) ? 10 : ratio >= Math.sqrt(10) ? 5 : ratio >= Math.sqrt(2) ? 2 : 1));
  const ticks: number[] = [];
  for (let value = Math.ceil(min / step) * step; value <= max + step * 1e-9 && ticks.length < 50; value += step) ticks.push(Number(value.toPrecision(12)));
  return ticks;
}

/** Powers of ten within [min, max] (min > 0); the ends themselves when no power falls inside. */
export function logTicks(min: number, max: number): number[] {
  const ticks: number[] = [];
  for (let power = Math.ceil(Math.log10(min)); 10 ** power <= max * (1 + 1e-12) && ticks.length < 30; power++) ticks.push(10 ** power);
  return ticks.length > 0 ? ticks : [min, max];
}

function xExtent(lines: readonly ChartLine[]): [number, number] {
  let min = Infinity;
  let max = -Infinity;
  for (const line of lines) {
    if (line.xs.length === 0) continue;
    min = Math.min(min, line.xs[0]!);
    max = Math.max(max, line.xs[line.xs.length - 1]!);
  }
  return Number.isFinite(min) ? [min, max] : [0, 1];
}

function paddedDomain(min: number, max: number, log: boolean): [number, number] {
  if (!Number.isFinite(min)) return log ? [1, 10] : [0, 1];
  if (log) return min === max ? [min / 2, max * 2] : [min / 1.1, max * 1.1];
  if (min === max) {
    const pad = min === 0 ? 1 : Math.abs(min) * 0.1;
    return [min - pad, max + pad];
  }
  const pad = (max - min) * 0.05;
  return [min - pad, max + pad];
}

/** The first index whose x is at least `x` (xs ascending). */
function lowerBound(xs: ArrayLike<number>, x: number): number {
  let low = 0;
  let high = xs.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (xs[middle]! < x) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The first index whose x is above `x`. */
function upperBound(xs: ArrayLike<number>, x: number): number {
  let low = 0;
  let high = xs.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (xs[middle]! <= x) low = middle + 1;
    else high = middle;
  }
  return low;
}

function sliceOf(values: ArrayLike<number>, from: number, to: number): Float64Array {
  const slice = new Float64Array(Math.max(0, to - from));
  for (let index = from; index < to; index++) slice[index - from] = values[index]!;
  return slice;
}

/** A slice with the values that cannot be drawn as NaN (downsampling skips them). */
function maskedSlice(values: ArrayLike<number>, from: number, to: number, usable: (value: number) => boolean): Float64Array {
  const slice = new Float64Array(Math.max(0, to - from));
  for (let index = from; index < to; index++) {
    const value = values[index]!;
    slice[index - from] = usable(value) ? value : Number.NaN;
  }
  return slice;
}

/** A band's outline through the points drawn where both bounds can be drawn: along the highs, then back along the lows. */
function bandOutline(xs: Float64Array, lows: Float64Array, highs: Float64Array, drawn: readonly number[], xOf: (x: number) => number, yOf: (y: number) => number): Float64Array {
  const kept = drawn.filter((index) => Number.isFinite(lows[index]!) && Number.isFinite(highs[index]!));
  const out = new Float64Array(kept.length * 4);
  kept.forEach((index, at) => {
    out[at * 2] = xOf(xs[index]!);
    out[at * 2 + 1] = yOf(highs[index]!);
    const back = (kept.length * 2 - 1 - at) * 2;
    out[back] = xOf(xs[index]!);
    out[back + 1] = yOf(lows[index]!);
  });
  return out;
}

function pixels(xs: Float64Array, ys: Float64Array, indices: readonly number[], xOf: (x: number) => number, yOf: (y: number) => number): Float64Array {
  const out = new Float64Array(indices.length * 2);
  indices.forEach((index, at) => {
    out[at * 2] = xOf(xs[index]!);
    out[at * 2 + 1] = yOf(ys[index]!);
  });
  return out;
}
