import * as vscode from 'vscode';
import type { AlertContext, AlertEngine, AlertFiring, JobCondition } from '../model/alertRules';
import { AlertJobFeed } from '../model/jobFeed';
import type { Services } from '../../platform/host/services';
import { isTerminal, JobNoticeRules, numberJobSteps, numericEntries, type JobChange, type JobNotice, type JobRecord, type RegisteredViews } from '../../training';

/** How often moving jobs are checked for a stall (as the job notifications do). */
const stallCheckMs = 60_000;
/** Jobs remembered to forget later: the followed jobs are far fewer; this bounds a misuse. */
const maxJobsSeen = 1_000;

/**
 * Feeds the rule engine from the sidebar's job service: each followed job's outcome (finished,
 * failed, stalled: decided by the job notifications' own rules, jobNotices.ts, so "stalled" means
 * one thing) and each new gradient step's metrics. A job already over when first seen fires nothing.
 */
export class JobAlerts implements vscode.Disposable {
  private readonly outcomes: JobNoticeRules;
  private readonly feed: AlertJobFeed;
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly timer: ReturnType<typeof setInterval>;
  /** Jobs this has read a change of, to forget them when they are no longer followed. */
  private readonly seen = new Set<string>();

  constructor(
    private readonly services: Services,
    private readonly views: RegisteredViews,
    private readonly engine: AlertEngine,
    private readonly fire: (firings: AlertFiring[]) => void,
  ) {
    // Its own record of which jobs it saw moving, kept in memory: the job notifications keep theirs
    // across reloads, and two writers of one list would undo each other.
    this.outcomes = new JobNoticeRules({ now: () => Date.now() });
    this.feed = new AlertJobFeed(engine, { metricsOf: (event) => metricsOf(event.data) });
    const jobService = views.jobService;
    this.subscriptions.push(
      jobService.onDidChangeJob((change) => this.changed(change)),
      services.remembered.jobs.onDidChange(() => this.forgetRemoved()),
    );
    this.timer = setInterval(() => this.outcome(this.outcomes.stalls(this.records())), stallCheckMs);
    this.timer.unref?.();
    // Jobs followed before the rules were read are followed from now on.
    jobService.sync();
  }

  dispose(): void {
    clearInterval(this.timer);
    for (const subscription of this.subscriptions) subscription.dispose();
  }

  private changed(change: JobChange): void {
    const { record } = change;
    if (this.seen.size < maxJobsSeen) this.seen.add(change.id);
    const context = this.contextOf(record);
    const firings = this.feed.change({
      id: change.id,
      loaded: record.loaded === true,
      over: isTerminal(record.status),
      newEvents: change.newEvents,
      jobSteps: numberJobSteps(change.newEvents, record.status.step),
      context,
    });
    if (firings.length > 0) this.fire(firings);
    this.outcome(this.outcomes.observe(record, change.newEvents));
  }

  private outcome(notices: readonly JobNotice[]): void {
    const firings: AlertFiring[] = [];
    for (const notice of notices) {
      const record = this.views.jobService.record(notice.jobId);
      const context: AlertContext = { ...(record ? this.contextOf(record) : { jobId: notice.jobId }), step: notice.step };
      if (notice.errorMessage !== undefined) context.message = notice.errorMessage;
      if (notice.silentMs !== undefined) context.silentMs = notice.silentMs;
      firings.push(...this.engine.jobOutcome(notice.kind satisfies JobCondition, context));
    }
    if (firings.length > 0) this.fire(firings);
  }

  private contextOf(record: JobRecord): AlertContext {
    const remembered = this.services.remembered.jobs.get(record.id);
    const named = record.job?.model_id;
    const modelId = remembered?.modelId ?? (typeof named === 'string' ? named : undefined);
    return { jobId: record.id, jobLabel: remembered?.label ?? record.id, ...(modelId !== undefined ? { modelId } : {}) };
  }

  private records(): JobRecord[] {
    return this.views.jobService
      .jobs()
      .map((job) => this.views.jobService.record(job.id))
      .filter((record): record is JobRecord => record !== undefined);
  }

  private forgetRemoved(): void {
    const followed = new Set(this.views.jobService.jobs().map((job) => job.id));
    for (const id of this.seen) {
      if (followed.has(id)) continue;
      this.seen.delete(id);
      this.outcomes.forget(id);
      this.feed.forget(id);
    }
  }
}

/** A gradient step's metrics: its numeric data, less the model step it reports. */
function metricsOf(data: Record<string, unknown>): Record<string, number> {
  const metrics = numericEntries(data);
  delete metrics.step;
  return metrics;
}
