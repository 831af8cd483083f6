import type { TrainingJob, TrainingJobEvent } from '../../platform/client/types';

export type JobPhase = 'queued' | 'running' | 'succeeded' | 'failed';

/**
 * What the views show about a training job. The platform documents no job states, so the phase is
 * derived from the job's events; the job record's undocumented fields only fill what events lack.
 */
export interface JobStatus {
  phase: JobPhase;
  /** Gradient steps seen so far. */
  step: number;
  /**
   * Gradient steps announced by `training_started` (`data.num_sequences`): a whole number from 1 to
   * `maxAnnouncedSteps`, or absent. `step` may go beyond it (a server may send more than it
   * announced); `progressOf` and `describePhase` stay sensible when it does.
   */
  totalSteps?: number;
  /** Numeric metrics of the latest `gradient_step`. */
  latestMetrics: Readonly<Record<string, number>>;
  errorMessage?: string;
  /** When training started and ended, epoch ms, when the server or the events say so. */
  startedAt?: number;
  endedAt?: number;
  /**
   * Whether those times were only observed locally (events without a time, seen while polling):
   * the server's job record replaces observed times, never the events' own.
   */
  startObserved?: boolean;
  endObserved?: boolean;
  eventCount: number;
  /** The cursor to resume from: the id of the last event seen. */
  lastEventId?: string;
}

/** Announcements beyond this are not believed: no job runs a billion gradient steps. */
export const maxAnnouncedSteps = 1_000_000_000;

export const initialJobStatus: JobStatus = Object.freeze({ phase: 'queued', step: 0, latestMetrics: Object.freeze({}), eventCount: 0 });

export function isTerminal(status: JobStatus): boolean {
  return status.phase === 'succeeded' || status.phase === 'failed';
}

export function isTerminalEvent(event: TrainingJobEvent): boolean {
  return event.type === 'training_ended' || event.type === 'training_failed';
}

/**
 * Folds events (oldest first) into a status. Pure and incremental: feeding the events in two
 * batches gives the same result as feeding them at once, which lets polling apply only new events.
 * `observedAt` stands in for an event's time when the server sends none.
 */
export function applyJobEvents(status: JobStatus, events: readonly TrainingJobEvent[], observedAt?: number): JobStatus {
  if (events.length === 0) return status;
  const next: JobStatus = { ...status };
  for (const event of events) {
    // Nothing moves a job out of a terminal phase: a late or duplicated event must not revive it.
    const terminal = isTerminal(next);
    const own = eventTime(event);
    const at = own ?? observedAt;
    const observed = own === undefined && at !== undefined;
    switch (event.type) {
      case 'training_started': {
        if (terminal) break;
        next.phase = 'running';
        const total = announcedSteps(dataOf(event)?.num_sequences);
        if (total !== undefined) next.totalSteps = total;
        setStart(next, at, observed);
        break;
      }
      case 'gradient_step': {
        if (terminal) break;
        next.phase = 'running';
        next.step += 1;
        next.latestMetrics = numericEntries(dataOf(event));
        setStart(next, at, observed);
        break;
      }
      case 'training_ended':
        if (terminal) break;
        next.phase = 'succeeded';
        setEnd(next, at, observed);
        break;
      case 'training_failed': {
        if (terminal) break;
        next.phase = 'failed';
        const message = dataOf(event)?.error_message;
        next.errorMessage = typeof message === 'string' && message.trim() !== '' ? message : 'The training job failed without a message.';
        setEnd(next, at, observed);
        break;
      }
      default:
        // Unknown event types are kept in the timeline but say nothing about the phase.
        break;
    }
    next.eventCount += 1;
    next.lastEventId = event.id;
  }
  return next;
}

/**
 * Fills what the events do not say from the job record (`status`, `training_start`,
 * `training_end`, `error_message` are observed, not documented). Events win where both speak.
 */
export function withJobRecord(status: JobStatus, job: TrainingJob | undefined): JobStatus {
  if (!job) return status;
  const next: JobStatus = { ...status };
  const recordPhase = phaseFromRecord(job.status);
  if (next.eventCount === 0 && recordPhase && recordPhase !== 'queued') {
    next.phase = recordPhase;
    if (isCancelled(job.status) && !next.errorMessage) next.errorMessage = 'The training job was cancelled.';
  }
  const start = parseTime(job.training_start);
  if (start !== undefined && (next.startedAt === undefined || next.startObserved)) {
    next.startedAt = start;
    next.startObserved = false;
  }
  const end = parseTime(job.training_end);
  if (isTerminal(next) && end !== undefined && (next.endedAt === undefined || next.endObserved)) {
    next.endedAt = end;
    next.endObserved = false;
  }
  if (next.phase === 'failed' && typeof job.error_message === 'string' && job.error_message.trim() !== '') {
    if (!next.errorMessage || next.errorMessage === 'The training job failed without a message.') next.errorMessage = job.error_message;
  }
  return next;
}

