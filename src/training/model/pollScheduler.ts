import { systemClock, type Clock } from '../../platform/kit/clock';
import { minPollIntervalMs, pollDelay, type Activity, type PollPolicy } from './pollPolicy';

/**
 * What one poll of a job found: keep following at the normal pace, stop (the job reached a
 * terminal state), or keep following more slowly because the server broke the paging rules
 * (repeated a cursor, sent again what it had sent before): each such answer in a row doubles the
 * wait, like a failure, so a misbehaving endpoint costs a few requests a minute, not one a second.
 */
export type PollOutcome = 'continue' | 'done' | 'suspect';

/** Polls of different jobs in flight at once, at most, unless told otherwise. */
export const defaultMaxConcurrentPolls = 4;
/** Spacing of first polls that wait for a slot (many jobs followed at once, as at start), unless told otherwise. */
export const defaultFirstPollStaggerMs = 25;

export interface PollSchedulerOptions {
  policy: PollPolicy;
  /** Polls one job once. A throw counts as a failure and backs off; the job stays followed. */
  poll(id: string, signal: AbortSignal): Promise<PollOutcome>;
  clock?: Clock;
  random?: () => number;
  /** Polls of different jobs in flight at once, at most; the others wait their turn in order. */
  maxConcurrent?: number;
  /** The n-th job followed while n first polls are still waiting starts n times this later. */
  firstPollStaggerMs?: number;
  /** Told about each failure, with the delay before the next attempt. */
  onFailure?(id: string, error: unknown, retryInMs: number): void;
}

interface Followed {
  timer?: unknown;
  /** The poll running now, if any: there is never more than one per job. */
  running?: AbortController;
  /** Waiting for a free slot (the concurrency cap), due already. */
  queued: boolean;
  failures: number;
  /** Answers in a row that broke the paging rules. */
  strikes: number;
  /** When the waiting timer fires, epoch ms. */
  dueAt?: number;
  /** When the last poll started, for the floor between two polls of one job. */
  lastStartedAt?: number;
  /** The first poll has not started yet (it counts for the stagger). */
  firstPending: boolean;
  /** A wake-up arrived while a poll was running: poll again right after it. */
  again: boolean;
}

/**
 * Follows jobs until they finish: one timer per job, armed only after the previous poll settled,
 * so a slow server never sees two requests for the same job at once. The delay follows the view's
 * visibility and the window's focus, and grows after failures and misbehaving answers; becoming
 * visible again pulls every waiting poll forward. Whatever it is asked, it never starts two polls
 * of one job less than `minPollIntervalMs` apart, never runs more than `maxConcurrent` polls at
 * once, and spreads the first polls of many jobs followed together.
 */
export class PollScheduler {
  private readonly followed = new Map<string, Followed>();
  /** Due jobs waiting for a slot, oldest first. */
  private readonly waiting = new Set<string>();
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly maxConcurrent: number;
  private readonly staggerMs: number;
  private activity: Activity = { visible: true, focused: true };
  /** Polls started and not settled yet, including those of jobs stopped meanwhile. */
  private running = 0;
  private firstPending = 0;
  private disposed = false;

  constructor(private readonly options: PollSchedulerOptions) {
    this.clock = options.clock ?? systemClock;
    this.random = options.random ?? Math.random;
    this.maxConcurrent = positiveInteger(options.maxConcurrent, defaultMaxConcurrentPolls);
    const stagger = options.firstPollStaggerMs ?? defaultFirstPollStaggerMs;
    this.staggerMs = Number.isFinite(stagger) && stagger > 0 ? Math.min(stagger, 10_000) : 0;
  }

  /**
   * Starts following a job; its first poll starts now, or a little later when other first polls
   * are still waiting. A job already followed is polled now.
   */
  follow(id: string): void {
    if (this.disposed) return;
    if (this.followed.has(id)) {
      this.wake(id);
      return;
    }
    const entry: Followed = { failures: 0, strikes: 0, again: false, queued: false, firstPending: true };
    this.followed.set(id, entry);
    const delay = this.firstPending * this.staggerMs;
    this.firstPending++;
    if (delay > 0) this.arm(id, entry, delay);
    else this.due(id, entry);
  }

  /** Stops following a job; a poll in flight is aborted. */
  stop(id: string): void {
    const entry = this.followed.get(id);
    if (!entry) return;
    this.followed.delete(id);
    this.waiting.delete(id);
    if (entry.firstPending) this.firstPending--;
    if (entry.timer !== undefined) this.clock.clearTimeout(entry.timer);
    entry.timer = undefined;
    entry.running?.abort();
  }

