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
  return new MovingAverage(weight).extend(values);
}

/**
 * The same average, kept for a series that grows: `extend` smooths only the points added since the
 * last call (a live chart gets a point a step, and must not smooth 10,000 again for it).
 */
export class MovingAverage {
  private readonly weight: number;
  private average = 0;
  /** The sum of the weights given so far, which the running average is divided by. */
  private weights = 0;
  private smoothed = new Float64Array(0);
  private length = 0;

  constructor(weight: number) {
    this.weight = Math.min(Math.max(weight, 0), 0.999);
  }

  /** The smoothed series of `values`, whose first points are those given before (the series only grew). */
  extend(values: ArrayLike<number>): Float64Array {
    if (values.length > this.smoothed.length) {
      const grown = new Float64Array(Math.max(values.length, this.smoothed.length * 2));
      grown.set(this.smoothed.subarray(0, this.length));
      this.smoothed = grown;
    }
    const w = this.weight;
    for (let index = this.length; index < values.length; index++) {
      const value = values[index]!;
      if (!Number.isFinite(value)) {
        this.smoothed[index] = value;
        continue;
      }
      this.average = this.average * w + (1 - w) * value;
      this.weights = this.weights * w + (1 - w);
      this.smoothed[index] = this.average / this.weights;
    }
    this.length = Math.max(this.length, values.length);
    return this.smoothed.subarray(0, values.length);
  }
}
