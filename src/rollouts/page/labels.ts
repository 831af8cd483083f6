/** How the rollout inspector names flags and series and prints its numbers. */
import { groupFlags, type GroupFlag } from '../model/groupSummaryShape';
import type { SeriesName } from '../model/inspectorModel';
import type { SeriesStatistics } from '../model/rolloutStatistics';
import { formatMetric } from '../../platform/kit/format';

export function isFlag(value: unknown): value is GroupFlag {
  return typeof value === 'string' && groupFlags.includes(value as GroupFlag);
}

/** A series' name; a metric whose values were all booleans is named as the rate it is. */
export function seriesLabel(series: SeriesName, statistics?: SeriesStatistics): string {
  if (series === 'reward') return 'reward';
  if (series === 'completionLength') return 'completion length';
  const key = series.slice('metric:'.length);
  return statistics?.rate ? `${key} (rate)` : key;
}

/** "62.5%": a rate (the mean of values that are 1 or 0) as a percentage. */
export function formatRate(mean: number): string {
  return `${formatMetric(Math.round(mean * 1000) / 10)}%`;
}

/** A number as the list and the group view print it: about four significant digits. */
export function formatNumber(value: number): string {
  return formatMetric(value);
}

/** "+0.25", "−0.5", "0": the sign always shown, so advantages read at a glance. */
export function formatSigned(value: number): string {
  if (value === 0 || !Number.isFinite(value)) return formatMetric(value);
  return value > 0 ? `+${formatMetric(value)}` : `−${formatMetric(-value)}`;
}

/** "positive", "negative" or "zero": the class an advantage is coloured by. */
export function signClass(value: number): string {
  return value > 0 ? 'positive' : value < 0 ? 'negative' : 'zero';
}
