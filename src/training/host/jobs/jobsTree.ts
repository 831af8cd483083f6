import * as vscode from 'vscode';
import { newestFirst } from '../../model/cursorPager';
import { ListingWaits } from '../../model/listingWaits';
import { isTerminal } from '../../model/jobStatus';
import { numberJobSteps } from '../../model/jobSteps';
import { isConfigured } from '../../../platform/host/settings';
import type { Services } from '../../../platform/host/services';
import { ContextKeys, setContext } from '../../../platform/host/contextKeys';
import { eventItem, failingIcon, failureLine, jobItem, messageItem, moreEventsItem, type EventNode, type JobNode, type JobsNode, type MoreEventsNode } from './jobNodes';
import type { JobService } from './jobService';

const eventsPerPage = 50;
/** How often the elapsed time of running jobs is redrawn while the view is visible. */
const clockTickMs = 5000;

/**
 * The Training Jobs view. Each job node redraws on its own when its events change (the tracker
 * reports one job at a time), so a running job moves without Refresh and without redrawing the
 * others. Expanding a job lists its events, newest first, a page at a time.
 */
export class JobsTreeProvider implements vscode.TreeDataProvider<JobsNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<JobsNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly nodes = new Map<string, JobNode>();
  private readonly listing = new ListingWaits<string, JobNode>();
  private readonly shownEvents = new Map<string, number>();
  private view: vscode.TreeView<JobsNode> | undefined;
  private ticker: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly services: Services,
    private readonly jobs: JobService,
  ) {
    this.subscriptions.push(
      services.remembered.jobs.onDidChange(() => this.changed.fire(undefined)),
      services.onDidChangeConnection(() => this.changed.fire(undefined)),
      jobs.onDidChangeJob((change) => {
        const node = this.nodes.get(change.id);
        if (node) this.changed.fire(node);
        this.updateMessage();
      }),
      jobs.onDidChangeRejected(() => this.updateMessage()),
    );
  }

  attach(view: vscode.TreeView<JobsNode>): void {
    this.view = view;
    const visibility = (visible: boolean) => {
      this.jobs.setViewVisible(visible);
      if (visible) this.startTicker();
      else this.stopTicker();
    };
    this.subscriptions.push(view.onDidChangeVisibility((event) => visibility(event.visible)));
    visibility(view.visible);
  }

  /** Polls every moving job now and redraws the whole view. */
  refresh(): void {
    this.jobs.refreshAll();
    this.changed.fire(undefined);
  }

  /** Polls one job now and redraws it. */
  refreshJob(jobId: string): void {
    this.jobs.refresh(jobId);
    const node = this.nodes.get(jobId);
    if (node) this.changed.fire(node);
  }

  node(jobId: string): JobNode | undefined {
    return this.nodes.get(jobId);
  }

  /** The job's row once the view has read a list holding it (it reads the list again after a job is added); undefined when that read did not list it. */
  whenListed(jobId: string): Promise<JobNode | undefined> {
    return this.listing.when(jobId, this.nodes.get(jobId));
  }

  showOlder(node: MoreEventsNode): void {
    this.shownEvents.set(node.jobId, node.shown + eventsPerPage * 2);
    const parent = this.nodes.get(node.jobId);
    if (parent) this.changed.fire(parent);
  }

  getTreeItem(node: JobsNode): vscode.TreeItem {
    switch (node.kind) {
      case 'job':
        return jobItem(node, this.jobs.record(node.job.id), Date.now(), this.jobs.failure(node.job.id));
      case 'event':
        return eventItem(node);
      case 'jobMessage':
        return messageItem(node);
      case 'moreEvents':
        return moreEventsItem(node);
    }
  }

  getParent(node: JobsNode): JobsNode | undefined {
    return node.kind === 'job' ? undefined : this.nodes.get(node.jobId);
  }

  async getChildren(node?: JobsNode): Promise<JobsNode[]> {
    if (!node) return this.rootChildren();
    if (node.kind !== 'job') return [];
    return this.eventChildren(node);
  }

  dispose(): void {
    this.stopTicker();
    this.listing.dispose();
    for (const subscription of this.subscriptions) subscription.dispose();
    this.changed.dispose();
  }

  private async rootChildren(): Promise<JobsNode[]> {
    if (!isConfigured(this.services.settings.current) || !(await this.services.credentials.isSignedIn())) {
      setContext(ContextKeys.jobsEmpty, false);
      this.listing.read(() => undefined);
      return [];
    }
    const remembered = this.jobs.jobs();
    setContext(ContextKeys.jobsEmpty, remembered.length === 0);
    const ids = new Set(remembered.map((job) => job.id));
    for (const id of [...this.nodes.keys()]) if (!ids.has(id)) this.nodes.delete(id);
    const nodes = remembered.map((job) => {
      const existing = this.nodes.get(job.id);
      if (existing) {
        existing.job = job;
        return existing;
      }
      const created: JobNode = { kind: 'job', job };
      this.nodes.set(job.id, created);
      return created;
    });
    this.listing.read((id) => this.nodes.get(id));
    this.jobs.sync();
    this.updateMessage();
    return nodes;
  }

  private eventChildren(node: JobNode): JobsNode[] {
    const record = this.jobs.record(node.job.id);
    const children: JobsNode[] = [];
    if (!record || (!record.loaded && !record.connectionError)) return [{ kind: 'jobMessage', jobId: node.job.id, text: 'Loading events…', icon: new vscode.ThemeIcon('loading~spin') }];
    const errorMessage = record.status.phase === 'failed' ? (record.status.errorMessage ?? 'The job failed.') : undefined;
    if (errorMessage !== undefined) {
      children.push({ kind: 'jobMessage', jobId: node.job.id, text: errorMessage, icon: new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed')), tooltip: errorMessage });
    } else if (record.connectionError !== undefined) {
      const failure = this.jobs.failure(node.job.id);
      const text = failureLine(record, failure, Date.now());
      children.push({ kind: 'jobMessage', jobId: node.job.id, text, icon: failingIcon, tooltip: failure?.detail ? `${text}\n\nRequest: ${failure.detail}` : text });
    }
    const total = record.events.length;
    if (total === 0 && children.length === 0) {
      children.push({ kind: 'jobMessage', jobId: node.job.id, text: isTerminal(record.status) ? 'No events' : 'Waiting for the first event…', icon: new vscode.ThemeIcon('watch') });
      return children;
    }
    const shown = Math.min(total, this.shownEvents.get(node.job.id) ?? eventsPerPage);
    // Job steps as the status counts them, so the numbering holds when the oldest events were dropped.
    const jobSteps = numberJobSteps(record.events, record.status.step);
    let index = total;
    for (const event of newestFirst(record.events, shown)) {
      index--;
      const eventNode: EventNode = { kind: 'event', jobId: node.job.id, event };
      const jobStep = jobSteps[index];
      if (jobStep !== undefined) eventNode.jobStep = jobStep;
      // The failure's message is already the first row: the event says "failed" without repeating it.
      if (event.type === 'training_failed' && errorMessage !== undefined) eventNode.hideMessage = true;
      children.push(eventNode);
    }
    if (shown < total) children.push({ kind: 'moreEvents', jobId: node.job.id, shown, total });
    return children;
  }

  /** One line above the jobs only for what concerns them all: a refused key. A failing poll says so on its own row. */
  private updateMessage(): void {
    if (!this.view) return;
    const rejection = this.jobs.rejection();
    const message = rejection ? `${rejection.message} Run "RL Studio: Sign In" with a valid key.` : undefined;
    if (this.view.message !== message) this.view.message = message;
  }

  private startTicker(): void {
    if (this.ticker) return;
    this.ticker = setInterval(() => {
      for (const [id, node] of this.nodes) {
        const record = this.jobs.record(id);
        // Running jobs for their elapsed time; failing ones for their "retrying in N s".
        if (record && ((record.status.phase === 'running' && !record.connectionError) || (record.connectionError !== undefined && !record.stopped))) this.changed.fire(node);
      }
    }, clockTickMs);
  }

  private stopTicker(): void {
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = undefined;
  }
}
