import * as vscode from 'vscode';
import { isTerminalEvent } from '../../model/jobStatus';
import { CheckpointTimeline, jobSpanOf } from '../../model/modelTimeline';
import type { JobChange } from '../../model/jobTracker';
import {
  maxCheckpointsCharted,
  modelTrainingViewType,
  type JobSpan,
  type ModelTrainingHostEvent,
  type ModelTrainingHostMethods,
  type ModelTrainingSnapshot,
  type ModelTrainingViewState,
} from '../../protocol';
import { RpcEndpoint, type Handlers } from '../../../platform/pages/rpc';
import { params, type NoMethods, type WireMessage } from '../../../platform/pages/wire';
import { chartFileParams } from '../../../platform/pages/chartFile';
import { saveChartFile } from '../../../platform/pages/host/saveChartFile';
import { loadWebviewPage, panelOptions } from '../../../platform/pages/host/panelOptions';
import type { Services } from '../../../platform/host/services';
import type { RememberedModel } from '../../../platform/host/rememberedItems';
import type { JobService } from '../jobs/jobService';
import type { JobDetailsPanels } from '../jobs/jobDetailsPanel';
import { checkpointPageSize, liveRefreshIntervalMs } from './checkpointPages';
import { modelLabel } from './modelNodes';

type PageChannel = RpcEndpoint<NoMethods, ModelTrainingHostMethods, ModelTrainingHostEvent, never>;

/** Pages read on opening at most: the newest `maxCheckpointsCharted` checkpoints. */
const maxPages = Math.ceil(maxCheckpointsCharted / checkpointPageSize);

interface OpenModel {
  panel: vscode.WebviewPanel;
  channel: PageChannel;
  model: RememberedModel;
  timeline: CheckpointTimeline;
  truncated: boolean;
  error?: string;
  ready: boolean;
  reading?: Promise<void>;
  lastNewest: number;
}

/**
 * A model's whole training on one page: its checkpoints' metrics by model step, wherever the jobs
 * that made them were started, the followed jobs marked as the steps they covered, live while a
 * job trains it (its newest checkpoints read again at most every few seconds).
 */
