/**
 * Whether a checkpoint scores worse than another on the same eval set beyond the set's noise: a
 * paired comparison, sample by sample (the same prompts, so the prompts' own difficulty cancels
 * out), of the differences `new − best`. Their mean is the change; a Student-t interval around it
 * says how sure the set can be. A drop is called only when the whole interval lies below zero and
 * the mean falls by more than `minimumDrop` (a change too small to matter is not an alert however
 * sure it is).
 *
 * With scores of 0 and 1 the t interval is an approximation (the differences are -1, 0 or 1); for
 * the canary's use (twenty to a few hundred samples, alert or not) it errs on the side of silence
 * only when nearly every difference is 0, where there is nothing to report anyway.
 */
export interface PairedScores {
  /** The sample's id in the eval set: pairs are matched by it. */
  id: string;
  best: number;
  current: number;
}

export interface PairedComparison {
  /** Samples scored by both checkpoints. */
  pairs: number;
  /** Mean of `current − best`: negative when the new checkpoint scores lower. */
  meanDifference: number;
  /** The confidence interval of the mean difference (equal to it when fewer than two pairs). */
  low: number;
  high: number;
  confidence: number;
  /** The interval lies wholly below zero and the mean fell by more than the minimum: an alert. */
  drop: boolean;
}

export interface PairedComparisonOptions {
  /** Two-sided confidence of the interval, default 0.95. */
  confidence?: number;
  /** The least fall of the mean that is an alert, default 0.02 (two points on a 0–1 score). */
  minimumDrop?: number;
}

export function comparePaired(scores: readonly PairedScores[], options: PairedComparisonOptions = {}): PairedComparison {
  const confidence = options.confidence ?? 0.95;
  const minimumDrop = options.minimumDrop ?? 0.02;
  const differences: number[] = [];
  for (const pair of scores) if (Number.isFinite(pair.best) && Number.isFinite(pair.current)) differences.push(pair.current - pair.best);
  const count = differences.length;
  if (count === 0) return { pairs: 0, meanDifference: 0, low: 0, high: 0, confidence, drop: false };
  const mean = differences.reduce((sum, value) => sum + value, 0) / count;
  if (count < 2) return { pairs: count, meanDifference: mean, low: mean, high: mean, confidence, drop: false };
  const variance = differences.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (count - 1);
  const halfWidth = studentTQuantile(1 - (1 - confidence) / 2, count - 1) * Math.sqrt(variance / count);
  const low = mean - halfWidth;
  const high = mean + halfWidth;
  return { pairs: count, meanDifference: mean, low, high, confidence, drop: high < 0 && -mean > minimumDrop };
}

/** The `p` quantile of Student's t distribution with `df` degrees of freedom, by bisection on its distribution function. */
export function studentTQuantile(p: number, df: number): number {
  if (p === 0.5) return 0;
  if (p < 0.5) return -studentTQuantile(1 - p, df);
  let low = 0;
  let high = 1;
  while (studentTDistribution(high, df) < p && high < 1e7) high *= 2;
  for (let round = 0; round < 100 && high - low > 1e-10 * Math.max(1, high); round++) {
    const middle = (low + high) / 2;
    if (studentTDistribution(middle, df) < p) low = middle;
    else high = middle;
  }
  return (low + high) / 2;
}

/** P(T ≤ t) for Student's t with `df` degrees of freedom, through the regularised incomplete beta function. */
export function studentTDistribution(t: number, df: number): number {
  const tail = 0.5 * regularizedIncompleteBeta(df / (df + t * t), df / 2, 0.5);
  return t >= 0 ? 1 - tail : tail;
}

/** I_x(a, b) by its continued fraction (Lentz's method), using the symmetry that makes it converge fast. */
function regularizedIncompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  if (x < (a + 1) / (a + b + 2)) return (front * betaContinuedFraction(x, a, b)) / a;
  return 1 - (front * betaContinuedFraction(1 - x, b, a)) / b;
}

function betaContinuedFraction(x: number, a: number, b: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let result = d;
  for (let m = 1; m <= 300; m++) {
    const even = (m * (b - m) * x) / ((a + 2 * m - 1) * (a + 2 * m));
    d = 1 + even * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + even / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    result *= d * c;
    const odd = (-(a + m) * (a + b + m) * x) / ((a + 2 * m) * (a + 2 * m + 1));
    d = 1 + odd * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + odd / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const step = d * c;
    result *= step;
    if (Math.abs(step - 1) < 1e-14) break;
  }
  return result;
}

/** ln Γ(x) for x > 0 (Lanczos, g = 7, nine coefficients). */
function logGamma(x: number): number {
  const coefficients = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const shifted = x - 1;
  let sum = coefficients[0]!;
  for (let index = 1; index < coefficients.length; index++) sum += coefficients[index]! / (shifted + index);
  const t = shifted + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (shifted + 0.5) * Math.log(t) - t + Math.log(sum);
}
