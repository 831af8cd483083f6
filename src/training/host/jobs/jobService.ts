import * as vscode from 'vscode';
import { withNextStep, type Failure } from '../../../platform/client/describeFailure';
import { JobTracker, type JobChange, type JobRecord } from '../../model/jobTracker';
import { defaultPollPolicy } from '../../model/pollPolicy';
import type { Services } from '../../../platform/host/services';
import type { RememberedJob } from '../../../platform/host/rememberedItems';

const pagingFaultWords = {
  redelivered: 'the server sent events it had already sent',
  'repeated-cursor': 'the server pointed to a page it had already given',
  'no-cursor': 'the server said more events follow but gave no cursor',
  'endless-pages': 'the server keeps saying more events follow',
} as const;

/**
 * The live state of the remembered training jobs, shared by the Training Jobs view and the job
 * details panels. Jobs still moving are followed by cursor while someone can see them; the poll
 * rate follows the view's visibility and the window's focus.
 */
export class JobService implements vscode.Disposable {
  private tracker: JobTracker;
  private readonly changed = new vscode.EventEmitter<JobChange>();
  /** Fires for one job at a time, with the events that arrived. */
  readonly onDidChangeJob = this.changed.event;
  private readonly subscriptions: vscode.Disposable[] = [];
  private viewVisible = false;
  private readonly visiblePanels = new Set<string>();
  private focused = vscode.window.state.focused;
  /** The refused key's failure while job polls are answered 401: the view says it once, above the jobs. */
  private rejected: Failure | undefined;
  /** Why each job's last poll failed, while it fails (one entry per followed job at most). */
  private readonly failures = new Map<string, Failure>();
  private readonly rejectedChanged = new vscode.EventEmitter<boolean>();
  /** Fires when the platform starts or stops rejecting the key (401) on job polls. */
  readonly onDidChangeRejected = this.rejectedChanged.event;

  constructor(private readonly services: Services) {
    this.tracker = this.createTracker();
    this.subscriptions.push(
      vscode.window.onDidChangeWindowState((state) => {
        this.focused = state.focused;
        this.updateActivity();
      }),
      services.onDidChangeConnection(() => this.restart()),
      services.remembered.jobs.onDidChange(() => this.sync()),
      // The training API answers again (any call or check saw it): polls that backed off for up
      // to a minute go now, so the jobs recover within seconds, without a click.
      services.health.onDidChange((change) => {
        if (change.api === 'training' && change.recovered) this.resumeFailing();
      }),
    );
  }

  /** Follows every remembered job the tracker does not know yet, and forgets removed ones. */
  sync(): void {
    const ids = new Set(this.services.remembered.jobs.list().map((job) => job.id));
    for (const id of ids) if (!this.tracker.get(id)) this.tracker.track(id);
    for (const id of this.tracker.ids()) {
      if (ids.has(id)) continue;
      this.tracker.untrack(id);
      this.failures.delete(id);
    }
  }

  jobs(): RememberedJob[] {
    return this.services.remembered.jobs.list();
  }

  record(id: string): JobRecord | undefined {
    return this.tracker.get(id);
  }

  /** Why the job's polls fail, while they do. */
  failure(id: string): Failure | undefined {
    return this.tracker.get(id)?.connectionError === undefined ? undefined : this.failures.get(id);
  }

  refresh(id: string): void {
    this.tracker.refresh(id);
  }

  refreshAll(): void {
    this.rejected = undefined;
    this.sync();
    this.tracker.refreshAll();
  }

  /** Why job polls are refused while the key is (describeFailure's 'rejected'): the view says it once, not on every job. */
  rejection(): Failure | undefined {
    return this.rejected;
  }

  setViewVisible(visible: boolean): void {
    this.viewVisible = visible;
    this.updateActivity();
  }

  setPanelVisible(jobId: string, visible: boolean): void {
    if (visible) this.visiblePanels.add(jobId);
    else this.visiblePanels.delete(jobId);
    this.updateActivity();
  }

