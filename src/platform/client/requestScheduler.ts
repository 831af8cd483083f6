/**
 * Asks many items with a bounded number in flight, kept full while work remains. When the platform
 * says to slow down (a 429, with its Retry-After), no new request starts, for any item, until then,
 * and the item is asked again later with exponential back-off and jitter; other passing failures
 * (5xx, a lost connection, a timeout) are asked again after a back-off too. Each item is asked at
 * most `maxAttempts` times, so the whole run makes at most items × maxAttempts requests. A failure
 * that will not pass (a 4xx, a broken request) is the item's outcome. Cancelling stops new starts,
 * aborts the requests in flight and settles at once; their late answers are ignored.
 *
 * Time comes from an injected clock (core/clock.ts), so tests drive it without waiting.
 */
import { retryDelay, type BackoffPolicy } from './retry';
import { monotonicClock, type Clock } from '../kit/clock';

export type SchedulerOutcome<R> = { ok: true; value: R; attempts: number } | { ok: false; error: unknown; attempts: number };

export interface SchedulerProgress {
  done: number;
  failed: number;
  total: number;
  inFlight: number;
  /** While the platform asked to slow down: when new requests may start again (clock time, ms). */
  rateLimitedUntil?: number;
}

export interface SchedulerSummary {
  /** Items answered, items failed, items not finished because the run was cancelled. */
  done: number;
  failed: number;
  cancelled: number;
  /** Requests started, retries included. */
  attempts: number;
}

export interface SchedulerOptions<I, R> {
  items: readonly I[];
  /** Requests in flight at most: default `defaultConcurrency`, clamped to [1, `maxConcurrency`]. */
  concurrency?: number;
  ask(item: I, signal: AbortSignal): Promise<R>;
  onResult(item: I, outcome: SchedulerOutcome<R>): void;
  onProgress?(progress: SchedulerProgress): void;
  signal?: AbortSignal;
  clock?: Clock;
  random?: () => number;
  /** Attempts per item, the first included (default 5). */
  maxAttempts?: number;
  backoff?: BackoffPolicy;
}

/** Requests in flight at once unless told, and at most. */
export const defaultConcurrency = 8;
export const maxConcurrency = 64;
export const defaultMaxAttempts = 5;
export const defaultBackoff: BackoffPolicy = { baseDelayMs: 1_000, maxDelayMs: 60_000 };
/** The longest pause a Retry-After may impose: a server asking for an hour still lets a run end the same day. */
export const maxRetryAfterMs = 10 * 60_000;

/** How a failure is taken: wait for everyone, back off this item, or give up on it. */
export function failureClass(error: unknown): 'rate-limited' | 'retryable' | 'final' {
  if (typeof error !== 'object' || error === null) return 'final';
  const { kind, status } = error as { kind?: unknown; status?: unknown };
  if (kind === 'rate-limited' || status === 429) return 'rate-limited';
  if (typeof status === 'number' && status >= 500 && status <= 599) return 'retryable';
  if (kind === 'network' || kind === 'timeout' || kind === 'stream-cut') return 'retryable';
  return 'final';
}

function retryAfterOf(error: unknown): number | undefined {
  const value = (error as { retryAfterMs?: unknown }).retryAfterMs;
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.min(value, maxRetryAfterMs) : undefined;
}

interface Waiting<I> {
  item: I;
  attempts: number;
  readyAt: number;
}

export function runEvaluations<I, R>(options: SchedulerOptions<I, R>): Promise<SchedulerSummary> {
  return new Promise((resolve) => new Scheduler(options, resolve).begin());
}

class Scheduler<I, R> {
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly concurrency: number;
  private readonly maxAttempts: number;
  private readonly backoff: BackoffPolicy;
  private next = 0;
  /** Items to ask again, each once its back-off is over. */
  private waiting: Waiting<I>[] = [];
  private inFlight = 0;
  private done = 0;
  private failed = 0;
  private attempts = 0;
  private pausedUntil = -Infinity;
  private timer: { handle: unknown; at: number } | undefined;
  private readonly controllers = new Set<AbortController>();
  private finished = false;
  private readonly onAbort = (): void => this.cancel();

  constructor(
    private readonly options: SchedulerOptions<I, R>,
    private readonly resolve: (summary: SchedulerSummary) => void,
  ) {
    this.clock = options.clock ?? monotonicClock;
    this.random = options.random ?? Math.random;
    const concurrency = Math.floor(options.concurrency ?? defaultConcurrency);
    this.concurrency = Math.min(maxConcurrency, Math.max(1, Number.isFinite(concurrency) ? concurrency : defaultConcurrency));
    this.maxAttempts = Math.max(1, Math.floor(options.maxAttempts ?? defaultMaxAttempts));
    this.backoff = options.backoff ?? defaultBackoff;
  }

