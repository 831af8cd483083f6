/**
 * When a followed training job deserves a notification: it finished, it failed, or it stalled (no
 * event for a stretch well past its own pace). Pure: the host feeds it every change of a job's
 * record and a tick now and then, and shows what it answers.
 *
 * - A job is told about only when it was seen moving (queued or running) before it ended: a job
 *   that was already over when followed, or when this window first read it, is not news. What was
 *   seen moving is kept by the host across reloads (`moving`), so a job that ends while the editor
 *   is closed is still told about when it opens.
 * - A stall is judged from the job's own events: the gaps between the last events (their server
 *   times, else when they were seen) give its pace; with no event for `stallFactor` times the usual
 *   gap, and never less than `minStallMs`, it has stalled. It is told once per stall: a new event
 *   ends it. A job whose polls fail is not judged (the platform may be unreachable, not the job).
 * - Each notice carries a `key` that is the same in every window for the same news, so the host can
 *   show it once across windows.
 */
import type { TrainingJobEvent } from '../../platform/client/types';
import { quoted } from '../../platform/kit/confirmationText';
import { formatDuration } from '../../platform/kit/format';
import { foreignName } from '../../platform/agent/foreignText';
import { eventTime, isTerminal } from './jobStatus';
import type { JobRecord } from './jobTracker';

export type JobNoticeKind = 'finished' | 'failed' | 'stalled';

export interface JobNotice {
  kind: JobNoticeKind;
  jobId: string;
  /** The same for the same news in every window. */
  key: string;
  /** The job's own failure message (foreign text: shown quoted), for `failed`. */
  errorMessage?: string;
  /** How long the job has been silent, and its usual gap between events, for `stalled`. */
  silentMs?: number;
  usualGapMs?: number;
  /** The last step seen. */
  step: number;
  totalSteps?: number;
}

export interface JobNoticeOptions {
  now: () => number;
  /** Ids of the jobs seen moving before (kept across reloads by the host). */
  moving?: Iterable<string>;
  /** Told whenever the set of moving jobs changes, to keep it. */
  onMovingChange?: (moving: readonly string[]) => void;
  /** No stall is called before this much silence (default 10 minutes). */
  minStallMs?: number;
  /** A stall is this many usual gaps of silence (default 10). */
  stallFactor?: number;
}

/** Gaps between events kept per job to know its pace. */
const gapsKept = 20;
/** Jobs whose pace is kept: the followed jobs are bounded by the remembered list, this bounds a misuse. */
const maxJobsWatched = 1_000;

interface Pace {
  lastEventAt: number;
  lastEventId: string | undefined;
  gaps: number[];
  stallTold: boolean;
}

export class JobNoticeRules {
  private readonly moving: Set<string>;
  private readonly pace = new Map<string, Pace>();
  private readonly minStallMs: number;
  private readonly stallFactor: number;

  constructor(private readonly options: JobNoticeOptions) {
    this.moving = new Set([...(options.moving ?? [])].slice(0, maxJobsWatched));
    this.minStallMs = options.minStallMs ?? 10 * 60_000;
    this.stallFactor = options.stallFactor ?? 10;
  }

  /** A job's record changed (with the events that came with it): the notices it brings. */
  observe(record: JobRecord, newEvents: readonly TrainingJobEvent[] = []): JobNotice[] {
    if (!record.loaded) return [];
    const { id, status } = record;
    if (!isTerminal(status)) {
      if (!this.moving.has(id) && this.moving.size < maxJobsWatched) {
        this.moving.add(id);
        this.options.onMovingChange?.([...this.moving]);
      }
      this.notePace(id, newEvents);
      return [];
    }
    this.pace.delete(id);
    if (!this.moving.delete(id)) return [];
    this.options.onMovingChange?.([...this.moving]);
    const kind: JobNoticeKind = status.phase === 'failed' ? 'failed' : 'finished';
    return [
      {
        kind,
        jobId: id,
        key: `${id}:${kind}`,
        step: status.step,
        ...(status.totalSteps !== undefined ? { totalSteps: status.totalSteps } : {}),
        ...(kind === 'failed' && status.errorMessage !== undefined ? { errorMessage: status.errorMessage } : {}),
      },
    ];
  }

