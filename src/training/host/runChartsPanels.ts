import * as vscode from 'vscode';
import { CheckpointTimeline, checkpointSeries, jobRunMetrics, jobSpanOf } from '../model/modelTimeline';
import type { JobChange } from '../model/jobTracker';
import {
  maxCheckpointsCharted,
  maxRunsCompared,
  runChartsViewType,
  type JobSpan,
  type RunChartsHostEvent,
  type RunChartsHostMethods,
  type RunChartsSnapshot,
  type RunChartsViewState,
  type RunSeries,
} from '../protocol';
import { RpcEndpoint, type Handlers } from '../../platform/pages/rpc';
import { params, type NoMethods, type WireMessage } from '../../platform/pages/wire';
import { chartFileParams } from '../../platform/pages/chartFile';
import { saveChartFile } from '../../platform/pages/host/saveChartFile';
import { loadWebviewPage, panelOptions } from '../../platform/pages/host/panelOptions';
import type { Services } from '../../platform/host/services';
import type { RememberedModel } from '../../platform/host/rememberedItems';
import type { JobService } from './jobs/jobService';
import type { JobDetailsPanels } from './jobs/jobDetailsPanel';
import { modelWithNewCheckpoints } from './jobs/checkpointChanges';
import { checkpointPageSize, liveRefreshIntervalMs } from './models/checkpointPages';
import { modelLabel } from './models/modelNodes';
import { jobDetailsTitle } from '../protocol';

type PageChannel = RpcEndpoint<NoMethods, RunChartsHostMethods, RunChartsHostEvent, never>;

/** Pages of checkpoints read on opening at most: the newest `maxCheckpointsCharted`. */
const maxPages = Math.ceil(maxCheckpointsCharted / checkpointPageSize);

interface ModelRun {
  model: RememberedModel;
  timeline: CheckpointTimeline;
  truncated: boolean;
  error?: string;
  lastNewest: number;
}

interface OpenCharts {
  key: string;
  panel: vscode.WebviewPanel;
  channel: PageChannel;
  models: ModelRun[];
  jobIds: string[];
  ready: boolean;
  reading: Promise<void>;
}

/**
 * Runs charted on one page: a model's whole training (its checkpoints' metrics by model step,
 * wherever the jobs that made them were started, with the jobs followed here marked), or several
 * models and jobs overlaid on the same axes to compare them. Live while a job of a model on the
 * page trains it (its newest checkpoints read again at most every few seconds) or a job on the page
 * moves.
 */