  /** Polls now (or as soon as the floor and the concurrency cap allow); a running poll is followed by one more. */
  wake(id: string): void {
    const entry = this.followed.get(id);
    if (!entry || entry.queued) return;
    if (entry.running) {
      entry.again = true;
      return;
    }
    if (entry.timer !== undefined) this.clock.clearTimeout(entry.timer);
    entry.timer = undefined;
    this.due(id, entry);
  }

  isFollowing(id: string): boolean {
    return this.followed.has(id);
  }

  following(): string[] {
    return [...this.followed.keys()];
  }

  /** Polls running now (a stopped job's poll counts until it settles). */
  inFlight(): number {
    return this.running;
  }

  /** Timers armed now, one at most per job: zero after dispose. */
  armedTimers(): number {
    let count = 0;
    for (const entry of this.followed.values()) if (entry.timer !== undefined) count++;
    return count;
  }

  /** Jobs due and waiting for a free slot. */
  queued(): number {
    return this.waiting.size;
  }

  setActivity(activity: Activity): void {
    const wasQuiet = !this.activity.visible || !this.activity.focused;
    this.activity = { ...activity };
    const active = activity.visible && activity.focused;
    if (!(wasQuiet && active)) return;
    // Someone is looking again: waiting polls scheduled for a hidden view must not keep them waiting.
    const normal = pollDelay(this.options.policy, this.activity, 0);
    const soonest = this.clock.now() + normal;
    for (const [id, entry] of this.followed) {
      if (entry.running || entry.timer === undefined || entry.dueAt === undefined || entry.dueAt <= soonest) continue;
      if (entry.failures > 0 || entry.strikes > 0) continue;
      this.clock.clearTimeout(entry.timer);
      this.arm(id, entry, normal);
    }
  }

  dispose(): void {
    this.disposed = true;
    for (const id of [...this.followed.keys()]) this.stop(id);
    this.waiting.clear();
  }

  /** The job should poll now: respects the floor since its last poll, then the concurrency cap. */
  private due(id: string, entry: Followed): void {
    if (this.disposed || this.followed.get(id) !== entry || entry.running || entry.queued) return;
    if (entry.lastStartedAt !== undefined) {
      const wait = entry.lastStartedAt + minPollIntervalMs - this.clock.now();
      if (wait > 0) {
        this.arm(id, entry, wait);
        return;
      }
    }
    if (this.running >= this.maxConcurrent) {
      entry.queued = true;
      this.waiting.add(id);
      return;
    }
    this.run(id, entry);
  }

  private run(id: string, entry: Followed): void {
    const controller = new AbortController();
    entry.running = controller;
    entry.timer = undefined;
    entry.dueAt = undefined;
    entry.again = false;
    entry.lastStartedAt = this.clock.now();
    if (entry.firstPending) {
      entry.firstPending = false;
      this.firstPending--;
    }
    this.running++;
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
    this.running--;
    if (entry.running === controller) entry.running = undefined;
    this.reschedule(id, entry, result, error);
    this.startWaiting();
  }

  private reschedule(id: string, entry: Followed, result: PollOutcome | undefined, error: unknown): void {
    // Stopped (or replaced) while the poll ran: nothing more to schedule.
    if (this.followed.get(id) !== entry || this.disposed) return;
    if (result === 'done') {
      this.followed.delete(id);
      return;
    }
    if (error !== undefined) {
      entry.failures += 1;
      const delay = pollDelay(this.options.policy, this.activity, entry.failures + entry.strikes, this.random());
      this.options.onFailure?.(id, error, delay);
      if (this.followed.get(id) !== entry || this.disposed) return;
      this.arm(id, entry, delay);
      return;
    }
    entry.failures = 0;
    entry.strikes = result === 'suspect' ? entry.strikes + 1 : 0;
    if (entry.again) {
      this.due(id, entry);
      return;
    }
    this.arm(id, entry, pollDelay(this.options.policy, this.activity, entry.strikes, entry.strikes > 0 ? this.random() : 0));
  }

  /** Gives free slots to the jobs that have waited longest. */
  private startWaiting(): void {
    for (const id of this.waiting) {
      if (this.running >= this.maxConcurrent || this.disposed) return;
      this.waiting.delete(id);
      const entry = this.followed.get(id);
      if (!entry) continue;
      entry.queued = false;
      this.run(id, entry);
    }
  }

  private arm(id: string, entry: Followed, delay: number): void {
    entry.dueAt = this.clock.now() + delay;
    entry.timer = this.clock.setTimeout(() => {
      entry.timer = undefined;
      entry.dueAt = undefined;
      this.due(id, entry);
    }, delay);
  }
}

function positiveInteger(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value >= 1 ? Math.floor(value) : fallback;
}
