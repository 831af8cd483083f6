import type { Page, PageQuery, TrainingJob, TrainingJobEvent } from '../../platform/client/types';
import { errorMessage } from '../../platform/client/errorMessage';
import { applyJobEvents, initialJobStatus, isTerminal, withJobRecord, type JobStatus } from './jobStatus';
import { PollScheduler, type PollOutcome } from './pollScheduler';
import { systemClock, type Clock } from '../../platform/kit/clock';
import type { PollPolicy } from './pollPolicy';
import { EventWindow } from './eventWindow';
import { isPlatformError } from '../../platform/client/errors';
import { readNewEvents, RecentCursors, rereadEvents, type EventRead, type FetchEventPage, type PagingFault } from './eventPages';

/** Events kept per job at most, when few jobs are followed. */
export const defaultMaxEventsPerJob = 5_000;
/** Events kept across all jobs: with many jobs, each keeps its share (but never fewer than `minEventsPerJob`). */
export const defaultMaxEventsTotal = 100_000;
const minEventsPerJob = 100;
/** Pages read in one poll at most. */
export const defaultMaxPagesPerPoll = 10;
/**
 * Polls in a row that reach the page cap before the next ones count as misbehaving: enough to
 * catch up on 30,000 events at 100 a page, not enough for a server that invents pages for ever.
 */
const maxCatchUpPolls = 30;

/** The two calls the tracker needs, so it runs on the real client, the emulator or a fake. */
export interface JobSource {
  events(jobId: string, query: PageQuery, signal: AbortSignal): Promise<Page<TrainingJobEvent>>;
  job(jobId: string, signal: AbortSignal): Promise<TrainingJob>;
}

/** Everything known about one job. Replaced (never mutated) on change, so views can compare. */
export interface JobRecord {
  readonly id: string;
  readonly status: JobStatus;
  /**
   * The events kept, oldest first: every event seen, up to a bound; beyond it the oldest go, but
   * the first and the terminal event stay. `status` counts them all.
   */
  readonly events: readonly TrainingJobEvent[];
  /** Older events seen but no longer kept. */
  readonly droppedEvents?: number;
  readonly job?: TrainingJob;
  /** True once a poll succeeded: before that, the status is not known yet. */
  readonly loaded?: boolean;
  /** The last polling failure, cleared by the next success. Polling goes on. */
  readonly connectionError?: string;
  /** When the poll after that failure is due (epoch ms), while polling goes on. */
  readonly retryAt?: number;
  /** Polling stopped until the next refresh (the job does not exist here, or the key was rejected). */
  readonly stopped?: boolean;
}

export interface JobChange {
  readonly id: string;
  readonly record: JobRecord;
  /** Events that arrived with this change, oldest first (empty for other changes). */
  readonly newEvents: readonly TrainingJobEvent[];
}

export interface JobTrackerOptions {
  source: JobSource;
  policy: PollPolicy;
  clock?: Clock;
  random?: () => number;
  /** Page size for event requests (1..100). */
  pageSize?: number;
  /** A guard against a server that always says has_more: pages read in one poll at most. */
  maxPagesPerPoll?: number;
  /** Events kept per job at most (default 5,000). */
  maxEventsPerJob?: number;
  /** Events kept across all jobs (default 100,000): each job keeps its share. */
  maxEventsTotal?: number;
  /** Polls of different jobs in flight at once (default 4). */
  maxConcurrentPolls?: number;
  /** Spacing of first polls of jobs followed together beyond the cap (default 25 ms). */
  firstPollStaggerMs?: number;
  /** Told when a job's server broke the paging rules; its polls slow down until it keeps them again. */
  onPagingFault?(id: string, fault: PagingFault | 'endless-pages'): void;
  /**
   * Told when the server refused the saved place in a job's events (a 4xx on `after`) and the job
   * was read from its beginning again, with the refusal; `found` is how many events that reread found that were new.
   */
  onCursorRefused?(id: string, error: unknown, found: number): void;
  /** Errors after which polling stops until a refresh (for example a 404 for the job, or a 401). */
  isPermanent?(error: unknown): boolean;
  /** Words for a failed poll; `retryInMs` is the wait before the next one (absent when polling stops). */
  describeError?(error: unknown, retryInMs?: number): string;
}

/** What the tracker remembers about a job's paging besides its record. */
interface JobMemory {
  readonly window: EventWindow;
  readonly cursors: RecentCursors;
  /** Polls in a row that reached the page cap. */
  catchUp: number;
  /** The fault of the last poll, so a fault is reported when it starts, not at every poll. */
  fault?: PagingFault | 'endless-pages';
}

