/**
 * File-level figures of a rollout file, gathered group by group as the file is read, so the
 * inspector can paint them before the end: counts, reward / completion-length / metric
 * distributions, finish reasons and flags. `snapshot()` may be called at any time.
 *
 * Means and standard deviations are kept by Welford's running update, over every value. Histograms need the
 * range first, so they are drawn from the values kept: the first `maxKeptValues` of each series
 * (a note says when a series was longer).
 */
import { Column, columnCount, groupFlags, type GroupFlag, type GroupSummary } from './groupSummaryShape';

export const histogramBins = 20;
/** Values kept per series for histograms: 8 bytes each, so 8 MB per series at most. */
export const maxKeptValues = 1_000_000;
/** Distinct metric keys and finish reasons counted; others are folded into one "other" entry. */
export const maxSeriesKeys = 64;
export const otherKey = '(other)';

export interface Histogram {
  /** `bins` equal-width bins from min to max; the last bin includes max. All values in bin 0 when the width is 0 (min = max, or a range too small to divide). */
  min: number;
  max: number;
  counts: number[];
}

export interface SeriesStatistics {
  count: number;
  mean: number;
  /** Population standard deviation. */
  std: number;
  min: number;
  max: number;
  histogram: Histogram;
  /** Values beyond `maxKeptValues` are in the count, mean and std but not in the histogram. */
  histogramOf: number;
  /** Set when every value was a boolean (1 or 0): the mean is the rate of true. */
  rate?: true;
}

export interface RolloutStatistics {
  groups: number;
  trajectories: number;
  exceptions: number;
  reward: SeriesStatistics;
  completionLength: SeriesStatistics;
  /** Per numeric trajectory-metric key. */
  metrics: Record<string, SeriesStatistics>;
  finishReasons: Record<string, number>;
  /** Groups carrying each flag. */
  flags: Record<GroupFlag, number>;
}

class Series {
  private count = 0;
  private mean = 0;
  /** The sum of squared deviations from the running mean. */
  private squares = 0;
  private min = Infinity;
  private max = -Infinity;
  /** The first values, for the histogram: a typed array grown by doubling (no boxed numbers for the collector to walk). */
  private kept: Float64Array = new Float64Array(1024);
  private keptCount = 0;

  /**
   * Adds every `stride`-th value of `values` from `from`, skipping NaN (a value that is missing):
   * one call per group and series rather than per value, the running figures in locals meanwhile.
   */
  addEvery(values: Float64Array, from: number, stride: number): void {
    let { count, mean, squares, min, max, keptCount, kept } = this;
    for (let at = from; at < values.length; at += stride) {
      const value = values[at]!;
      if (Number.isNaN(value)) continue;
      count++;
      const before = value - mean;
      mean += before / count;
      squares += before * (value - mean);
      if (value < min) min = value;
      if (value > max) max = value;
      if (keptCount < maxKeptValues) {
        if (keptCount === kept.length) kept = this.grow(keptCount);
        kept[keptCount++] = value;
      }
    }
    this.count = count;
    this.mean = mean;
    this.squares = squares;
    this.min = min;
    this.max = max;
    this.keptCount = keptCount;
  }

  /** What a metric's values were so far: booleans only, or numbers too (reward and length are never told). */
  private kind: 'untold' | 'booleans' | 'numbers' = 'untold';

  /** A group's values of this metric were all booleans, or not. */
  tellKind(booleans: boolean): void {
    if (this.kind !== 'numbers') this.kind = booleans ? 'booleans' : 'numbers';
  }

  snapshot(): SeriesStatistics {
    const statistics = seriesStatistics(this.count, this.mean, this.squares, this.min, this.max, this.kept.subarray(0, this.keptCount));
    return this.kind === 'booleans' && statistics.count > 0 ? { ...statistics, rate: true } : statistics;
  }

  private grow(used: number): Float64Array {
    const larger = new Float64Array(Math.min(maxKeptValues, this.kept.length * 2));
    larger.set(this.kept.subarray(0, used));
    this.kept = larger;
    return larger;
  }
}