  /**
   * Something waits on the job's end (a training run's step): the job is read at once and, until
   * disposed, jobs are polled at the pace of a visible view, as the person is waiting on it as much
   * as on an open panel.
   */
  waitOn(jobId: string): vscode.Disposable {
    this.waiters++;
    this.refresh(jobId);
    this.updateActivity();
    let waiting = true;
    return {
      dispose: () => {
        if (!waiting) return;
        waiting = false;
        this.waiters--;
        this.updateActivity();
      },
    };
  }

  /** Requests in flight and jobs still polled, for diagnostics and tests. */
  stats(): { polling: number; inFlight: number; requests: number } {
    return { polling: this.tracker.pollingCount(), inFlight: this.tracker.inFlight(), requests: this.tracker.requestCount() };
  }

  dispose(): void {
    this.tracker.dispose();
    for (const subscription of this.subscriptions) subscription.dispose();
    this.changed.dispose();
    this.rejectedChanged.dispose();
  }

  private createTracker(): JobTracker {
    const services = this.services;
    const tracker = new JobTracker({
      policy: defaultPollPolicy(services.settings.current.pollingIntervalMs),
      pageSize: 100,
      source: {
        // The reason of each job's failed poll is kept by job, for its row and for the rejected-key message.
        events: (jobId, query, signal) => this.noting(jobId, signal, async () => (await services.client()).training.listTrainingJobEvents(jobId, query, { signal })),
        job: (jobId, signal) => this.noting(jobId, signal, async () => (await services.client()).training.getTrainingJob(jobId, { signal })),
      },
      isPermanent: (error) => {
        const kind = services.describeFailure(error).kind;
        return kind === 'not-found' || kind === 'rejected' || kind === 'signed-out' || kind === 'not-configured';
      },
      describeError: (error, retryInMs) => {
        const failure = services.describeFailure(error);
        return withNextStep(failure, failure.retryable ? retryInMs : undefined);
      },
      // The server broke the paging rules: polls of this job slow down; the log says why.
      onPagingFault: (jobId, fault) => services.log.warn(`Training job ${jobId}: ${pagingFaultWords[fault]}; polling it less often until the server answers normally.`),
      onCursorRefused: (jobId, error, found) =>
        services.log.warn(
          `Training job ${jobId}: the server refused the saved place in its events (${services.describeFailure(error).message}); read it again from the beginning and found ${found} new event${found === 1 ? '' : 's'}, skipping those already shown.`,
        ),
    });
    tracker.onDidChange((change) => {
      if (change.record.connectionError === undefined) this.failures.delete(change.id);
      this.changed.fire(change);
    });
    tracker.setActivity(this.activity());
    return tracker;
  }

  /** The server or the account changed: everything known is stale. */
  private restart(): void {
    this.tracker.dispose();
    this.failures.clear();
    this.rejected = undefined;
    this.tracker = this.createTracker();
    this.sync();
    this.rejectedChanged.fire(false);
  }

  /** Runs one poll request, keeping the reason it failed for (unless it was stopped on purpose). */
  private async noting<T>(jobId: string, signal: AbortSignal, request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      if (!signal.aborted) this.noteFailure(jobId, this.services.describeFailure(error));
      throw error;
    }
  }

  private noteFailure(jobId: string, failure: Failure): void {
    if (!this.tracker.get(jobId)) return;
    this.failures.set(jobId, failure);
    if (failure.kind === 'rejected' && !this.rejected) {
      this.rejected = failure;
      this.rejectedChanged.fire(true);
    }
  }

  /** Polls now every job whose last poll failed. */
  private resumeFailing(): void {
    for (const job of this.jobs()) {
      const record = this.tracker.get(job.id);
      if (record?.connectionError !== undefined && !record.stopped) this.tracker.refresh(job.id);
    }
  }

  /** Things waiting on a job's end (see waitOn). */
  private waiters = 0;

  private activity() {
    return { visible: this.viewVisible || this.visiblePanels.size > 0 || this.waiters > 0, focused: this.focused };
  }

  private updateActivity(): void {
    this.tracker.setActivity(this.activity());
  }
}
