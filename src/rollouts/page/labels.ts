/** How the rollout inspector names flags and series and prints its numbers. */
import type { GroupFlag } from '../model/groupSummaryShape';
import type { SeriesName } from '../model/inspectorModel';
import { formatMetric } from '../../platform/kit/format';

/** Each flag in the order the filter bar shows them: a short badge, a name, and what it means. */
export const flagInfo: Record<GroupFlag, { badge: string; label: string; meaning: string }> = {
  noSignal: { badge: 'NS', label: 'no signal', meaning: 'every trajectory of the group has the same reward: no advantage to learn from' },
  highVariance: { badge: 'HV', label: 'high variance', meaning: "the group's rewards spread widely" },
  exceptions: { badge: 'EX', label: 'exceptions', meaning: 'the group recorded exceptions' },
  truncated: { badge: 'TR', label: 'truncated', meaning: 'a trained turn stopped at its length limit' },
  emptyOrRepetitive: { badge: 'ER', label: 'empty or repetitive', meaning: 'a trained turn is empty or repeats itself' },
  doNothingSibling: { badge: 'DN', label: 'do-nothing sibling', meaning: 'a trajectory that does almost nothing has a positive advantage' },
};

export const flagOrder = Object.keys(flagInfo) as GroupFlag[];

export function isFlag(value: unknown): value is GroupFlag {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(flagInfo, value);
}

export function seriesLabel(series: SeriesName): string {
  if (series === 'reward') return 'reward';
  if (series === 'completionLength') return 'completion length';
  return series.slice('metric:'.length);
}

export { formatCount, plural } from '../../platform/kit/format';

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
