/**
 * When a failed attempt is sent again, and after how long.
 *
 * Only GET and HEAD are retried on an answer (429, 502, 503, 504) or a dropped connection: they do
 * not change anything on the server. Any other method is retried only when its connection failed
 * before a byte of the request left (refused, unreachable host, DNS failure, connect timeout): the
 * server cannot have seen it. A reset after the request was written is not such a case, since the
 * server may already have acted on it. POSTs under /preview/ are never retried at all: they create
 * models and jobs and carry no idempotency key, exactly like the platform's own client.
 * Timeouts waiting for an answer are not retried either: the server is slow, and trying again
 * would multiply the user's wait.
 */
import type { ClassifiedFailure } from './networkFailures';

const retryableStatuses = new Set([429, 502, 503, 504]);
/** Statuses whose Retry-After header is honoured. */
const retryAfterStatuses = new Set([429, 503]);

export function mayRetry(method: string, relativePath: string, failure: ClassifiedFailure): boolean {
  if (method === 'POST' && relativePath.startsWith('/preview/')) return false;
  const idempotent = method === 'GET' || method === 'HEAD';
  const { error } = failure;
  if (error.kind === 'http') return idempotent && error.status !== undefined && retryableStatuses.has(error.status);
  if (error.kind === 'network' || error.kind === 'timeout') return failure.transient && (failure.beforeSend || (idempotent && error.kind === 'network'));
  return false;
}

export function honoursRetryAfter(status: number): boolean {
  return retryAfterStatuses.has(status);
}

/**
 * Retry-After as milliseconds: delay-seconds (digits, a fraction tolerated) or an HTTP date.
 * Undefined when absent or unreadable (a negative number, "1e9", "soon", two values), so the usual
 * back-off applies; a date in the past is 0. Never negative, never NaN; it may be huge, which
 * retryDelay caps.
 */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!text || text.length > 64) return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) {
    const ms = Math.round(Number(text) * 1000);
    return Number.isFinite(ms) ? ms : Number.MAX_SAFE_INTEGER;
  }
  let date: number;
  if (imfOrRfc850Date.test(text)) date = Date.parse(text);
  // asctime carries no zone, yet means GMT; Date.parse would read it as local time.
  else if (asctimeDate.test(text)) date = Date.parse(`${text} GMT`);
  else return undefined;
  if (!Number.isFinite(date)) return undefined;
  return Math.max(0, date - now);
}

/**
 * The date forms HTTP allows: IMF-fixdate and RFC 850 (both GMT), and asctime. Date.parse alone
 * is far more lenient: it reads "-5" or "1, 2" as dates.
 */
const imfOrRfc850Date = /^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$|^[A-Za-z]{6,9}, \d{2}-[A-Za-z]{3}-\d{2} \d{2}:\d{2}:\d{2} GMT$/;
const asctimeDate = /^[A-Za-z]{3} [A-Za-z]{3} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/;

export interface BackoffPolicy {
  baseDelayMs: number;
  maxDelayMs: number;
}

/**
 * The wait before retry number `retry` (1 for the first retry): full jitter, i.e. a uniformly
 * random time up to an exponentially growing, capped ceiling, so many clients that failed together
 * do not come back together. A server's Retry-After replaces it, clamped to [0, maxDelayMs]; one
 * that is not a finite number is ignored. The number of retries is bounded by the caller, so even
 * a Retry-After of 0 on every answer ends after maxRetries quick attempts.
 */
export function retryDelay(retry: number, policy: BackoffPolicy, retryAfterMs?: number, random: () => number = Math.random): number {
  const maxDelayMs = Number.isFinite(policy.maxDelayMs) ? Math.max(0, policy.maxDelayMs) : 0;
  if (retryAfterMs !== undefined && !Number.isNaN(retryAfterMs)) return Math.min(Math.max(0, retryAfterMs), maxDelayMs);
  const baseDelayMs = Number.isFinite(policy.baseDelayMs) ? Math.max(0, policy.baseDelayMs) : 0;
  const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** Math.min(30, Math.max(0, retry - 1)));
  return Math.floor(random() * ceiling);
}

/** Waits, or rejects with the signal's reason as soon as it is aborted. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
