/** How the rollout inspector names flags and series and prints its numbers. */
import { groupFlags, type GroupFlag } from '../model/groupSummaryShape';
import type { SeriesName } from '../model/inspectorModel';
import { formatMetric } from '../../platform/kit/format';

export function isFlag(value: unknown): value is GroupFlag {
  return typeof value === 'string' && groupFlags.includes(value as GroupFlag);
}

export function seriesLabel(series: SeriesName): string {
  if (series === 'reward') return 'reward';
  if (series === 'completionLength') return 'completion length';
  return series.slice('metric:'.length);
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
