import * as vscode from 'vscode';
import type { JobChange } from '../../model/jobTracker';
import { RpcEndpoint, type Handlers } from '../../../platform/pages/rpc';
import { params, type WireMessage } from '../../../platform/pages/wire';
import {
  jobDetailsTitle,
  maxCopyChars,
  type JobAppend,
  type JobDetailsViewState,
  type JobHostEvent,
  type JobHostMethods,
  type JobPageEvent,
  type JobPageMethods,
  type JobSnapshot,
} from '../../protocol';
import type { Services } from '../../../platform/host/services';
import { loadWebviewPage, panelOptions } from '../../../platform/pages/host/panelOptions';
import { jobDetailsViewType } from '../../protocol';
import type { JobService } from './jobService';
import { copyAndSay } from '../../../platform/host/clipboard';
import { chartFileParams } from '../../../platform/pages/chartFile';
import { saveChartFile } from '../../../platform/pages/host/saveChartFile';

type PageChannel = RpcEndpoint<JobPageMethods, JobHostMethods, JobHostEvent, JobPageEvent>;

/**
 * One webview per job with its timeline, live charts and raw JSON. While the panel is visible the
 * job counts as watched (polling at full rate) and each new batch of events is pushed to the
 * webview; a hidden panel's webview is unloaded and asks for a fresh snapshot when shown again.
 */
export class JobDetailsPanels implements vscode.Disposable {
  private readonly panels = new Map<string, vscode.WebviewPanel>();
  private readonly channels = new Map<string, PageChannel>();
  /** Webviews that asked for their snapshot: they get the appends from then on. */
  private readonly ready = new Set<string>();
  private readonly subscriptions: vscode.Disposable[] = [];
  /** Messages posted, per job (for diagnostics and tests). */
  readonly posted = new Map<string, number>();

  constructor(
    private readonly services: Services,
    private readonly jobs: JobService,
  ) {
    this.subscriptions.push(jobs.onDidChangeJob((change) => this.push(change)));
  }

  /**
   * Takes over a panel VS Code kept open across a window reload (the serializer registered at
   * activation calls this); a panel of a job no longer remembered is closed.
   */
  restore(panel: vscode.WebviewPanel, state: unknown): void {
    const jobId = (state as Partial<JobDetailsViewState> | undefined)?.jobId;
    if (typeof jobId !== 'string' || !this.services.remembered.jobs.get(jobId)) {
      panel.dispose();
      return;
    }
    this.adopt(jobId, panel);
  }

  show(jobId: string): vscode.WebviewPanel {
    const existing = this.panels.get(jobId);
    if (existing) {
      existing.reveal();
      return existing;
    }
    const panel = vscode.window.createWebviewPanel(jobDetailsViewType, this.title(jobId), vscode.ViewColumn.Active, panelOptions(this.services.context.extensionUri));
    this.adopt(jobId, panel);
    return panel;
  }

  close(jobId: string): void {
    this.panels.get(jobId)?.dispose();
  }

  isOpen(jobId: string): boolean {
    return this.panels.has(jobId);
  }

  dispose(): void {
    for (const panel of [...this.panels.values()]) panel.dispose();
    for (const subscription of this.subscriptions) subscription.dispose();
  }

  private adopt(jobId: string, panel: vscode.WebviewPanel): void {
    this.panels.set(jobId, panel);
    panel.title = this.title(jobId);
    const media = vscode.Uri.joinPath(this.services.context.extensionUri, 'media');
    panel.iconPath = { light: vscode.Uri.joinPath(media, 'job-details-light.svg'), dark: vscode.Uri.joinPath(media, 'job-details-dark.svg') };
    const channel: PageChannel = new RpcEndpoint({
      post: (message: WireMessage) => {
        this.posted.set(jobId, (this.posted.get(jobId) ?? 0) + 1);
        void panel.webview.postMessage(message);
      },
      handlers: this.handlers(jobId),
    });
    this.channels.set(jobId, channel);
    loadWebviewPage(panel.webview, this.services.context.extensionUri, 'jobDetails', panel.title);
    this.jobs.setPanelVisible(jobId, panel.visible);
    this.jobs.refresh(jobId);
    const subscriptions = [
      panel.webview.onDidReceiveMessage((message: unknown) => channel.receive(message)),
      panel.onDidChangeViewState(({ webviewPanel }) => {
        this.jobs.setPanelVisible(jobId, webviewPanel.visible);
        // A hidden webview is unloaded; it asks for its snapshot again when it comes back.
        if (!webviewPanel.visible) this.ready.delete(jobId);
      }),
    ];
    panel.onDidDispose(() => {
      for (const subscription of subscriptions) subscription.dispose();
      channel.dispose();
      this.panels.delete(jobId);
      this.channels.delete(jobId);
      this.ready.delete(jobId);
      this.jobs.setPanelVisible(jobId, false);
    });
  }

  /** What the page of one job may ask for. */
  private handlers(jobId: string): Handlers<JobHostMethods> {
    return {
      ready: () => {
        // Marked before the reply goes out: an append posted meanwhile is newer than this
        // snapshot, and the page applies it after drawing the snapshot.
        this.ready.add(jobId);
        return this.snapshot(jobId);
      },
      refresh: () => {
        this.jobs.refresh(jobId);
        return null;
      },
      copy: async (raw) => {
        const text = params.string(raw, 'text', maxCopyChars, 'the text to copy');
        await copyAndSay(text, 'Copied', 2000);
        return null;
      },
      saveChart: (raw) => saveChartFile(this.services.dialogs, chartFileParams(raw)),
    };
  }

  private push(change: JobChange): void {
    if (!this.ready.has(change.id)) return;
    const { record } = change;
    const append: JobAppend = {
      type: 'append',
      status: record.status,
      events: change.newEvents,
      record: record.job,
      connectionError: record.connectionError,
      now: Date.now(),
    };
    this.channels.get(change.id)?.emit(append);
  }

  private snapshot(jobId: string): JobSnapshot {
    const remembered = this.services.remembered.jobs.get(jobId);
    const record = this.jobs.record(jobId);
    return {
      job: { id: jobId, label: this.title(jobId), modelId: remembered?.modelId, kind: remembered?.kind },
      status: record?.status ?? { phase: 'queued', step: 0, latestMetrics: {}, eventCount: 0 },
      events: record?.events ?? [],
      record: record?.job,
      connectionError: record?.connectionError,
      now: Date.now(),
    };
  }

  /** A webview panel's tab takes a title and an icon only (no tooltip): the page header shows the rest. */
  private title(jobId: string): string {
    return jobDetailsTitle({ id: jobId, label: this.services.remembered.jobs.get(jobId)?.label });
  }
}