  /** The job is no longer followed. */
  forget(id: string): void {
    this.pace.delete(id);
    if (this.moving.delete(id)) this.options.onMovingChange?.([...this.moving]);
  }

  /** A tick: the moving jobs that have now been silent for too long (each told once per stall). */
  stalls(records: readonly JobRecord[]): JobNotice[] {
    const now = this.options.now();
    const notices: JobNotice[] = [];
    for (const record of records) {
      const pace = this.pace.get(record.id);
      if (!pace || pace.stallTold || !record.loaded || record.connectionError !== undefined || record.stopped || isTerminal(record.status)) continue;
      const silent = now - pace.lastEventAt;
      if (silent < this.stallAfter(pace)) continue;
      pace.stallTold = true;
      notices.push({
        kind: 'stalled',
        jobId: record.id,
        key: `${record.id}:stalled:${pace.lastEventId ?? pace.lastEventAt}`,
        silentMs: silent,
        ...(pace.gaps.length > 0 ? { usualGapMs: medianOf(pace.gaps) } : {}),
        step: record.status.step,
        ...(record.status.totalSteps !== undefined ? { totalSteps: record.status.totalSteps } : {}),
      });
    }
    return notices;
  }

  /** How much silence is a stall for this job: many of its usual gaps, never less than the minimum. */
  stallAfter(pace: Pick<Pace, 'gaps'>): number {
    if (pace.gaps.length === 0) return this.minStallMs;
    return Math.max(this.minStallMs, medianOf(pace.gaps) * this.stallFactor);
  }

  private notePace(id: string, events: readonly TrainingJobEvent[]): void {
    let pace = this.pace.get(id);
    const now = this.options.now();
    if (!pace) {
      if (this.pace.size >= maxJobsWatched) return;
      // Silence counts from the last event, or from when the job was first seen if it has none yet.
      pace = { lastEventAt: now, lastEventId: undefined, gaps: [], stallTold: false };
      this.pace.set(id, pace);
    }
    for (const event of events) {
      // An event stamped in the future (a server clock ahead) counts from now.
      const at = Math.min(eventTime(event) ?? now, now);
      if (pace.lastEventId === undefined) {
        pace.lastEventAt = at;
      } else if (at > pace.lastEventAt) {
        pace.gaps.push(at - pace.lastEventAt);
        if (pace.gaps.length > gapsKept) pace.gaps.shift();
        pace.lastEventAt = at;
      }
      pace.lastEventId = event.id;
      pace.stallTold = false;
    }
  }
}

/**
 * What a notification says, leading with what happened: the job by its label (a file name, or its
 * id: foreign text, quoted), the step it reached, and for a failure the server's own message,
 * quoted. The next steps are the notification's buttons.
 */
function medianOf(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export function noticeText(notice: JobNotice, label: string): string {
  const job = `Training job ${foreignName(label, 80)}`;
  const steps = notice.totalSteps !== undefined ? `${notice.step} of ${notice.totalSteps} steps` : `${notice.step} step${notice.step === 1 ? '' : 's'}`;
  switch (notice.kind) {
    case 'finished':
      return `${job} finished after ${steps}.`;
    case 'failed':
      return `${job} failed at ${steps}: ${quoted(notice.errorMessage ?? 'no message', 300)}.`;
    case 'stalled': {
      const usual = notice.usualGapMs !== undefined && notice.usualGapMs > 0 ? ` (it usually sends one every ${formatDuration(notice.usualGapMs)})` : '';
      return `${job} has sent no event for ${formatDuration(notice.silentMs ?? 0)}${usual}, at ${steps}: it may have stalled. RL Studio keeps following it.`;
    }
  }
}
