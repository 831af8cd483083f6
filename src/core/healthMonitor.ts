import { systemClock, type Clock } from './clock';
import type { HealthSummary } from './health';

export interface HealthMonitorOptions {
  /** Checks both APIs once; aborting the signal must end the requests it started. */
  probe(signal: AbortSignal): Promise<HealthSummary>;
  clock?: Clock;
  /** Wait before the first check (activation itself stays offline). */
  firstCheckDelayMs: number;
  /** Wait after each check before the next one. */
  recheckMs: number;
  /** Words for a probe that threw (it should not: each API's failure is part of the summary). */
  describeError?(error: unknown): string;
}

/** What `check()` answers once the monitor is disposed: nothing was checked. */
export const notChecked: HealthSummary = Object.freeze({ level: 'unknown', text: 'RL Studio', detail: Object.freeze(['Not checked']) as string[] });

/**
 * When to check the platform's health: once a little after start, again after each check, and now
 * on request (a check already running is shared). One timer at most; after `dispose()` no timer is
 * armed, the running check's requests are aborted, and a check that settles afterwards arms nothing.
 */
export class HealthMonitor {
  private readonly clock: Clock;
  private timer: unknown;
  private running: { promise: Promise<HealthSummary>; controller: AbortController } | undefined;
  private disposed = false;

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
    this.schedule(this.options.firstCheckDelayMs);
  }

  /** Checks now, sharing a check already running. Never rejects: a failed check reads as one. */
  check(): Promise<HealthSummary> {
    if (this.disposed) return Promise.resolve(notChecked);
    if (this.running) return this.running.promise;
    this.cancelTimer();
    const controller = new AbortController();
    const promise = this.options
      .probe(controller.signal)
      .catch((error: unknown): HealthSummary => ({ level: 'unknown', text: 'RL Studio: not checked', detail: [`The check could not run: ${this.describe(error)}`] }))
      .then((summary) => {
        if (this.running?.controller === controller) this.running = undefined;
        // Disposed while the check ran: its answer is stale and nothing may be armed again.
        if (this.disposed || controller.signal.aborted) return notChecked;
        this.schedule(this.options.recheckMs);
        return summary;
      });
    this.running = { promise, controller };
    return promise;
  }

  /** True while a timer is armed (at most one). */
  get armed(): boolean {
    return this.timer !== undefined;
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

  private schedule(ms: number): void {
    if (this.disposed) return;
    this.cancelTimer();
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      void this.check();
    }, ms);
  }

  private describe(error: unknown): string {
    if (this.options.describeError) return this.options.describeError(error);
    return error instanceof Error ? error.message : String(error);
  }

  private cancelTimer(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }
}