/** The figures of one series, from its running mean and squared deviations and the values kept for the histogram. */
function seriesStatistics(count: number, mean: number, squares: number, min: number, max: number, kept: Float64Array): SeriesStatistics {
  if (count === 0) return { count: 0, mean: 0, std: 0, min: 0, max: 0, histogram: { min: 0, max: 0, counts: new Array<number>(histogramBins).fill(0) }, histogramOf: 0 };
  const std = Math.sqrt(Math.max(0, squares / count));
  return { count, mean, std, min, max, histogram: histogramOf(kept, min, max), histogramOf: kept.length };
}

function histogramOf(values: Float64Array, min: number, max: number): Histogram {
  const counts = new Uint32Array(histogramBins);
  const width = (max - min) / histogramBins;
  if (width > 0) {
    for (let at = 0; at < values.length; at++) {
      // The quotient is at least 0 and at most `histogramBins`, so truncating is flooring.
      const bin = ((values[at]! - min) / width) | 0;
      counts[bin < histogramBins ? bin : histogramBins - 1]!++;
    }
  } else {
    counts[0] = values.length;
  }
  return { min, max, counts: Array.from(counts) };
}

// Read once: transpiled one module per file (as the tests and the benchmark run it), each use of
// another module's export is a call through a getter, which the per-group loop would pay every time.
const stride = columnCount;
const rewardColumn = Column.Reward;
const completionLengthColumn = Column.CompletionLength;

export class RolloutStatisticsBuilder {
  private groups = 0;
  private trajectories = 0;
  private exceptions = 0;
  private readonly reward = new Series();
  private readonly completionLength = new Series();
  private readonly metrics = new Map<string, Series>();
  private readonly finishReasons = new Map<string, number>();
  private lastKeys: readonly string[] = [];
  private lastSeries: (Series | undefined)[] = [];
  private readonly flags = Object.fromEntries(groupFlags.map((flag) => [flag, 0])) as Record<GroupFlag, number>;

  add(group: GroupSummary): void {
    this.groups++;
    this.trajectories += group.trajectoryCount;
    this.exceptions += group.exceptionCount;
    const flags = group.flags;
    for (let at = 0; at < flags.length; at++) this.flags[flags[at]!]++;
    this.reward.addEvery(group.columns, rewardColumn, stride);
    this.completionLength.addEvery(group.columns, completionLengthColumn, stride);
    // Counted by runs of the same reason: most of a group's choices stop the same way.
    const reasons = group.finishReasons;
    for (let at = 0; at < reasons.length;) {
      const reason = reasons[at]!;
      let end = at + 1;
      while (end < reasons.length && reasons[end] === reason) end++;
      const key = this.finishReasons.has(reason) || this.finishReasons.size < maxSeriesKeys ? reason : otherKey;
      this.finishReasons.set(key, (this.finishReasons.get(key) ?? 0) + end - at);
      at = end;
    }
    const keys = group.metricKeys;
    // Groups share their list of metric keys while it stays the same, and so their series.
    if (keys !== this.lastKeys) {
      this.lastKeys = keys;
      this.lastSeries = keys.map((key) => this.seriesOf(key));
    }
    const booleans = group.booleanMetrics;
    for (let key = 0; key < keys.length; key++) {
      const series = this.lastSeries[key];
      if (!series) continue;
      series.addEvery(group.metricValues, key, keys.length);
      // A group lists only the keys it has values of.
      series.tellKind((booleans & (1 << key)) !== 0);
    }
  }

  /** The series of a metric key, new when under `maxSeriesKeys`; undefined when the key is one too many. */
  private seriesOf(key: string): Series | undefined {
    let series = this.metrics.get(key);
    if (!series && this.metrics.size < maxSeriesKeys) {
      series = new Series();
      this.metrics.set(key, series);
    }
    return series;
  }

  snapshot(): RolloutStatistics {
    const metrics = Object.create(null) as Record<string, SeriesStatistics>;
    for (const [key, series] of this.metrics) metrics[key] = series.snapshot();
    const finishReasons = Object.create(null) as Record<string, number>;
    for (const [key, count] of this.finishReasons) finishReasons[key] = count;
    return {
      groups: this.groups,
      trajectories: this.trajectories,
      exceptions: this.exceptions,
      reward: this.reward.snapshot(),
      completionLength: this.completionLength.snapshot(),
      metrics,
      finishReasons,
      flags: { ...this.flags },
    };
  }
}
