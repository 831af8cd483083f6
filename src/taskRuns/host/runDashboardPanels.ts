import * as vscode from 'vscode';
import { RpcEndpoint, type Handlers } from '../../platform/pages/rpc';
import { params, type WireMessage } from '../../platform/pages/wire';
import { chartFileParams } from '../../platform/pages/chartFile';
import { saveChartFile } from '../../platform/pages/host/saveChartFile';
import { loadWebviewPage, panelOptions } from '../../platform/pages/host/panelOptions';
import type { Services } from '../../platform/host/services';
import { checkpointModelId } from '../../platform/kit/checkpointIds';
import { heldOutFileName, runStateFileName, stepFileName } from '../model/runState';
import { readRunFile } from './runFiles';
import { taskRunViewType, type TaskRunHostEvent, type TaskRunHostMethods, type TaskRunSnapshot, type TaskRunViewState } from '../protocol';
import type { NoMethods } from '../../platform/pages/wire';

interface OpenDashboard {
  folder: vscode.Uri;
  panel: vscode.WebviewPanel;
  channel: RpcEndpoint<NoMethods, TaskRunHostMethods, TaskRunHostEvent, never>;
  ready: boolean;
}

/**
 * One dashboard per run folder: the run as `run.json` says, drawn again (at most every few hundred
 * milliseconds) whenever the loop rewrites it, and revived after a reload. The page's links go
 * through here: a step's file opens in the rollout inspector only when it lies in the run folder.
 */
export class RunDashboardPanels implements vscode.Disposable {
  private readonly open = new Map<string, OpenDashboard>();

  constructor(
    private readonly services: Services,
    private readonly runs: { running(folder: vscode.Uri): unknown; stopFolder(folder: vscode.Uri): boolean; onDidChange: vscode.Event<vscode.Uri> },
  ) {}

  show(folder: vscode.Uri): void {
    const existing = this.open.get(folder.toString());
    if (existing) {
      existing.panel.reveal(undefined, true);
      return;
    }
    const panel = vscode.window.createWebviewPanel(
      taskRunViewType,
      `Run ${folder.path.split('/').at(-1)}`,
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      panelOptions(this.services.context.extensionUri),
    );
    this.adopt(folder, panel);
  }

  restore(panel: vscode.WebviewPanel, state: unknown): void {
    const folder = (state as Partial<TaskRunViewState> | undefined)?.folder;
    if (typeof folder !== 'string' || !folder.startsWith('file:')) {
      panel.dispose();
      return;
    }
    this.adopt(vscode.Uri.parse(folder), panel);
  }

  /** What the dashboard of a run folder shows now (undefined while none is open). */
  async shown(folder: vscode.Uri): Promise<TaskRunSnapshot | undefined> {
    return this.open.has(folder.toString()) ? this.snapshot(folder) : undefined;
  }

  dispose(): void {
    for (const open of [...this.open.values()]) open.panel.dispose();
  }

  private adopt(folder: vscode.Uri, panel: vscode.WebviewPanel): void {
    const key = folder.toString();
    const open: OpenDashboard = {
      folder,
      panel,
      ready: false,
      channel: new RpcEndpoint({ post: (message: WireMessage) => void panel.webview.postMessage(message), handlers: this.handlers(folder) }),
    };
    this.open.set(key, open);
    const media = vscode.Uri.joinPath(this.services.context.extensionUri, 'media');
    panel.iconPath = { light: vscode.Uri.joinPath(media, 'job-details-light.svg'), dark: vscode.Uri.joinPath(media, 'job-details-dark.svg') };
    // run.json changes several times a second while a step samples: one redraw per pause.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const push = {
      call: () => {
        if (timer) return;
        timer = setTimeout(() => {
          timer = undefined;
          void this.push(open);
        }, 300);
      },
      cancel: () => clearTimeout(timer),
    };
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, runStateFileName));
    const subscriptions = [
      panel.webview.onDidReceiveMessage((message: unknown) => open.channel.receive(message)),
      watcher,
      watcher.onDidChange(() => push.call()),
      watcher.onDidCreate(() => push.call()),
      this.runs.onDidChange((changed) => {
        if (changed.toString() === key) push.call();
      }),
    ];
    panel.onDidDispose(() => {
      push.cancel();
      for (const subscription of subscriptions) subscription.dispose();
      open.channel.dispose();
      this.open.delete(key);
    });
    loadWebviewPage(panel.webview, this.services.context.extensionUri, 'taskRun', panel.title);
  }

  private handlers(folder: vscode.Uri): Handlers<TaskRunHostMethods> {
    const inFolder = (name: string) => vscode.Uri.joinPath(folder, name);
    return {
      ready: async () => {
        const open = this.open.get(folder.toString());
        if (open) open.ready = true;
        return this.snapshot(folder);
      },
      saveChart: (raw) => saveChartFile(this.services.dialogs, chartFileParams(raw)),
      openStep: async (raw) => {
        const index = params.integer(raw, 'index', 1, 10_000);
        await vscode.commands.executeCommand('vscode.openWith', inFolder(stepFileName(index)), 'rlStudio.rollouts');
        return null;
      },
      openJob: async (raw) => {
        await vscode.commands.executeCommand('rlStudio.openJobDetails', params.string(raw, 'jobId', 200, 'the job id'));
        return null;
      },
      openHeldOut: async () => {
        await vscode.commands.executeCommand('vscode.openWith', inFolder(heldOutFileName), 'rlStudio.evalReport');
        return null;
      },
      copyCheckpoint: async (raw) => {
        const step = params.integer(raw, 'step', 0, Number.MAX_SAFE_INTEGER);
        const state = (await this.snapshot(folder)).state;
        const model = state && this.services.remembered.models.get(state.modelId);
        const id = model && checkpointModelId(model, step);
        if (!id) throw new Error("the run's model is not in the Models view: its checkpoint's id is not known");
        await vscode.env.clipboard.writeText(id);
        this.services.dialogs.info(`Copied ${id}`);
        return null;
      },
      stop: async () => {
        if (!this.runs.stopFolder(folder)) this.services.dialogs.info('This run is not going in this window.');
        return null;
      },
    };
  }

  private async push(open: OpenDashboard): Promise<void> {
    if (open.ready) open.channel.emit({ type: 'update', snapshot: await this.snapshot(open.folder) });
  }

  private async snapshot(folder: vscode.Uri): Promise<TaskRunSnapshot> {
    const base = { folder: vscode.workspace.asRelativePath(folder), folderUri: folder.toString(), running: this.runs.running(folder) !== undefined };
    const read = await readRunFile(folder);
    return 'state' in read ? { ...base, state: read.state } : { ...base, problem: read.problem };
  }
}
