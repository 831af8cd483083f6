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
import type { ClassifiedFailure } from './failures';

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
 * Retry-After as milliseconds: either delay-seconds or an HTTP date. Undefined when absent or
 * unreadable; never negative.
 */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!text) return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

export interface BackoffPolicy {
  baseDelayMs: number;
  maxDelayMs: number;
}

/**
 * The wait before retry number `retry` (1 for the first retry): full jitter, i.e. a uniformly
 * random time up to an exponentially growing, capped ceiling, so many clients that failed together
 * do not come back together. A server's Retry-After replaces it, still capped.
 */
export function retryDelay(retry: number, policy: BackoffPolicy, retryAfterMs?: number, random: () => number = Math.random): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, policy.maxDelayMs);
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, retry - 1));
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
