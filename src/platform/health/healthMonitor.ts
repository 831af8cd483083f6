import { systemClock, type Clock } from '../kit/clock';
import type { HealthSummary } from './health';
import { errorMessage } from '../client/errorMessage';

export interface HealthMonitorOptions {
  /** Checks both APIs once; aborting the signal must end the requests it started. */
  probe(signal: AbortSignal): Promise<HealthSummary>;
  clock?: Clock;
  /** Wait before the first check (activation itself stays offline). */
  firstCheckDelayMs: number;
  /** Wait after a check that found the platform healthy (or not configured). */
  recheckMs: number;
  /**
   * Waits after checks that found the platform failing, one per check in a row; the last one
   * repeats. Short at first, so a platform that comes back is seen within seconds, and longer
   * through a long outage, so a machine that is offline for hours does not knock every few seconds.
   */
  quickRecheckMs?: readonly number[];
  /** Told when the next check is armed (epoch ms), or that none is (undefined). */
  onScheduled?(at: number | undefined): void;
  /** Words for a probe that threw (it should not: each API's failure is part of the summary). */
  describeError?(error: unknown): string;
}

/** What `check()` answers once the monitor is disposed: nothing was checked. */
export const notChecked: HealthSummary = Object.freeze({ level: 'unknown', text: 'RL Studio', detail: Object.freeze(['Not checked']) as string[] });

/** 2, 4, 8 s, then every 8 s for about a minute, then every 15 and 30 s. */
export const defaultQuickRecheckMs: readonly number[] = Object.freeze([2000, 4000, 8000, 8000, 8000, 8000, 8000, 8000, 8000, 15_000, 30_000]);

/**
 * When to check the platform's health: once a little after start, again after each check (soon
 * while it fails, rarely while it is healthy), soon after any call failed, and now on request (a
 * check already running is shared). One timer at most; after `dispose()` no timer is armed, the
 * running check's requests are aborted, and a check that settles afterwards arms nothing.
 */
export class HealthMonitor {
  private readonly clock: Clock;
  private timer: unknown;
  private dueAt: number | undefined;
  private running: { promise: Promise<HealthSummary>; controller: AbortController } | undefined;
  private disposed = false;
  /** Checks in a row that found the platform failing: picks the next quick wait. */
  private failedChecks = 0;
  /** A call failed while a check ran: its answer may predate the failure, so the next check comes soon. */
  private failedMeanwhile = false;

  constructor(private readonly options: HealthMonitorOptions) {
    this.clock = options.clock ?? systemClock;
  }

  /** Arms the first check. */
  start(): void {
    this.schedule(this.options.firstCheckDelayMs);
  }

  /** The connection changed: a running check is about the old one, so it stops; a new one follows shortly. */
  restart(): void {
    this.running?.controller.abort();
    this.running = undefined;
    this.failedChecks = 0;
    this.failedMeanwhile = false;
    this.schedule(this.options.firstCheckDelayMs);
  }

  /**
   * A call failed in a way that concerns the whole platform: check again soon (within the next
   * quick wait, or `atLeastMs` when the server asked to wait longer), unless a check is already
   * due sooner or running.
   */
  checkSoon(atLeastMs = 0): void {
    if (this.disposed) return;
    if (this.running) {
      this.failedMeanwhile = true;
      return;
    }
    const delay = Math.max(this.quickDelay(), Number.isFinite(atLeastMs) ? atLeastMs : 0);
    if (this.dueAt !== undefined && this.dueAt <= this.clock.now() + delay) return;
    this.schedule(delay);
  }

  /** Checks now, sharing a check already running. Never rejects: a failed check reads as one. */
  check(): Promise<HealthSummary> {
    if (this.disposed) return Promise.resolve(notChecked);
    if (this.running) return this.running.promise;
    this.cancelTimer();
    this.failedMeanwhile = false;
    const controller = new AbortController();
    const promise = this.options
      .probe(controller.signal)
      .catch((error: unknown): HealthSummary => ({ level: 'unknown', text: 'RL Studio: not checked', detail: [`The check could not run: ${this.describe(error)}`] }))
      .then((summary) => {
        if (this.running?.controller === controller) this.running = undefined;
        // Disposed while the check ran: its answer is stale and nothing may be armed again.
        if (this.disposed || controller.signal.aborted) return notChecked;
        const failing = (summary.retrySoon ?? (summary.level === 'down' || summary.level === 'degraded')) || this.failedMeanwhile;
        this.failedMeanwhile = false;
        if (failing) {
          this.schedule(this.quickDelay());
          this.failedChecks++;
        } else {
          this.failedChecks = 0;
          this.schedule(this.options.recheckMs);
        }
        return summary;
      });
    this.running = { promise, controller };
    return promise;
  }

  /** True while a timer is armed (at most one). */
  get armed(): boolean {
    return this.timer !== undefined;
  }

  /** When the armed timer fires (epoch ms). */
  get nextCheckAt(): number | undefined {
    return this.dueAt;
  }

  /** True while a check runs. */
  get checking(): boolean {
    return this.running !== undefined;
  }

  dispose(): void {
    this.disposed = true;
    this.cancelTimer();
    this.running?.controller.abort();
    this.running = undefined;
  }

  private quickDelay(): number {
    const steps = this.options.quickRecheckMs ?? defaultQuickRecheckMs;
    if (steps.length === 0) return this.options.recheckMs;
    return steps[Math.min(this.failedChecks, steps.length - 1)]!;
  }

  private schedule(ms: number): void {
    if (this.disposed) return;
    this.cancelTimer();
    this.dueAt = this.clock.now() + ms;
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      this.dueAt = undefined;
      this.options.onScheduled?.(undefined);
      void this.check();
    }, ms);
    this.options.onScheduled?.(this.dueAt);
  }

  private describe(error: unknown): string {
    if (this.options.describeError) return this.options.describeError(error);
    return errorMessage(error);
  }

  private cancelTimer(): void {
    if (this.timer === undefined) return;
    this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.dueAt = undefined;
    this.options.onScheduled?.(undefined);
  }
}
