/**
 * One metric of a job's gradient steps as a series: its steps and values in step order, their
 * running sums (any window's mean in one subtraction), and the lookups the trends need (a value at
 * a step, the mean between two steps, evenly spaced sample points), each a binary search at most.
 */
import type { TrainingJobEvent } from '../../platform/client/types';

export interface Series {
  key: string;
  steps: Float64Array;
  values: Float64Array;
  /** prefix[i] = sum of values[0..i): any window's mean in one subtraction. */
  prefix: Float64Array;
  count: number;
  notFinite: number;
  firstNotFiniteStep?: number;
  mean: number;
  std: number;
}

export function collect(events: readonly TrainingJobEvent[], jobSteps: readonly (number | undefined)[], allSteps: Float64Array, key: string, capacity: number): Series {
  const steps = new Float64Array(capacity);
  const values = new Float64Array(capacity);
  let count = 0;
  let notFinite = 0;
  let firstNotFiniteStep: number | undefined;
  for (let index = 0, at = -1; index < events.length; index++) {
    if (jobSteps[index] === undefined) continue;
    at++;
    const data = dataOf(events[index]!);
    if (!data || !Object.prototype.hasOwnProperty.call(data, key)) continue;
    const value = data[key];
    if (typeof value === 'number' && Number.isFinite(value)) {
      steps[count] = allSteps[at]!;
      values[count] = value;
      count++;
    } else {
      notFinite++;
      firstNotFiniteStep ??= allSteps[at]!;
    }
  }
  const prefix = new Float64Array(count + 1);
  for (let index = 0; index < count; index++) prefix[index + 1] = prefix[index]! + values[index]!;
  const mean = count > 0 ? prefix[count]! / count : 0;
  let squares = 0;
  let constant = true;
  for (let index = 0; index < count; index++) {
    squares += (values[index]! - mean) ** 2;
    if (values[index] !== values[0]) constant = false;
  }
  return {
    key,
    steps: steps.subarray(0, count),
    values: values.subarray(0, count),
    prefix,
    count,
    notFinite,
    ...(firstNotFiniteStep !== undefined ? { firstNotFiniteStep } : {}),
    mean,
    // A constant's rounded mean differs from it by a hair: its spread is 0, not that hair.
    std: count > 0 && !constant ? Math.sqrt(squares / count) : 0,
  };
}

/** The least-squares slope of values over steps, and the standard deviation of the points around that line. */
export function leastSquares(steps: Float64Array, values: Float64Array, mean: number): { slope: number; residual: number } {
  const count = steps.length;
  let stepMean = 0;
  for (let index = 0; index < count; index++) stepMean += steps[index]!;
  stepMean /= count;
  let sxx = 0;
  let sxy = 0;
  for (let index = 0; index < count; index++) {
    const dx = steps[index]! - stepMean;
    sxx += dx * dx;
    sxy += dx * (values[index]! - mean);
  }
  const slope = sxx > 0 ? sxy / sxx : 0;
  let squares = 0;
  for (let index = 0; index < count; index++) squares += (values[index]! - mean - slope * (steps[index]! - stepMean)) ** 2;
  return { slope, residual: Math.sqrt(squares / count) };
}

/** The mean of a series' points with steps from `from` to `to`, both included. */
export function meanBetween(series: Series, from: number, to: number): number | undefined {
  const start = firstIndexAbove(series.steps, from, false);
  const stop = firstIndexAbove(series.steps, to, true);
  return stop > start ? (series.prefix[stop]! - series.prefix[start]!) / (stop - start) : undefined;
}

export function valueAt(series: Series, step: number): number | undefined {
  const index = lowerBound(series.steps, step);
  return index < series.count && series.steps[index] === step ? series.values[index] : undefined;
}

/** The first index whose step is not below `step`. */
export function lowerBound(steps: Float64Array, step: number): number {
  return firstIndexAbove(steps, step, false);
}

/** The first index whose step is above `step` (`strictly` false: at or above). A binary search: steps only go up. */
export function firstIndexAbove(steps: Float64Array, step: number, strictly: boolean): number {
  let low = 0;
  let high = steps.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (steps[middle]! < step || (strictly && steps[middle] === step)) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Indices of at most `maxPoints` of `steps` (sorted), nearest to evenly spaced steps from the first to the last. */
export function sampleIndices(steps: Float64Array, maxPoints: number): number[] {
  const count = steps.length;
  if (maxPoints <= 0 || count === 0) return [];
  if (count <= maxPoints) return Array.from({ length: count }, (_, index) => index);
  if (maxPoints === 1) return [count - 1];
  const first = steps[0]!;
  const span = steps[count - 1]! - first;
  const chosen: number[] = [];
  for (let k = 0; k < maxPoints; k++) {
    const target = k === maxPoints - 1 ? steps[count - 1]! : first + (span * k) / (maxPoints - 1);
    let index = lowerBound(steps, target);
    if (index >= count) index = count - 1;
    if (index > 0 && target - steps[index - 1]! <= steps[index]! - target) index--;
    if (chosen.length === 0 || index > chosen[chosen.length - 1]!) chosen.push(index);
  }
  return chosen;
}

export function dataOf(event: TrainingJobEvent): Record<string, unknown> | undefined {
  const data: unknown = event.data;
  return typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined;
}
