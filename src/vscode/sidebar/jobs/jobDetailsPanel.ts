import * as vscode from 'vscode';
import type { AppendMessage, HostMessage, SnapshotMessage } from '../../../webview/jobDetails/protocol';
import { isWebviewMessage, jobDetailsTitle } from '../../../webview/jobDetails/protocol';
import type { JobChange } from '../../../core/jobTracker';
import type { Services } from '../../platform/services';
import { jobDetailsHtml } from './jobDetailsHtml';
import { jobDetailsViewType } from './jobDetailsViewType';
import type { JobService } from './jobService';

interface PanelState {
  jobId: string;
}

/**
 * One webview per job with its timeline, live charts and raw JSON. While the panel is visible the
 * job counts as watched (polling at full rate) and each new batch of events is pushed to the
 * webview; a hidden panel's webview is unloaded and asks for a fresh snapshot when shown again.
 */
export class JobDetailsPanels implements vscode.Disposable {
  private readonly panels = new Map<string, vscode.WebviewPanel>();
  /** Webviews that said they are ready for messages. */
  private readonly ready = new Set<string>();
  private readonly subscriptions: vscode.Disposable[] = [];
  /** Messages posted, per job (for diagnostics and tests). */
  readonly posted = new Map<string, number>();

  constructor(private readonly services: Services, private readonly jobs: JobService) {
    this.subscriptions.push(jobs.onDidChangeJob((change) => this.push(change)));
  }

  /**
   * Takes over a panel VS Code kept open across a window reload (the serializer registered at
   * activation calls this); a panel of a job no longer remembered is closed.
   */
  restore(panel: vscode.WebviewPanel, state: unknown): void {
    const jobId = (state as Partial<PanelState> | undefined)?.jobId;
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
    const panel = vscode.window.createWebviewPanel(jobDetailsViewType, this.title(jobId), vscode.ViewColumn.Active, {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(this.services.context.extensionUri, 'media')],
    });
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
    panel.webview.options = { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(this.services.context.extensionUri, 'media')] };
    panel.webview.html = jobDetailsHtml(panel.webview, this.services.context.extensionUri, panel.title);
    this.jobs.setPanelVisible(jobId, panel.visible);
    this.jobs.refresh(jobId);
    const subscriptions = [
      panel.webview.onDidReceiveMessage((message: unknown) => {
        if (!isWebviewMessage(message)) return;
        if (message.type === 'ready') {
          this.ready.add(jobId);
          this.post(jobId, this.snapshot(jobId));
        } else if (message.type === 'refresh') {
          this.jobs.refresh(jobId);
        } else if (message.type === 'copy') {
          void vscode.env.clipboard.writeText(message.text);
          vscode.window.setStatusBarMessage('Copied', 2000);
        }
      }),
      panel.onDidChangeViewState(({ webviewPanel }) => {
        this.jobs.setPanelVisible(jobId, webviewPanel.visible);
        // A hidden webview is unloaded; it sends 'ready' again when it comes back.
        if (!webviewPanel.visible) this.ready.delete(jobId);
      }),
    ];
    panel.onDidDispose(() => {
      for (const subscription of subscriptions) subscription.dispose();
      this.panels.delete(jobId);
      this.ready.delete(jobId);
      this.jobs.setPanelVisible(jobId, false);
    });
  }

  private push(change: JobChange): void {
    if (!this.ready.has(change.id)) return;
    const { record } = change;
    const message: AppendMessage = {
      type: 'append',
      status: record.status,
      events: change.newEvents,
      record: record.job,
      connectionError: record.connectionError,
      now: Date.now(),
    };
    this.post(change.id, message);
  }

  private snapshot(jobId: string): SnapshotMessage {
    const remembered = this.services.remembered.jobs.get(jobId);
    const record = this.jobs.record(jobId);
    return {
      type: 'snapshot',
      job: { id: jobId, label: this.title(jobId), modelId: remembered?.modelId, kind: remembered?.kind },
      status: record?.status ?? { phase: 'queued', step: 0, latestMetrics: {}, eventCount: 0 },
      events: record?.events ?? [],
      record: record?.job,
      connectionError: record?.connectionError,
      now: Date.now(),
    };
  }

  private post(jobId: string, message: HostMessage): void {
    const panel = this.panels.get(jobId);
    if (!panel) return;
    this.posted.set(jobId, (this.posted.get(jobId) ?? 0) + 1);
    void panel.webview.postMessage(message);
  }

  /** A webview panel's tab takes a title and an icon only (no tooltip): the page header shows the rest. */
  private title(jobId: string): string {
    return jobDetailsTitle({ id: jobId, label: this.services.remembered.jobs.get(jobId)?.label });
  }
}
