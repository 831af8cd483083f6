/** The mean, population standard deviation, least and greatest of some numbers, in one pass and a half; undefined for none. */
export function summariseValues(values: readonly number[]): { mean: number; std: number; min: number; max: number } | undefined {
  if (values.length === 0) return undefined;
  let sum = 0;
  let min = Infinity;
  let max = -Infinity;
  for (const value of values) {
    sum += value;
    min = Math.min(min, value);
    max = Math.max(max, value);
  }
  const mean = sum / values.length;
  let squares = 0;
  for (const value of values) squares += (value - mean) ** 2;
  return { mean, std: Math.sqrt(squares / values.length), min, max };
}
