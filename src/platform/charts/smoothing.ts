/**
 * Exponential moving average as training dashboards draw it: each point is the weighted mean of
 * the points before it, the weight of a point falling by `weight` per step back, debiased at the
 * start (divided by the weights' sum so far) so that the first points are not pulled towards 0.
 * `weight` 0 leaves the series as it is; 0.99 follows only the long trend.
 *
 * A value that is not finite (a missing metric, a NaN loss) is kept where it is and does not enter
 * the average: a gap in the raw line stays a gap, and the smoothed line goes on around it.
 */
export function exponentialMovingAverage(values: ArrayLike<number>, weight: number): Float64Array {
  const smoothed = new Float64Array(values.length);
  const w = Math.min(Math.max(weight, 0), 0.999);
  let average = 0;
  /** The sum of the weights given so far, which the running average is divided by. */
  let weights = 0;
  for (let index = 0; index < values.length; index++) {
    const value = values[index]!;
    if (!Number.isFinite(value)) {
      smoothed[index] = value;
      continue;
    }
    average = average * w + (1 - w) * value;
    weights = weights * w + (1 - w);
    smoothed[index] = average / weights;
  }
  return smoothed;
}
