/**
 * The statistics every suite reports with, in one place so that "median" or "p95" means the same
 * thing in every line of `npm run bench`. None of them changes its argument.
 */

/** The middle value; for an even count, the mean of the two middle values. */
export function median(values: readonly number[]): number {
  const sorted = ascending(values);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * The nearest-rank percentile: the smallest value that at least `fraction` of the values do not
 * exceed (`percentile(values, 0.95)` is the p95, `percentile(values, 1)` the worst).
 */
export function percentile(values: readonly number[], fraction: number): number {
  const sorted = ascending(values);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(fraction * sorted.length)));
  return sorted[rank - 1]!;
}

export function mean(values: readonly number[]): number {
  requireSome(values);
  return total(values) / values.length;
}

export function total(values: readonly number[]): number {
  let sum = 0;
  for (const value of values) sum += value;
  return sum;
}

export function worst(values: readonly number[]): number {
  requireSome(values);
  // Not Math.max(...values): a long series would exceed the argument limit.
  return values.reduce((most, value) => (value > most ? value : most), -Infinity);
}

export function best(values: readonly number[]): number {
  requireSome(values);
  return values.reduce((least, value) => (value < least ? value : least), Infinity);
}

function ascending(values: readonly number[]): number[] {
  requireSome(values);
  return [...values].sort((a, b) => a - b);
}

function requireSome(values: readonly number[]): void {
  // An empty series is a broken benchmark, not a figure of 0 or NaN to print.
  if (values.length === 0) throw new Error('no measurements to summarise');
}
