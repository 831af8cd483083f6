/**
 * What a canary may spend: a number of requests per checkpoint and per hour, both set by the person
 * (settings `rlStudio.canary.requestsPerCheckpoint` and `…PerHour`). A checkpoint asks as many of the
 * set's first samples as its budget pays for, one request for each answer and one more for each
 * judge's grading; the hour's spend is counted as requests go out, so no retry or judge can run past
 * it: a request the budget cannot pay for is refused before it is sent.
 */
import type { NamedScorer } from '../../../platform/scoring/scorerSpec';

export interface CanaryBudgetLimits {
  perCheckpoint: number;
  perHour: number;
}

export const canaryBudgetBounds = {
  perCheckpoint: { min: 1, max: 5_000, fallback: 40 },
  perHour: { min: 1, max: 50_000, fallback: 200 },
} as const;

const hourMs = 60 * 60 * 1000;
const bucketMs = 60 * 1000;

/** Requests one answer costs: the answer, and a request per judge that grades it. */
export function requestsPerAnswer(scorers: readonly NamedScorer[]): number {
  return 1 + scorers.filter((scorer) => scorer.spec.kind === 'judge').length;
}

/** How many of the set's samples a checkpoint asks: all, or as many of the first as its budget pays for. */
export function samplesPerCheckpoint(setSize: number, scorers: readonly NamedScorer[], limits: CanaryBudgetLimits): number {
  return Math.max(0, Math.min(setSize, Math.floor(limits.perCheckpoint / requestsPerAnswer(scorers))));
}

/**
 * What a new checkpoint's evaluation will ask: its samples and their cost, and whether the hour's
 * budget has room for them now (`waitUntil` is when it will, when it has not).
 */
export function checkpointPlan(setSize: number, scorers: readonly NamedScorer[], limits: CanaryBudgetLimits, hour: HourlySpend, now: number): { samples: number; cost: number; waitUntil?: number } {
  const samples = samplesPerCheckpoint(setSize, scorers, limits);
  const cost = samples * requestsPerAnswer(scorers);
  const room = hour.roomAt(cost, limits.perHour, now);
  return room > now ? { samples, cost, waitUntil: room } : { samples, cost };
}

/**
 * Requests spent in the last hour, kept in one-minute buckets (at most 61 of them, whatever is
 * spent), so the window slides without keeping a time per request.
 */
export class HourlySpend {
  private readonly buckets: { start: number; count: number }[] = [];

  spent(now: number): number {
    this.forget(now);
    return this.buckets.reduce((sum, bucket) => sum + bucket.count, 0);
  }

  /** Counts one request now when the hour's limit still pays for it; false (nothing counted) when it does not. */
  take(limit: number, now: number): boolean {
    if (this.spent(now) + 1 > limit) return false;
    const start = now - (now % bucketMs);
    const last = this.buckets.at(-1);
    if (last && last.start === start) last.count++;
    else this.buckets.push({ start, count: 1 });
    return true;
  }

  /** When `requests` more would fit in the hour (now when they do already). */
  roomAt(requests: number, limit: number, now: number): number {
    let spent = this.spent(now);
    if (spent + requests <= limit) return now;
    for (const bucket of this.buckets) {
      spent -= bucket.count;
      if (spent + requests <= limit) return bucket.start + bucketMs + hourMs;
    }
    return now + hourMs;
  }

  private forget(now: number): void {
    while (this.buckets.length > 0 && this.buckets[0]!.start + bucketMs + hourMs <= now) this.buckets.shift();
  }
}

/**
 * One checkpoint's allowance: refuses the request past its share, or past the hour's. `take()`
 * is called before every request the checkpoint's evaluation sends (answers and judges alike).
 */
export class CheckpointAllowance {
  private used = 0;

  constructor(
    private readonly limits: CanaryBudgetLimits,
    private readonly hour: HourlySpend,
    private readonly now: () => number,
  ) {}

  get spent(): number {
    return this.used;
  }

  /** Throws `BudgetSpent` when the request cannot be paid for; counts it otherwise. */
  take(): void {
    if (this.used >= this.limits.perCheckpoint) throw new BudgetSpent(`the canary's ${this.limits.perCheckpoint} requests for this checkpoint are spent`);
    if (!this.hour.take(this.limits.perHour, this.now())) throw new BudgetSpent(`the canary's ${this.limits.perHour} requests for this hour are spent`);
    this.used++;
  }
}

export class BudgetSpent extends Error {
  override readonly name = 'BudgetSpent';
}