  begin(): void {
    if (this.options.signal?.aborted) return this.cancel();
    this.options.signal?.addEventListener('abort', this.onAbort, { once: true });
    this.fill();
  }

  /** Starts what may start now (at most `concurrency` in flight), then arms one timer for what waits. */
  private fill(): void {
    if (this.finished) return;
    const now = this.clock.now();
    while (this.inFlight < this.concurrency && now >= this.pausedUntil) {
      const entry = this.takeReady(now);
      if (!entry) break;
      this.start(entry);
    }
    if (this.inFlight === 0 && this.next >= this.options.items.length && this.waiting.length === 0) return this.finish(0);
    this.arm(now);
  }

  /** An item to ask now: a retry whose back-off is over first (earliest first), else the next new one. */
  private takeReady(now: number): Waiting<I> | undefined {
    let best = -1;
    for (let at = 0; at < this.waiting.length; at++) {
      const entry = this.waiting[at]!;
      if (entry.readyAt <= now && (best < 0 || entry.readyAt < this.waiting[best]!.readyAt)) best = at;
    }
    if (best >= 0) return this.waiting.splice(best, 1)[0];
    if (this.next < this.options.items.length) return { item: this.options.items[this.next++]!, attempts: 0, readyAt: now };
    return undefined;
  }

  /** One timer, for the moment something could start that cannot now: the end of a pause, or of the earliest back-off. */
  private arm(now: number): void {
    let at = Infinity;
    if (this.inFlight < this.concurrency) {
      const earliestRetry = this.waiting.reduce((earliest, entry) => Math.min(earliest, entry.readyAt), Infinity);
      const earliestWork = this.next < this.options.items.length ? now : earliestRetry;
      at = Math.max(earliestWork, this.pausedUntil);
    }
    if (this.timer && this.timer.at === at) return;
    if (this.timer) this.clock.clearTimeout(this.timer.handle);
    this.timer = undefined;
    if (at === Infinity || at <= now) return;
    const handle = this.clock.setTimeout(() => {
      this.timer = undefined;
      this.fill();
    }, at - now);
    this.timer = { handle, at };
  }

  private start(entry: Waiting<I>): void {
    const controller = new AbortController();
    this.controllers.add(controller);
    this.inFlight++;
    this.attempts++;
    const attempts = entry.attempts + 1;
    let asked: Promise<R>;
    try {
      asked = this.options.ask(entry.item, controller.signal);
    } catch (error) {
      asked = Promise.reject(error);
    }
    asked.then(
      (value) => this.settle(controller, () => this.succeed(entry.item, value, attempts)),
      (error: unknown) => this.settle(controller, () => this.fail(entry.item, error, attempts)),
    );
  }

  private settle(controller: AbortController, record: () => void): void {
    if (this.finished) return;
    this.controllers.delete(controller);
    this.inFlight--;
    try {
      record();
    } finally {
      // A throwing onResult must not stall the run: the slot is free either way.
      this.progress();
      this.fill();
    }
  }

  private succeed(item: I, value: R, attempts: number): void {
    this.done++;
    this.options.onResult(item, { ok: true, value, attempts });
  }

  private fail(item: I, error: unknown, attempts: number): void {
    const kind = failureClass(error);
    const now = this.clock.now();
    const retryAfter = retryAfterOf(error);
    const backoff = retryDelay(attempts, this.backoff, undefined, this.random);
    if (kind === 'rate-limited') this.pausedUntil = Math.max(this.pausedUntil, now + (retryAfter ?? backoff));
    if (kind !== 'final' && attempts < this.maxAttempts) {
      // After a 429 the item waits out the pause and its own back-off, whichever is longer, so
      // items stopped together do not all come back in the same millisecond.
      this.waiting.push({ item, attempts, readyAt: now + Math.max(retryAfter ?? 0, backoff) });
      return;
    }
    this.failed++;
    this.options.onResult(item, { ok: false, error, attempts });
  }

  private progress(): void {
    const now = this.clock.now();
    const progress: SchedulerProgress = { done: this.done, failed: this.failed, total: this.options.items.length, inFlight: this.inFlight };
    if (this.pausedUntil > now) progress.rateLimitedUntil = this.pausedUntil;
    this.options.onProgress?.(progress);
  }

  private cancel(): void {
    if (this.finished) return;
    for (const controller of this.controllers) controller.abort();
    this.controllers.clear();
    this.finish(this.options.items.length - this.done - this.failed);
  }

  private finish(cancelled: number): void {
    this.finished = true;
    if (this.timer) this.clock.clearTimeout(this.timer.handle);
    this.timer = undefined;
    this.options.signal?.removeEventListener('abort', this.onAbort);
    this.resolve({ done: this.done, failed: this.failed, cancelled, attempts: this.attempts });
  }
}
