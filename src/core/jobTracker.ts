import type { Page, PageQuery, TrainingJob, TrainingJobEvent } from '../api/types';
import { applyJobEvents, initialJobStatus, isTerminal, withJobRecord, type JobStatus } from './jobStatus';
import { PollScheduler, type PollOutcome } from './pollScheduler';
import type { Clock } from './clock';
import type { PollPolicy } from './pollPolicy';

/** The two calls the tracker needs, so it runs on the real client, the emulator or a fake. */
export interface JobSource {
  events(jobId: string, query: PageQuery, signal: AbortSignal): Promise<Page<TrainingJobEvent>>;
  job(jobId: string, signal: AbortSignal): Promise<TrainingJob>;
}

/** Everything known about one job. Replaced (never mutated) on change, so views can compare. */
export interface JobRecord {
  readonly id: string;
  readonly status: JobStatus;
  /** All events seen, oldest first. */
  readonly events: readonly TrainingJobEvent[];
  readonly job?: TrainingJob;
  /** True once a poll succeeded: before that, the status is not known yet. */
  readonly loaded?: boolean;
  /** The last polling failure, cleared by the next success. Polling goes on. */
  readonly connectionError?: string;
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
  /** Errors after which polling stops until a refresh (for example a 404 for the job, or a 401). */
  isPermanent?(error: unknown): boolean;
  describeError?(error: unknown): string;
}

/**
 * Follows training jobs by cursor: each poll asks for events after the last one seen, applies them
 * to the job's status and reports a change only when something changed. Terminal jobs stop being
 * polled; a failed poll keeps the cursor, so the next one resumes exactly where it stopped.
 */
export class JobTracker {
  private readonly records = new Map<string, JobRecord>();
  private readonly listeners = new Set<(change: JobChange) => void>();
  private readonly scheduler: PollScheduler;
  private readonly clock: Clock | undefined;
  private requests = 0;

  constructor(private readonly options: JobTrackerOptions) {
    this.clock = options.clock;
    this.scheduler = new PollScheduler({
      policy: options.policy,
      clock: options.clock,
      random: options.random,
      poll: (id, signal) => this.poll(id, signal),
      onFailure: (id, error) => this.failed(id, error),
    });
  }

  onDidChange(listener: (change: JobChange) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Starts (or resumes) following a job. A finished job is read once and not polled again. */
  track(id: string): void {
    if (!this.records.has(id)) this.records.set(id, { id, status: initialJobStatus, events: [] });
    const record = this.records.get(id)!;
    if (isTerminal(record.status) || record.stopped) return;
    this.scheduler.follow(id);
  }

  untrack(id: string): void {
    this.scheduler.stop(id);
    this.records.delete(id);
  }

  /** Polls now: used by Refresh, and when a view asks for a job it has not seen yet. */
  refresh(id: string): void {
    const record = this.records.get(id);
    if (!record) return this.track(id);
    if (record.stopped) {
      const cleared: JobRecord = { ...record, stopped: false, connectionError: undefined };
      this.records.set(id, cleared);
      this.emit({ id, record: cleared, newEvents: [] });
    }
    if (isTerminal(record.status)) return;
    this.scheduler.follow(id);
  }

  /** Polls every job that is still moving, now. */
  refreshAll(): void {
    for (const id of this.records.keys()) this.refresh(id);
  }

  /** Forgets everything (the server or the account changed) and starts over for the given ids. */
  reset(ids: readonly string[]): void {
    for (const id of [...this.records.keys()]) this.untrack(id);
    for (const id of ids) this.track(id);
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

  /** Requests sent so far (events and job records). */
  requestCount(): number {
    return this.requests;
  }

  dispose(): void {
    this.scheduler.dispose();
    this.listeners.clear();
  }

  private async poll(id: string, signal: AbortSignal): Promise<PollOutcome> {
    let record = this.records.get(id);
    if (!record) return 'done';
    const fresh = record.events.length === 0 && !record.job;
    const newEvents: TrainingJobEvent[] = [];
    let cursor = record.status.lastEventId;
    const maxPages = this.options.maxPagesPerPoll ?? 50;
    for (let pages = 0; pages < maxPages; pages++) {
      this.requests++;
      const page = await this.options.source.events(id, { after: cursor, limit: this.options.pageSize ?? 100 }, signal);
      const seen = new Set(newEvents.map((event) => event.id));
      for (const event of page.data) {
        // A server that repeats the cursor's own event must not count a step twice.
        if (event.id === cursor || seen.has(event.id)) continue;
        newEvents.push(event);
      }
      const last = page.last_id || page.data[page.data.length - 1]?.id;
      if (!page.has_more || !last || last === cursor) break;
      cursor = last;
    }
    if (signal.aborted || this.records.get(id) !== record) return 'done';

    // Events read on the first poll may be old: only later polls know roughly when events happened.
    let status = applyJobEvents(record.status, newEvents, fresh ? undefined : this.now());
    let job = record.job;
    // The job record adds times and the error message; read it first, and again once it ends.
    if (fresh || (isTerminal(status) && !isTerminal(record.status))) {
      this.requests++;
      job = await this.options.source.job(id, signal).catch(() => job);
      if (signal.aborted || this.records.get(id) !== record) return 'done';
    }
    status = withJobRecord(status, job);

    const changed = !record.loaded || newEvents.length > 0 || job !== record.job || record.connectionError !== undefined || status.phase !== record.status.phase;
    if (changed) {
      record = { id, status, events: newEvents.length ? [...record.events, ...newEvents] : record.events, job, loaded: true, connectionError: undefined };
      this.records.set(id, record);
      this.emit({ id, record, newEvents });
    }
    return isTerminal(status) ? 'done' : 'continue';
  }

  private failed(id: string, error: unknown): void {
    const record = this.records.get(id);
    if (!record) return;
    const message = this.options.describeError?.(error) ?? (error instanceof Error ? error.message : String(error));
    const stopped = this.options.isPermanent?.(error) ?? false;
    if (stopped) this.scheduler.stop(id);
    if (record.connectionError === message && (record.stopped ?? false) === stopped) return;
    const next: JobRecord = { ...record, connectionError: message, stopped };
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

  private now(): number {
    return this.clock ? this.clock.now() : Date.now();
  }
}
