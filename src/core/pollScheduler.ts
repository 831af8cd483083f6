import { systemClock, type Clock } from './clock';
import { pollDelay, type Activity, type PollPolicy } from './pollPolicy';

/** What one poll of a job found: keep following, or stop (the job reached a terminal state). */
export type PollOutcome = 'continue' | 'done';

export interface PollSchedulerOptions {
  policy: PollPolicy;
  /** Polls one job once. A throw counts as a failure and backs off; the job stays followed. */
  poll(id: string, signal: AbortSignal): Promise<PollOutcome>;
  clock?: Clock;
  random?: () => number;
  /** Told about each failure, with the delay before the next attempt. */
  onFailure?(id: string, error: unknown, retryInMs: number): void;
}

interface Followed {
  timer?: unknown;
  /** The poll running now, if any: there is never more than one per job. */
  running?: AbortController;
  failures: number;
  /** When the waiting timer fires, epoch ms. */
  dueAt?: number;
  /** A wake-up arrived while a poll was running: poll again right after it. */
  again: boolean;
}

/**
 * Follows jobs until they finish: one timer per job, armed only after the previous poll settled,
 * so a slow server never sees two requests for the same job at once. The delay follows the view's
 * visibility and the window's focus, and grows after failures; becoming visible again pulls every
 * waiting poll forward.
 */
export class PollScheduler {
  private readonly followed = new Map<string, Followed>();
  private readonly clock: Clock;
  private readonly random: () => number;
  private activity: Activity = { visible: true, focused: true };
  private disposed = false;

  constructor(private readonly options: PollSchedulerOptions) {
    this.clock = options.clock ?? systemClock;
    this.random = options.random ?? Math.random;
  }

  /** Starts following a job with an immediate poll; a job already followed is polled now. */
  follow(id: string): void {
    if (this.disposed) return;
    if (this.followed.has(id)) {
      this.wake(id);
      return;
    }
    this.followed.set(id, { failures: 0, again: false });
    this.run(id);
  }

  /** Stops following a job; a poll in flight is aborted. */
  stop(id: string): void {
    const entry = this.followed.get(id);
    if (!entry) return;
    this.followed.delete(id);
    if (entry.timer !== undefined) this.clock.clearTimeout(entry.timer);
    entry.running?.abort();
  }

  /** Polls now unless a poll is running, in which case one more follows it. */
  wake(id: string): void {
    const entry = this.followed.get(id);
    if (!entry) return;
    if (entry.running) {
      entry.again = true;
      return;
    }
    if (entry.timer !== undefined) this.clock.clearTimeout(entry.timer);
    entry.timer = undefined;
    this.run(id);
  }

  isFollowing(id: string): boolean {
    return this.followed.has(id);
  }

  following(): string[] {
    return [...this.followed.keys()];
  }

  inFlight(): number {
    let count = 0;
    for (const entry of this.followed.values()) if (entry.running) count++;
    return count;
  }

  setActivity(activity: Activity): void {
    const wasQuiet = !this.activity.visible || !this.activity.focused;
    this.activity = { ...activity };
    const active = activity.visible && activity.focused;
    if (!(wasQuiet && active)) return;
    // Someone is looking again: waiting polls scheduled for a hidden view must not keep them waiting.
    const soonest = this.clock.now() + this.options.policy.baseMs;
    for (const [id, entry] of this.followed) {
      if (entry.running || entry.timer === undefined || entry.dueAt === undefined || entry.dueAt <= soonest) continue;
      if (entry.failures > 0) continue;
      this.clock.clearTimeout(entry.timer);
      this.arm(id, entry, this.options.policy.baseMs);
    }
  }

  dispose(): void {
    this.disposed = true;
    for (const id of [...this.followed.keys()]) this.stop(id);
  }

  private run(id: string): void {
    const entry = this.followed.get(id);
    if (!entry || entry.running) return;
    const controller = new AbortController();
    entry.running = controller;
    entry.timer = undefined;
    entry.dueAt = undefined;
    entry.again = false;
    let outcome: Promise<PollOutcome>;
    try {
      outcome = this.options.poll(id, controller.signal);
    } catch (error) {
      outcome = Promise.reject(error);
    }
    outcome.then(
      (result) => this.settled(id, entry, controller, result, undefined),
      (error: unknown) => this.settled(id, entry, controller, undefined, error ?? new Error('poll failed')),
    );
  }

  private settled(id: string, entry: Followed, controller: AbortController, result: PollOutcome | undefined, error: unknown): void {
    if (entry.running === controller) entry.running = undefined;
    // Stopped (or replaced) while the poll ran: nothing more to schedule.
    if (this.followed.get(id) !== entry || this.disposed) return;
    if (result === 'done') {
      this.followed.delete(id);
      return;
    }
    if (error !== undefined) {
      entry.failures += 1;
      const delay = pollDelay(this.options.policy, this.activity, entry.failures, this.random());
      this.options.onFailure?.(id, error, delay);
      if (this.followed.get(id) !== entry) return;
      this.arm(id, entry, delay);
      return;
    }
    entry.failures = 0;
    if (entry.again) {
      this.run(id);
      return;
    }
    this.arm(id, entry, pollDelay(this.options.policy, this.activity, 0));
  }

  private arm(id: string, entry: Followed, delay: number): void {
    entry.dueAt = this.clock.now() + delay;
    entry.timer = this.clock.setTimeout(() => {
      entry.timer = undefined;
      this.run(id);
    }, delay);
  }
}
