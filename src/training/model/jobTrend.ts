/**
 * The numbers behind "how is this training going": per metric of a job's gradient steps, where it
 * started and ended, its extremes, its slope, a direction word, and the sharpest drop and rise
 * between two windows of steps, with the other metrics that moved in the same windows.
 *
 * Steps are numbered as the job details panel charts them (see core/jobSteps.ts and
 * core/metricSeries.ts): the model step while every gradient step reported one and they only went
 * up, else the job step. The axis is named wherever a step is printed.
 *
 * Bounded: only the last `maxEvents` events are analysed, at most `maxMetrics` metrics are
 * summarised (of at most `maxTrackedKeys` names looked at), and every pass is linear in the events
 * (a binary search per window where two series meet). No recursion.
 */
import type { TrainingJobEvent } from '../../platform/client/types';
import { isTerminalEvent } from './jobStatus';
import { modelStepOf, numberJobSteps, type StepAxis } from './jobSteps';
import { collect, dataOf, leastSquares, meanBetween, sampleIndices, valueAt, type Series } from './stepSeries';

export type TrendDirection = 'rising' | 'falling' | 'flat' | 'noisy';

export interface MetricPoint {
  step: number;
  value: number;
}

/** A run of consecutive points of one metric and their mean. */
export interface StepWindow {
  fromStep: number;
  toStep: number;
  count: number;
  mean: number;
}

/** Another metric's means over the same steps as a window change. */
export interface AlongsideChange {
  key: string;
  before: number;
  after: number;
  change: number;
  /** `change` divided by that metric's standard deviation over the run. */
  relative: number;
}

/** The mean of the window after a step minus the mean of the window before it. */
export interface WindowChange {
  before: StepWindow;
  after: StepWindow;
  change: number;
  /** `change` divided by the metric's standard deviation over the run (0 when that is 0). */
  relative: number;
  /** The other summarised metrics that moved most over the same steps, largest relative change first. */
  alongside: AlongsideChange[];
}

export interface MetricTrend {
  key: string;
  /** Finite numeric values seen. */
  count: number;
  /** Values that were there but not finite numbers (NaN, Infinity, text, null), and the first step with one. */
  notFinite: number;
  firstNotFiniteStep?: number;
  first: MetricPoint;
  last: MetricPoint;
  /** The first point with the smallest and the largest value. */
  min: MetricPoint;
  max: MetricPoint;
  mean: number;
  /** Population standard deviation. */
  std: number;
  /** The first and last tenth of the points, or 5 points when a tenth is fewer (all when fewer than 5). */
  start: StepWindow;
  end: StepWindow;
  /** Least-squares slope, per 100 steps of the axis. */
  slopePer100: number;
  direction: TrendDirection;
  largestDrop?: WindowChange;
  largestRise?: WindowChange;
  /** Values at `MetricsSummary.sampleSteps`, undefined where this metric has no point at that step. */
  samples: (number | undefined)[];
}

export interface MetricsSummary {
  axis: StepAxis;
  /** Events analysed (the last ones) and events left out before them. */
  eventsConsidered: number;
  eventsNotConsidered: number;
  /** Counted gradient steps among the events analysed. */
  gradientSteps: number;
  /** The axis steps of the first and last counted gradient step analysed. */
  firstStep?: number;
  lastStep?: number;
  /** Events of a type this version does not know, and up to five of those types. */
  unknownEvents: number;
  unknownTypes: string[];
  metrics: MetricTrend[];
  /** Metric names seen but not summarised; `moreMetricNames` when names beyond `maxTrackedKeys` were not even counted. */
  metricsNotShown: number;
  moreMetricNames: boolean;
  /** Up to `samplePoints` steps spread evenly over the run, for a compact table. */
  sampleSteps: number[];
}