/**
 * Follows training jobs by cursor: each poll asks for events after the last one seen, applies them
 * to the job's status and reports a change only when something changed. Terminal jobs stop being
 * polled; a failed poll keeps the cursor, so the next one resumes exactly where it stopped. The
 * server is trusted only as far as it keeps the paging rules: events are taken once, pages per poll
 * and events per job are bounded, and a server that repeats itself is polled less and less often.
 */
export class JobTracker {
  private readonly records = new Map<string, JobRecord>();
  private readonly memory = new Map<string, JobMemory>();
  private readonly listeners = new Set<(change: JobChange) => void>();
  private readonly scheduler: PollScheduler;
  private readonly clock: Clock;
  private requests = 0;

  constructor(private readonly options: JobTrackerOptions) {
    this.clock = options.clock ?? systemClock;
    this.scheduler = new PollScheduler({
      policy: options.policy,
      clock: this.clock,
      random: options.random,
      maxConcurrent: options.maxConcurrentPolls,
      firstPollStaggerMs: options.firstPollStaggerMs,
      poll: (id, signal) => this.poll(id, signal),
      onFailure: (id, error, retryInMs) => this.failed(id, error, retryInMs),
    });
  }

  onDidChange(listener: (change: JobChange) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Starts (or resumes) following a job. A finished job is read once and not polled again. */
  track(id: string): void {
    if (!this.records.has(id)) {
      this.records.set(id, { id, status: initialJobStatus, events: [] });
      this.memory.set(id, { window: new EventWindow(this.eventsPerJob()), cursors: new RecentCursors(), catchUp: 0 });
      this.shareEventBudget();
    }
    const record = this.records.get(id)!;
    if (isTerminal(record.status) || record.stopped) return;
    this.scheduler.follow(id);
  }

  untrack(id: string): void {
    this.scheduler.stop(id);
    this.records.delete(id);
    this.memory.delete(id);
    this.shareEventBudget();
  }

  /**
   * Polls now: used by Refresh, and when a view asks for a job. A finished job is read once more
   * (a person asked for it) and not followed after that.
   */
  refresh(id: string): void {
    const record = this.records.get(id);
    if (!record) return this.track(id);
    if (record.stopped) {
      const cleared: JobRecord = { ...record, stopped: false, connectionError: undefined, retryAt: undefined };
      this.records.set(id, cleared);
      this.emit({ id, record: cleared, newEvents: [] });
    }
    this.scheduler.follow(id);
  }

  /** Polls every job that is still moving (or stopped by an error), now; finished jobs are left alone. */
  refreshAll(): void {
    for (const [id, record] of this.records) if (!isTerminal(record.status) || record.stopped) this.refresh(id);
  }

  ids(): string[] {
    return [...this.records.keys()];
  }

  get(id: string): JobRecord | undefined {
    return this.records.get(id);
  }

  setActivity(activity: { visible: boolean; focused: boolean }): void {
    this.scheduler.setActivity(activity);
  }

  isPolling(id: string): boolean {
    return this.scheduler.isFollowing(id);
  }

  pollingCount(): number {
    return this.scheduler.following().length;
  }

  inFlight(): number {
    return this.scheduler.inFlight();
  }

  /** Polls due and waiting for a free slot (the concurrency cap). */
  queuedPolls(): number {
    return this.scheduler.queued();
  }

  /** Requests sent so far (events and job records). */
  requestCount(): number {
    return this.requests;
  }

  /** Timers the polling holds armed: zero once disposed. */
  armedTimers(): number {
    return this.scheduler.armedTimers();
  }

  dispose(): void {
    this.scheduler.dispose();
    this.listeners.clear();
  }

  private async poll(id: string, signal: AbortSignal): Promise<PollOutcome> {
    let record = this.records.get(id);
    const memory = this.memory.get(id);
    if (!record || !memory) return 'done';
    const fresh = !record.loaded && record.events.length === 0 && !record.job;
    const pageSize = this.options.pageSize ?? 100;
    const fetchPage: FetchEventPage = (after, pageSignal) => {
      this.requests++;
      return this.options.source.events(id, { after, limit: pageSize }, pageSignal);
    };
    const isKnown = (eventId: string): boolean => memory.window.has(eventId);
    const limits = { maxPages: this.options.maxPagesPerPoll ?? defaultMaxPagesPerPoll };
    const saved = record.status.lastEventId;
    let read: EventRead;
    let restartedAt: string | undefined;
    try {
      read = await readNewEvents(fetchPage, saved, isKnown, memory.cursors, limits, signal);
    } catch (error) {
      // A server that no longer knows the saved place (restarted, or its old events expired)
      // refuses it: read the job from its beginning again, taking only events not seen.
      if (saved === undefined || !refusesCursor(error)) throw error;
      const reread = await rereadEvents(fetchPage, isKnown, limits, signal);
      read = reread;
      restartedAt = reread.lastListedId;
      if (!signal.aborted) this.options.onCursorRefused?.(id, error, reread.events.length);
    }
    if (signal.aborted || this.records.get(id) !== record) return 'done';
    const newEvents = read.events;

    // Events read on the first poll may be old: only later polls know roughly when events happened.
    let status = applyJobEvents(record.status, newEvents, fresh ? undefined : this.clock.now());
    // Past a reread, the next poll goes on from the last event the server listed, even a known one.
    if (restartedAt !== undefined && restartedAt !== status.lastEventId) status = { ...status, lastEventId: restartedAt };
    let job = record.job;
    // The job record adds times and the error message; read it first, and again once it ends.
    if (fresh || (isTerminal(status) && !isTerminal(record.status))) {
      this.requests++;
      job = await this.options.source.job(id, signal).catch(() => job);
      if (signal.aborted || this.records.get(id) !== record) return 'done';
    }
    status = withJobRecord(status, job);

    const changed =
      !record.loaded || newEvents.length > 0 || status.lastEventId !== record.status.lastEventId || job !== record.job || record.connectionError !== undefined || status.phase !== record.status.phase;
    if (changed) {
      memory.window.append(newEvents);
      record = { id, status, events: memory.window.events, droppedEvents: memory.window.dropped || undefined, job, loaded: true, connectionError: undefined, retryAt: undefined };
      this.records.set(id, record);
      this.emit({ id, record, newEvents });
    }
    if (isTerminal(status)) return 'done';
    return this.judge(id, memory, read.fault, read.more);
  }

  /** Whether this poll's answers kept the paging rules: a misbehaving server is polled more slowly. */
  private judge(id: string, memory: JobMemory, fault: PagingFault | undefined, more: boolean): PollOutcome {
    memory.catchUp = more ? memory.catchUp + 1 : 0;
    const found = fault ?? (memory.catchUp > maxCatchUpPolls ? 'endless-pages' : undefined);
    const previous = memory.fault;
    memory.fault = found;
    if (!found) return 'continue';
    if (found !== previous) this.options.onPagingFault?.(id, found);
    return 'suspect';
  }

  /** Each job's share of the event budget. */
  private eventsPerJob(): number {
    const perJob = this.options.maxEventsPerJob ?? defaultMaxEventsPerJob;
    const total = this.options.maxEventsTotal ?? defaultMaxEventsTotal;
    const share = Math.floor(total / Math.max(1, this.records.size));
    return Math.min(perJob, Math.max(minEventsPerJob, share));
  }

  /** Applies the current share to every job, so more jobs never mean more events kept in total. */
  private shareEventBudget(): void {
    const limit = this.eventsPerJob();
    for (const [id, memory] of this.memory) {
      if (!memory.window.setLimit(limit)) continue;
      const record = this.records.get(id);
      if (!record) continue;
      const next: JobRecord = { ...record, events: memory.window.events, droppedEvents: memory.window.dropped };
      this.records.set(id, next);
      this.emit({ id, record: next, newEvents: [] });
    }
  }

  private failed(id: string, error: unknown, retryInMs: number): void {
    const record = this.records.get(id);
    if (!record) return;
    const stopped = this.options.isPermanent?.(error) ?? false;
    const message = this.options.describeError?.(error, stopped ? undefined : retryInMs) ?? errorMessage(error);
    if (stopped) this.scheduler.stop(id);
    const retryAt = stopped ? undefined : this.clock.now() + retryInMs;
    if (record.connectionError === message && (record.stopped ?? false) === stopped && record.retryAt === retryAt) return;
    const next: JobRecord = { ...record, connectionError: message, stopped, retryAt };
    this.records.set(id, next);
    this.emit({ id, record: next, newEvents: [] });
  }

  private emit(change: JobChange): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(change);
      } catch {
        // A failing listener must not stop polling or the other listeners.
      }
    }
  }
}

/**
 * Whether a failed events request refused the cursor itself: a 4xx other than those that say
 * something about the key, the job or the pace (401, 402, 403, 404, 429), which a reread would not mend.
 */
function refusesCursor(error: unknown): boolean {
  if (!isPlatformError(error) || error.kind !== 'http' || error.status === undefined) return false;
  return error.status >= 400 && error.status < 500 && ![401, 402, 403, 404, 429].includes(error.status);
}
