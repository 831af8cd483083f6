/**
 * A rate limit on chat completions, to exercise a client's back-off: a fixed fraction of requests
 * is answered 429 with Retry-After, the same ones every time. Which ones is decided by a hash of
 * the request body, so it does not depend on the order concurrent requests arrive in; a limited
 * request is limited `times` times in a row and then passes (its retries succeed), after which the
 * same body may be limited again as if new.
 */
import type { RateLimit } from './contract';
import { HttpError } from './httpError';
import { unitHash } from './prng';
import type { EmulatorState } from './state';
import { isPlainObject } from './validation';

/** Bodies limited and not yet let through; past this many (clients that never retry) the memory starts over. */
const MAX_TRACKED = 10_000;
const MAX_RETRY_AFTER_SECONDS = 3600;
const MAX_TIMES = 100;

export interface RateLimitState {
  limit: Required<RateLimit> | undefined;
  /** 429s answered so far. */
  answered: number;
  /** Limited bodies and how many 429s each has had. */
  readonly attempts: Map<string, number>;
}

export function newRateLimitState(): RateLimitState {
  return { limit: undefined, answered: 0, attempts: new Map() };
}

/** Sets the limit (a fraction of 0, or undefined, lifts it); throws on values out of range. */
export function setRateLimit(state: EmulatorState, limit: RateLimit | undefined): void {
  const problem = limit === undefined ? undefined : rateLimitProblem(limit);
  if (problem) throw new Error(problem);
  state.rateLimit.attempts.clear();
  state.rateLimit.limit = limit === undefined || limit.fraction === 0 ? undefined : { fraction: limit.fraction, retryAfterSeconds: limit.retryAfterSeconds ?? 1, times: limit.times ?? 1 };
}

/** Checks a limit received as JSON by the control endpoint; returns a complaint or undefined. */
export function rateLimitProblem(value: unknown): string | undefined {
  if (!isPlainObject(value)) return 'A rate limit must be a JSON object';
  const { fraction, retryAfterSeconds, times } = value;
  if (typeof fraction !== 'number' || !(fraction >= 0 && fraction <= 1)) return 'fraction must be a number between 0 and 1';
  if (retryAfterSeconds !== undefined && (typeof retryAfterSeconds !== 'number' || !Number.isInteger(retryAfterSeconds) || retryAfterSeconds < 0 || retryAfterSeconds > MAX_RETRY_AFTER_SECONDS))
    return `retryAfterSeconds must be an integer between 0 and ${MAX_RETRY_AFTER_SECONDS}`;
  if (times !== undefined && (typeof times !== 'number' || !Number.isInteger(times) || times < 1 || times > MAX_TIMES)) return `times must be an integer between 1 and ${MAX_TIMES}`;
  return undefined;
}

/** Throws the 429 when this request body is one the limit picks and it has not had its `times` yet. */
export function applyRateLimit(state: EmulatorState, body: string): void {
  const { limit, attempts } = state.rateLimit;
  if (!limit || unitHash(body) >= limit.fraction) return;
  const before = attempts.get(body) ?? 0;
  if (before >= limit.times) {
    attempts.delete(body);
    return;
  }
  if (before === 0 && attempts.size >= MAX_TRACKED) attempts.clear();
  attempts.set(body, before + 1);
  state.rateLimit.answered++;
  throw new HttpError(429, 'Rate limit reached for chat completions; retry after the time given', 'rate_limit_exceeded', { 'retry-after': String(limit.retryAfterSeconds) });
}