/** The latest loss, the metric users look at first. */
export function latestLoss(status: JobStatus): number | undefined {
  return status.latestMetrics.loss;
}

/**
 * How far the job got, from 0 to 1, when it announced its steps: never NaN, never beyond 1, even
 * when the server sent more steps than it announced. A succeeded job is done, whatever it counted.
 */
export function progressOf(status: JobStatus): number | undefined {
  const total = status.totalSteps;
  if (total === undefined || !Number.isFinite(total) || total <= 0) return undefined;
  if (status.phase === 'succeeded') return 1;
  const step = Number.isFinite(status.step) ? Math.max(0, status.step) : 0;
  return Math.min(1, step / total);
}

/** "queued", "running · step 3 of 10", "succeeded", "failed". */
export function describePhase(status: JobStatus): string {
  switch (status.phase) {
    case 'queued':
      return 'queued';
    case 'running': {
      if (status.step === 0) return 'running · starting';
      const total = status.totalSteps;
      if (total === undefined) return `running · job step ${status.step}`;
      // More steps than announced: say both rather than "step 1200 of 1000".
      return status.step <= total ? `running · job step ${status.step} of ${total}` : `running · job step ${status.step} (${total} announced)`;
    }
    case 'succeeded':
      return 'succeeded';
    case 'failed':
      return 'failed';
  }
}

/** Milliseconds the job has been running (or ran), when its start is known. */
export function elapsedMs(status: JobStatus, now: number): number | undefined {
  if (status.startedAt === undefined) return undefined;
  const end = isTerminal(status) ? (status.endedAt ?? now) : now;
  return Math.max(0, end - status.startedAt);
}

function setStart(status: JobStatus, at: number | undefined, observed: boolean): void {
  if (status.startedAt !== undefined || at === undefined) return;
  status.startedAt = at;
  status.startObserved = observed;
}

function setEnd(status: JobStatus, at: number | undefined, observed: boolean): void {
  status.endedAt = at;
  status.endObserved = at !== undefined && observed;
}

function isCancelled(value: unknown): boolean {
  return typeof value === 'string' && /^cancel+ed$/i.test(value);
}

function phaseFromRecord(value: unknown): JobPhase | undefined {
  if (typeof value !== 'string') return undefined;
  const normalized = value.toLowerCase();
  if (normalized === 'queued' || normalized === 'pending') return 'queued';
  if (normalized === 'running' || normalized === 'training' || normalized === 'in_progress') return 'running';
  if (normalized === 'succeeded' || normalized === 'completed' || normalized === 'success' || normalized === 'finished') return 'succeeded';
  if (normalized === 'failed' || normalized === 'error' || normalized === 'errored') return 'failed';
  // No cancel call exists, but a record may say so: it will not move again, like a failure.
  if (normalized === 'cancelled' || normalized === 'canceled') return 'failed';
  return undefined;
}

/** When the server says an event happened, epoch ms, or undefined when it does not say. */
export function eventTime(event: TrainingJobEvent): number | undefined {
  return parseTime(event.created_at);
}

function parseTime(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value < 1e12 ? value * 1000 : value;
  if (typeof value === 'string' && value !== '') {
    const parsed = Date.parse(value);
    return Number.isNaN(parsed) ? undefined : parsed;
  }
  return undefined;
}

function announcedSteps(value: unknown): number | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 1 || value > maxAnnouncedSteps) return undefined;
  return Math.floor(value);
}

/** An event's data when it is an object: a server may send anything there. */
function dataOf(event: TrainingJobEvent): Record<string, unknown> | undefined {
  const data: unknown = event.data;
  return typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined;
}

/** The numeric entries of an event's data: a `gradient_step` is a flat map of metrics. */
export function numericEntries(data: Record<string, unknown> | undefined): Record<string, number> {
  const out: Record<string, number> = {};
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return out;
  for (const [key, value] of Object.entries(data)) {
    if (typeof value === 'number' && Number.isFinite(value)) out[key] = value;
  }
  return out;
}
