import * as vscode from 'vscode';
import { JobTracker, type JobChange, type JobRecord } from '../../core/jobTracker';
import { defaultPollPolicy } from '../../core/pollPolicy';
import type { Services } from '../services';
import type { RememberedJob } from '../state/remembered';
import { classifyFailure, messageOf } from '../views/failures';

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
  private rejected = false;
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
    );
  }

  /** Follows every remembered job the tracker does not know yet, and forgets removed ones. */
  sync(): void {
    const ids = new Set(this.services.remembered.jobs.list().map((job) => job.id));
    for (const id of ids) if (!this.tracker.get(id)) this.tracker.track(id);
    for (const id of this.tracker.ids()) if (!ids.has(id)) this.tracker.untrack(id);
  }

  jobs(): RememberedJob[] {
    return this.services.remembered.jobs.list();
  }

  record(id: string): JobRecord | undefined {
    return this.tracker.get(id);
  }

  refresh(id: string): void {
    this.tracker.refresh(id);
  }

  refreshAll(): void {
    this.rejected = false;
    this.sync();
    this.tracker.refreshAll();
  }

  /** True while job polls are answered 401: the view shows one message, not one per job. */
  isRejected(): boolean {
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
        events: async (jobId, query, signal) => (await services.client()).training.listTrainingJobEvents(jobId, query, { signal }),
        job: async (jobId, signal) => (await services.client()).training.getTrainingJob(jobId, { signal }),
      },
      isPermanent: (error) => {
        const kind = classifyFailure(services, error);
        return kind === 'not-found' || kind === 'rejected' || kind === 'signed-out' || kind === 'not-configured';
      },
      describeError: (error) => {
        const kind = classifyFailure(services, error);
        if (kind === 'not-found') return 'Not found on this training API';
        if (kind === 'rejected') return 'The platform rejected the API key';
        if (kind === 'signed-out') return 'Signed out';
        return messageOf(services, error);
      },
      // The server broke the paging rules: polls of this job slow down; the log says why.
      onPagingFault: (jobId, fault) => services.log.warn(`Training job ${jobId}: ${pagingFaultWords[fault]}; polling it less often until the server answers normally.`),
    });
    tracker.onDidChange((change) => {
      this.noteRejection(change.record);
      this.changed.fire(change);
    });
    tracker.setActivity(this.activity());
    return tracker;
  }

  /** The server or the account changed: everything known is stale. */
  private restart(): void {
    this.tracker.dispose();
    this.rejected = false;
    this.tracker = this.createTracker();
    this.sync();
    this.rejectedChanged.fire(false);
  }

  private noteRejection(record: JobRecord): void {
    const rejected = record.stopped === true && record.connectionError === 'The platform rejected the API key';
    if (rejected && !this.rejected) {
      this.rejected = true;
      this.rejectedChanged.fire(true);
    }
  }

  private activity() {
    return { visible: this.viewVisible || this.visiblePanels.size > 0, focused: this.focused };
  }

  private updateActivity(): void {
    this.tracker.setActivity(this.activity());
  }
}