export interface SummariseOptions {
  /** The last events analysed; at most (and by default) `maxEventsConsidered`. */
  maxEvents?: number;
  /** Metrics summarised, loss and reward first: at most (and by default) `maxMetricsSummarised`. */
  maxMetrics?: number;
  /**
   * The job's counted gradient steps (the status's `step`), which numbers the job steps as the panel
   * does; by default counted from every event given (a plain count, nothing else is read).
   */
  countedSteps?: number;
  /** Points per metric in the compact table (`sampleSteps`): 12 by default. */
  samplePoints?: number;
  /** Points per window of a drop or rise; by default a tenth of the points, at least 5, at most half. */
  window?: number;
}

export const maxEventsConsidered = 100_000;
export const maxMetricsSummarised = 16;
/** Distinct metric names counted: a server that invents a name per event must not grow a map per event. */
export const maxTrackedKeys = 64;
export const defaultSamplePoints = 12;

/**
 * Direction thresholds. Metrics live on any scale (a loss near 1, tokens per second near 10,000), so
 * fixed thresholds would call every token count noisy and every small loss flat; each is relative
 * to the metric itself:
 *
 * - A trend is the change of the least-squares line over the run (slope × span). It counts when it
 *   is at least `trendToScatter` times the scatter of the points around that line (the residual
 *   standard deviation): for points spread evenly over the steps that means the line explains at
 *   least a quarter of the variance (R² ≥ 0.25), so a real rise is not hidden by noise and a noisy
 *   metric is not called rising because of one lucky stretch.
 * - A change or a spread under `flatShare` (2 %) of the metric's largest magnitude is too small to
 *   matter whatever its shape (a schedule nudging 1000 to 1001, a constant learning rate): flat.
 * - No trend and a spread above that: noisy (it moves, but not one way).
 */
const trendToScatter = 2;
const flatShare = 0.02;
/** Another metric "moved alongside" a window change when its means differ by at least this share of its spread. */
const alongsideMinimum = 0.25;
const maxAlongside = 3;
/** Keys of one event's data looked at, at most. */
const maxKeysPerEvent = 256;
/** Metrics people read first; the rest follow by name. */
const firstMetrics = ['loss', 'reward'];