export class RunChartsPanels implements vscode.Disposable {
  private readonly open = new Map<string, OpenCharts>();
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly services: Services,
    private readonly jobs: JobService,
    private readonly jobPanels: JobDetailsPanels,
  ) {
    this.subscriptions.push(jobs.onDidChangeJob((change) => this.jobChanged(change)));
  }

  /** Opens (or shows again) the charts of these runs; at most `maxRunsCompared`. */
  show(models: readonly RememberedModel[], jobIds: readonly string[]): void {
    const runs = { models: models.slice(0, maxRunsCompared), jobIds: jobIds.slice(0, Math.max(0, maxRunsCompared - models.length)) };
    const key = keyOf(
      runs.models.map((model) => model.id),
      runs.jobIds,
    );
    const existing = this.open.get(key);
    if (existing) {
      existing.panel.reveal();
      return;
    }
    const panel = vscode.window.createWebviewPanel(runChartsViewType, titleOf(runs.models, runs.jobIds.length), vscode.ViewColumn.Active, panelOptions(this.services.context.extensionUri));
    this.adopt(runs.models, runs.jobIds, panel);
  }

  /** A panel VS Code kept open across a reload: taken over with the runs still remembered. */
  restore(panel: vscode.WebviewPanel, state: unknown): void {
    const saved = state as Partial<RunChartsViewState> | undefined;
    const models = (Array.isArray(saved?.models) ? saved.models : []).flatMap((id) => (typeof id === 'string' ? (this.services.remembered.models.get(id) ?? []) : []));
    const jobIds = (Array.isArray(saved?.jobs) ? saved.jobs : []).filter((id): id is string => typeof id === 'string' && this.services.remembered.jobs.get(id) !== undefined);
    if (models.length + jobIds.length === 0) {
      panel.dispose();
      return;
    }
    this.adopt(models.slice(0, maxRunsCompared), jobIds.slice(0, maxRunsCompared), panel);
  }

  /** What a page of these runs shows now, once read (undefined while none is open). */
  async shown(modelIds: readonly string[], jobIds: readonly string[] = []): Promise<RunChartsSnapshot | undefined> {
    const open = this.open.get(keyOf(modelIds, jobIds));
    if (!open) return undefined;
    await open.reading;
    return this.snapshot(open);
  }

  dispose(): void {
    for (const open of [...this.open.values()]) open.panel.dispose();
    for (const subscription of this.subscriptions) subscription.dispose();
  }

  private adopt(models: readonly RememberedModel[], jobIds: readonly string[], panel: vscode.WebviewPanel): void {
    const key = keyOf(
      models.map((model) => model.id),
      jobIds,
    );
    const open: OpenCharts = {
      key,
      panel,
      models: models.map((model) => ({ model, timeline: new CheckpointTimeline(maxCheckpointsCharted), truncated: false, lastNewest: 0 })),
      jobIds: [...jobIds],
      ready: false,
      reading: Promise.resolve(),
      channel: new RpcEndpoint({ post: (message: WireMessage) => void panel.webview.postMessage(message), handlers: this.handlers(key) }),
    };
    this.open.set(key, open);
    panel.title = titleOf(models, jobIds.length);
    const media = vscode.Uri.joinPath(this.services.context.extensionUri, 'media');
    panel.iconPath = { light: vscode.Uri.joinPath(media, 'job-details-light.svg'), dark: vscode.Uri.joinPath(media, 'job-details-dark.svg') };
    const received = panel.webview.onDidReceiveMessage((message: unknown) => open.channel.receive(message));
    panel.onDidDispose(() => {
      received.dispose();
      open.channel.dispose();
      this.open.delete(key);
    });
    loadWebviewPage(panel.webview, this.services.context.extensionUri, 'runCharts', panel.title);
    for (const jobId of jobIds) this.jobs.refresh(jobId);
    open.reading = Promise.all(open.models.map((run) => this.readAll(run))).then(() => undefined);
  }

  private handlers(key: string): Handlers<RunChartsHostMethods> {
    return {
      ready: async () => {
        const open = this.open.get(key);
        if (!open) throw new Error('these charts are no longer open');
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

  /** Reads a model's checkpoints, newest first, up to the bound. */
  private async readAll(run: ModelRun): Promise<void> {
    try {
      const client = await this.services.client();
      let after: string | undefined;
      for (let page = 0; page < maxPages; page++) {
        const answer = await client.training.listCheckpoints(run.model.id, { limit: checkpointPageSize, order: 'desc', ...(after ? { after } : {}) });
        run.timeline.add(answer.data);
        run.truncated = page === maxPages - 1 && answer.has_more;
        if (!answer.has_more || !answer.last_id) break;
        after = answer.last_id;
      }
      run.error = undefined;
    } catch (error) {
      run.error = this.services.describeFailure(error).message;
    }
  }

  /** A job moved: pages charting it get its new points; pages of its model read the newest checkpoints again (at most every few seconds). */
  private jobChanged(change: JobChange): void {
    const modelId = modelWithNewCheckpoints(this.services, change);
    const now = Date.now();
    for (const open of this.open.values()) {
      const run = modelId === undefined ? undefined : open.models.find((candidate) => candidate.model.id === modelId);
      if (run && now - run.lastNewest >= liveRefreshIntervalMs) {
        run.lastNewest = now;
        void this.readNewest(run).then(() => this.push(open));
      } else if (open.jobIds.includes(change.id) && change.newEvents.length > 0) {
        this.push(open);
      }
    }
  }

  private async readNewest(run: ModelRun): Promise<void> {
    try {
      const client = await this.services.client();
      run.timeline.add((await client.training.listCheckpoints(run.model.id, { limit: checkpointPageSize, order: 'desc' })).data);
      run.error = undefined;
    } catch (error) {
      run.error = this.services.describeFailure(error).message;
    }
  }

  private push(open: OpenCharts): void {
    if (open.ready) open.channel.emit({ type: 'update', snapshot: this.snapshot(open) });
  }

  private snapshot(open: OpenCharts): RunChartsSnapshot {
    const runs: RunSeries[] = open.models.map((run) => ({
      id: run.model.id,
      kind: 'model',
      label: modelLabel(run.model),
      axis: 'model step',
      metrics: Object.fromEntries(checkpointSeries(run.timeline.points())),
      truncated: run.truncated,
      ...(run.error ? { error: run.error } : {}),
    }));
    for (const jobId of open.jobIds) {
      const record = this.jobs.record(jobId);
      const label = jobDetailsTitle({ id: jobId, label: this.services.remembered.jobs.get(jobId)?.label });
      const metrics = record ? jobRunMetrics(record.events, record.status.step) : { axis: 'job step' as const, metrics: {} };
      runs.push({
        id: jobId,
        kind: 'job',
        label,
        axis: metrics.axis,
        metrics: metrics.metrics,
        truncated: (record?.droppedEvents ?? 0) > 0,
        ...(record?.connectionError ? { error: record.connectionError } : {}),
      });
    }
    // A single model's followed jobs are marked where they started.
    const spans: JobSpan[] = [];
    if (open.models.length === 1 && open.jobIds.length === 0) {
      const modelId = open.models[0]!.model.id;
      for (const job of this.services.remembered.jobs.list()) {
        const record = job.modelId === modelId ? this.jobs.record(job.id) : undefined;
        const span = record && jobSpanOf({ id: job.id, label: jobDetailsTitle(job), phase: record.status.phase }, record.events);
        if (span) spans.push(span);
      }
    }
    return { title: open.panel.title, runs, jobs: spans.sort((a, b) => a.firstStep - b.firstStep) };
  }
}

function keyOf(modelIds: readonly string[], jobIds: readonly string[]): string {
  return [...modelIds.map((id) => `model:${id}`), ...jobIds.map((id) => `job:${id}`)].sort().join('\n');
}

function titleOf(models: readonly RememberedModel[], jobs: number): string {
  if (models.length === 1 && jobs === 0) return `Training: ${modelLabel(models[0]!)}`;
  const parts = [models.length ? `${models.length} model${models.length === 1 ? '' : 's'}` : '', jobs ? `${jobs} job${jobs === 1 ? '' : 's'}` : ''].filter(Boolean);
  return `Compare ${parts.join(' and ')}`;
}