export class ModelTrainingPanels implements vscode.Disposable {
  private readonly open = new Map<string, OpenModel>();
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly services: Services,
    private readonly jobs: JobService,
    private readonly jobPanels: JobDetailsPanels,
  ) {
    this.subscriptions.push(jobs.onDidChangeJob((change) => this.jobChanged(change)));
  }

  show(model: RememberedModel): void {
    const existing = this.open.get(model.id);
    if (existing) {
      existing.panel.reveal();
      return;
    }
    const panel = vscode.window.createWebviewPanel(modelTrainingViewType, this.title(model), vscode.ViewColumn.Active, panelOptions(this.services.context.extensionUri));
    this.adopt(model, panel);
  }

  /** A panel VS Code kept open across a reload: taken over when its model is still remembered. */
  restore(panel: vscode.WebviewPanel, state: unknown): void {
    const modelId = (state as Partial<ModelTrainingViewState> | undefined)?.modelId;
    const model = typeof modelId === 'string' ? this.services.remembered.models.get(modelId) : undefined;
    if (!model) {
      panel.dispose();
      return;
    }
    this.adopt(model, panel);
  }

  /** What the model's page shows now, once its checkpoints are read (undefined while it is not open). */
  async shown(modelId: string): Promise<ModelTrainingSnapshot | undefined> {
    const open = this.open.get(modelId);
    if (!open) return undefined;
    await open.reading;
    return this.snapshot(open);
  }

  dispose(): void {
    for (const open of [...this.open.values()]) open.panel.dispose();
    for (const subscription of this.subscriptions) subscription.dispose();
  }

  private title(model: RememberedModel): string {
    return `Training: ${modelLabel(model)}`;
  }

  private adopt(model: RememberedModel, panel: vscode.WebviewPanel): void {
    const open: OpenModel = {
      panel,
      model,
      timeline: new CheckpointTimeline(maxCheckpointsCharted),
      truncated: false,
      ready: false,
      lastNewest: 0,
      channel: new RpcEndpoint({ post: (message: WireMessage) => void panel.webview.postMessage(message), handlers: this.handlers(model.id) }),
    };
    this.open.set(model.id, open);
    const media = vscode.Uri.joinPath(this.services.context.extensionUri, 'media');
    panel.iconPath = { light: vscode.Uri.joinPath(media, 'job-details-light.svg'), dark: vscode.Uri.joinPath(media, 'job-details-dark.svg') };
    const subscriptions = [panel.webview.onDidReceiveMessage((message: unknown) => open.channel.receive(message))];
    panel.onDidDispose(() => {
      for (const subscription of subscriptions) subscription.dispose();
      open.channel.dispose();
      this.open.delete(model.id);
    });
    loadWebviewPage(panel.webview, this.services.context.extensionUri, 'modelTraining', panel.title);
    open.reading = this.readAll(open);
  }

  private handlers(modelId: string): Handlers<ModelTrainingHostMethods> {
    return {
      ready: async () => {
        const open = this.open.get(modelId);
        if (!open) throw new Error('this model is no longer open');
        await open.reading;
        open.ready = true;
        return this.snapshot(open);
      },
      saveChart: (raw) => saveChartFile(this.services.dialogs, chartFileParams(raw)),
      openJob: (raw) => {
        const jobId = params.string(raw, 'jobId', 200, 'the job id');
        if (this.services.remembered.jobs.get(jobId)) this.jobPanels.show(jobId);
        return null;
      },
    };
  }

  /** Reads the model's checkpoints, newest first, up to the bound. */
  private async readAll(open: OpenModel): Promise<void> {
    try {
      const client = await this.services.client();
      let after: string | undefined;
      for (let page = 0; page < maxPages; page++) {
        const answer = await client.training.listCheckpoints(open.model.id, { limit: checkpointPageSize, order: 'desc', ...(after ? { after } : {}) });
        open.timeline.add(answer.data);
        if (!answer.has_more || !answer.last_id) {
          open.truncated = false;
          break;
        }
        after = answer.last_id;
        open.truncated = page === maxPages - 1;
      }
      open.error = undefined;
    } catch (error) {
      open.error = this.services.describeFailure(error).message;
    }
  }

  /** New checkpoints may exist (a job of the model made a step or ended): the newest page again, at most every few seconds. */
  private jobChanged(change: JobChange): void {
    if (!change.newEvents.some((event) => event.type === 'gradient_step' || isTerminalEvent(event))) {
      // A job's span may still have moved (its phase): the page hears of it with the next checkpoints.
      return;
    }
    const modelId = this.services.remembered.jobs.get(change.id)?.modelId ?? (typeof change.record.job?.model_id === 'string' ? change.record.job.model_id : undefined);
    const open = modelId ? this.open.get(modelId) : undefined;
    if (!open) return;
    const now = Date.now();
    if (now - open.lastNewest < liveRefreshIntervalMs) return;
    open.lastNewest = now;
    void this.readNewest(open);
  }

  private async readNewest(open: OpenModel): Promise<void> {
    try {
      const client = await this.services.client();
      const answer = await client.training.listCheckpoints(open.model.id, { limit: checkpointPageSize, order: 'desc' });
      open.timeline.add(answer.data);
      open.error = undefined;
    } catch (error) {
      open.error = this.services.describeFailure(error).message;
    }
    if (open.ready) open.channel.emit({ type: 'update', snapshot: this.snapshot(open) });
  }

  private snapshot(open: OpenModel): ModelTrainingSnapshot {
    const spans: JobSpan[] = [];
    for (const job of this.services.remembered.jobs.list()) {
      if (job.modelId !== open.model.id) continue;
      const record = this.jobs.record(job.id);
      if (!record) continue;
      const span = jobSpanOf({ id: job.id, label: job.label ?? job.id, phase: record.status.phase }, record.events);
      if (span) spans.push(span);
    }
    return {
      model: { id: open.model.id, label: modelLabel(open.model) },
      checkpoints: open.timeline.points(),
      jobs: spans.sort((a, b) => a.firstStep - b.firstStep),
      truncated: open.truncated,
      ...(open.error ? { error: open.error } : {}),
    };
  }
}