/** Summarises the numeric metrics of a job's gradient steps (events oldest first). */
export function summariseMetrics(events: readonly TrainingJobEvent[], options: SummariseOptions = {}): MetricsSummary {
  const maxEvents = clampWhole(options.maxEvents, 1, maxEventsConsidered, maxEventsConsidered);
  const maxMetrics = clampWhole(options.maxMetrics, 0, maxMetricsSummarised, maxMetricsSummarised);
  const samplePoints = clampWhole(options.samplePoints, 0, 1_000, defaultSamplePoints);
  const dropped = Math.max(0, events.length - maxEvents);
  const considered = dropped > 0 ? events.slice(dropped) : events;
  const jobSteps = numberJobSteps(considered, options.countedSteps ?? countGradientSteps(events));

  // Pass 1: the axis, the gradient steps' axis steps, and which metric names there are.
  let modelAxis = true;
  let lastModelStep = -Infinity;
  let gradientSteps = 0;
  let unknownEvents = 0;
  const unknownTypes: string[] = [];
  /** Per metric name: gradient steps carrying it, and how many of those carry a finite number. */
  const keyCounts = new Map<string, { present: number; finite: number }>();
  let moreMetricNames = false;
  for (let index = 0; index < considered.length; index++) {
    const event = considered[index]!;
    if (!knownTypes.has(event.type)) {
      unknownEvents++;
      const type = String(event.type).slice(0, 40);
      if (unknownTypes.length < 5 && !unknownTypes.includes(type)) unknownTypes.push(type);
    }
    if (jobSteps[index] === undefined) continue;
    gradientSteps++;
    const modelStep = modelStepOf(event);
    if (modelStep === undefined || modelStep <= lastModelStep) modelAxis = false;
    else lastModelStep = modelStep;
    const data = dataOf(event);
    if (!data) continue;
    let examined = 0;
    for (const key in data) {
      // A gradient step is a flat map of a few dozen metrics; one with thousands of keys is not read whole.
      if (++examined > maxKeysPerEvent) break;
      if (key === 'step' || !Object.prototype.hasOwnProperty.call(data, key)) continue;
      let counts = keyCounts.get(key);
      if (!counts) {
        if (keyCounts.size >= maxTrackedKeys + firstMetrics.length || (keyCounts.size >= maxTrackedKeys && !firstMetrics.includes(key))) {
          moreMetricNames = true;
          continue;
        }
        counts = { present: 0, finite: 0 };
        keyCounts.set(key, counts);
      }
      counts.present++;
      const value = data[key];
      if (typeof value === 'number' && Number.isFinite(value)) counts.finite++;
    }
  }
  const axis: StepAxis = modelAxis && gradientSteps > 0 ? 'model' : 'job';

  // The axis step of every counted gradient step, in order (both axes only go up).
  const allSteps = new Float64Array(gradientSteps);
  for (let index = 0, at = 0; index < considered.length; index++) {
    const jobStep = jobSteps[index];
    if (jobStep === undefined) continue;
    allSteps[at++] = axis === 'model' ? modelStepOf(considered[index]!)! : jobStep;
  }

  // Pass 2: the values of the metrics summarised, only those (at most `maxMetrics` arrays).
  // A name that never carried a finite number (a text field, a value always null) is not a metric.
  const keys = [...keyCounts]
    .filter(([, counts]) => counts.finite > 0)
    .map(([key]) => key)
    .sort(byReadingOrder);
  const series = keys.slice(0, maxMetrics).map((key) => collect(considered, jobSteps, allSteps, key, keyCounts.get(key)!.finite));

  const sampleSteps = sampleIndices(allSteps, samplePoints).map((index) => allSteps[index]!);
  const metrics = series.map((item) => trendOf(item, options.window, sampleSteps));
  for (const trend of metrics) {
    if (trend.largestDrop) trend.largestDrop.alongside = alongside(trend.key, trend.largestDrop, series);
    if (trend.largestRise) trend.largestRise.alongside = alongside(trend.key, trend.largestRise, series);
  }
  return {
    axis,
    eventsConsidered: considered.length,
    eventsNotConsidered: dropped,
    gradientSteps,
    ...(gradientSteps > 0 ? { firstStep: allSteps[0]!, lastStep: allSteps[gradientSteps - 1]! } : {}),
    unknownEvents,
    unknownTypes,
    metrics,
    metricsNotShown: keys.length - metrics.length,
    moreMetricNames,
    sampleSteps,
  };
}

/**
 * At most `maxPoints` of `points` (sorted by step), spread evenly by step rather than by position:
 * the point nearest each of `maxPoints` evenly spaced steps from the first to the last, so a long
 * stretch of steps with few points is not over-represented. The first and last points are kept.
 */
export function downsample<T extends { step: number }>(points: readonly T[], maxPoints = defaultSamplePoints): T[] {
  const steps = new Float64Array(points.length);
  for (let index = 0; index < points.length; index++) steps[index] = points[index]!.step;
  return sampleIndices(steps, maxPoints).map((index) => points[index]!);
}

/** Gradient steps the job's status would count: those before the first terminal event. */
function countGradientSteps(events: readonly TrainingJobEvent[]): number {
  let count = 0;
  for (const event of events) {
    if (isTerminalEvent(event)) break;
    if (event.type === 'gradient_step') count++;
  }
  return count;
}

const knownTypes = new Set<string>(['training_started', 'gradient_step', 'training_ended', 'training_failed']);

function trendOf(series: Series, window: number | undefined, sampleSteps: readonly number[]): MetricTrend {
  const { steps, values, count, mean, std } = series;
  let minAt = 0;
  let maxAt = 0;
  for (let index = 1; index < count; index++) {
    if (values[index]! < values[minAt]!) minAt = index;
    if (values[index]! > values[maxAt]!) maxAt = index;
  }
  const ends = Math.min(count, Math.max(5, Math.floor(count / 10)));
  const { slope, residual } = leastSquares(steps, values, mean);
  const span = steps[count - 1]! - steps[0]!;
  const magnitude = Math.max(Math.abs(values[minAt]!), Math.abs(values[maxAt]!));
  const trend: MetricTrend = {
    key: series.key,
    count,
    notFinite: series.notFinite,
    ...(series.firstNotFiniteStep !== undefined ? { firstNotFiniteStep: series.firstNotFiniteStep } : {}),
    first: point(series, 0),
    last: point(series, count - 1),
    min: point(series, minAt),
    max: point(series, maxAt),
    mean,
    std,
    start: windowOf(series, 0, ends),
    end: windowOf(series, count - ends, count),
    slopePer100: std === 0 ? 0 : slope * 100,
    direction: directionOf(slope * span, residual, std, magnitude),
    samples: sampleSteps.map((step) => valueAt(series, step)),
  };
  const width = clampWhole(window, 1, Math.floor(count / 2), Math.min(Math.floor(count / 2), Math.max(5, Math.floor(count / 10))));
  if (count >= 2 && width >= 1) {
    let dropAt = -1;
    let riseAt = -1;
    // Sums of many values carry rounding: a change below a billionth of the metric's size is none.
    const rounding = 1e-9 * magnitude;
    let drop = -rounding;
    let rise = rounding;
    for (let split = width; split + width <= count; split++) {
      const change = (series.prefix[split + width]! - 2 * series.prefix[split]! + series.prefix[split - width]!) / width;
      if (change < drop) {
        drop = change;
        dropAt = split;
      }
      if (change > rise) {
        rise = change;
        riseAt = split;
      }
    }
    if (dropAt >= 0) trend.largestDrop = changeAt(series, dropAt, width);
    if (riseAt >= 0) trend.largestRise = changeAt(series, riseAt, width);
  }
  return trend;
}

function directionOf(change: number, residual: number, std: number, magnitude: number): TrendDirection {
  const small = flatShare * magnitude;
  if (std === 0) return 'flat';
  if (Math.abs(change) >= trendToScatter * residual && Math.abs(change) >= small) return change > 0 ? 'rising' : 'falling';
  return std < small ? 'flat' : 'noisy';
}

function point(series: Series, index: number): MetricPoint {
  return { step: series.steps[index]!, value: series.values[index]! };
}

/** The window of points [from, to). */
function windowOf(series: Series, from: number, to: number): StepWindow {
  return { fromStep: series.steps[from]!, toStep: series.steps[to - 1]!, count: to - from, mean: (series.prefix[to]! - series.prefix[from]!) / (to - from) };
}

function changeAt(series: Series, split: number, width: number): WindowChange {
  const before = windowOf(series, split - width, split);
  const after = windowOf(series, split, split + width);
  const change = after.mean - before.mean;
  return { before, after, change, relative: series.std > 0 ? change / series.std : 0, alongside: [] };
}

/** The other metrics whose means moved most, relative to their spread, over the steps of `change`'s two windows. */
function alongside(key: string, change: WindowChange, all: readonly Series[]): AlongsideChange[] {
  const moved: AlongsideChange[] = [];
  for (const other of all) {
    if (other.key === key || other.std === 0) continue;
    const before = meanBetween(other, change.before.fromStep, change.before.toStep);
    const after = meanBetween(other, change.after.fromStep, change.after.toStep);
    if (before === undefined || after === undefined) continue;
    const relative = (after - before) / other.std;
    if (Math.abs(relative) >= alongsideMinimum) moved.push({ key: other.key, before, after, change: after - before, relative });
  }
  return moved.sort((a, b) => Math.abs(b.relative) - Math.abs(a.relative)).slice(0, maxAlongside);
}

function byReadingOrder(a: string, b: string): number {
  const rank = (key: string) => {
    const index = firstMetrics.indexOf(key);
    return index < 0 ? firstMetrics.length : index;
  };
  return rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0);
}

function clampWhole(value: number | undefined, min: number, max: number, fallback: number): number {
  if (value === undefined || !Number.isFinite(value)) return fallback;
  return Math.min(max, Math.max(min, Math.floor(value)));
}
