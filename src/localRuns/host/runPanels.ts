import * as vscode from 'vscode';
import { errorMessage } from '../../platform/client/errorMessage';
import { KeyedDebounce } from '../../platform/kit/debounce';
import { loadWebviewPage, panelOptions } from '../../platform/pages/host/panelOptions';
import { RpcEndpoint, type Handlers } from '../../platform/pages/rpc';
import { isCount, params, ProtocolError, type WireMessage } from '../../platform/pages/wire';
import type { Services } from '../../platform/host/services';
import { discoveryBounds, stepOfFileName } from '../model/artLayout';
import { listSteps } from '../model/discovery';
import { readRunFolder, type RunFolder } from '../model/runFolder';
import { readRunSteps, type StepFileReader } from '../model/runReading';
import { SplitSteps } from '../model/splitSteps';
import type { StepFile } from '../model/discovery';
import { maxSplitChars, runViewType, type FlagWords, type RunHostEvent, type RunHostMethods, type RunPageEvent, type RunPageMethods, type RunSnapshot, type RunViewState } from '../protocol';
import { diskFiles } from './diskFiles';

type PageChannel = RpcEndpoint<RunPageMethods, RunHostMethods, RunHostEvent, RunPageEvent>;

/** How the run view reads a step file and which flags it counts (the rollout inspector's). */
export interface StepReading {
  read: StepFileReader;
  flags: FlagWords[];
  /** Opens a step file in the rollout inspector. */
  openStep(path: string): Thenable<unknown>;
}

/** Changes on disk wait this long for the next before the split is listed again. */
const relistDelayMs = 300;
/**
 * How often a visible run view looks at its split folder's names besides the watcher: a file
 * watcher may miss events (a folder on a network drive, a remote host out of watches), and a run
 * that goes on must still show its new steps. One directory read, no file opened.
 */
const lookAgainMs = 3_000;

/**
 * The run views: one panel per model's trajectories folder. A panel reads the split it shows, a few
 * step files at a time (runReading.ts), sends the chart after the first batch and each later batch
 * as it comes, and follows the split folder on disk: a step logged while the view is open is listed
 * and read, a step file rewritten is read again.
 */
export class RunPanels implements vscode.Disposable {
  private readonly panels = new Map<string, RunPanel>();

  constructor(
    private readonly services: Services,
    private readonly reading: StepReading,
  ) {}

  /** Opens (or shows) the run view of a trajectories folder, a split folder or a model folder. */
  async show(path: string): Promise<vscode.WebviewPanel> {
    const folder = await readRunFolder(path, diskFiles);
    if (!folder) throw new Error(`${path} is not a model's trajectories folder: the run view opens <model>/trajectories/ or one of its split folders.`);
    const existing = this.panels.get(folder.trajectories);
    if (existing) {
      existing.panel.reveal();
      return existing.panel;
    }
    const panel = vscode.window.createWebviewPanel(runViewType, runTitle(folder), vscode.ViewColumn.Active, panelOptions(this.services.context.extensionUri));
    this.adopt(panel, folder);
    return panel;
  }

  /** Takes over a panel VS Code kept open across a window reload; one whose folder is gone is closed. */
  async restore(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const path = (state as Partial<RunViewState> | undefined)?.folder;
    const folder = typeof path === 'string' && path.length < 4096 ? await readRunFolder(path, diskFiles) : undefined;
    if (!folder || this.panels.has(folder.trajectories)) {
      panel.dispose();
      return;
    }
    this.adopt(panel, folder);
  }

  /** Open run views, by trajectories folder (tests read them). */
  openFolders(): string[] {
    return [...this.panels.keys()];
  }

  dispose(): void {
    for (const run of [...this.panels.values()]) run.panel.dispose();
  }

  private adopt(panel: vscode.WebviewPanel, folder: RunFolder): void {
    const run = new RunPanel(this.services, panel, folder, this.reading);
    this.panels.set(folder.trajectories, run);
    panel.onDidDispose(() => {
      run.dispose();
      this.panels.delete(folder.trajectories);
    });
  }
}

function runTitle(folder: RunFolder): string {
  return `Run: ${folder.model}`;
}

class RunPanel {
  private readonly channel: PageChannel;
  private readonly splits = new Map<string, SplitSteps>();
  private split: string | undefined;
  /** Aborted when the split shown changes or the panel closes: its reading stops. */
  private reading = new AbortController();
  private readonly queue: StepFile[] = [];
  private pumping = false;
  private readonly debounce = new KeyedDebounce<string>();
  private readonly subscriptions: vscode.Disposable[] = [];
  /** Step files changed on disk since the last listing: read again then. */
  private readonly changedFiles = new Set<string>();

  constructor(
    private readonly services: Services,
    readonly panel: vscode.WebviewPanel,
    private readonly folder: RunFolder,
    private readonly stepReading: StepReading,
  ) {
    panel.title = runTitle(folder);
    this.split = folder.split;
    this.channel = new RpcEndpoint({
      post: (message: WireMessage) => void panel.webview.postMessage(message),
      handlers: this.handlers(),
      onProtocolError: (problem) => services.log.warn(`run view: ${problem}`),
    });
    loadWebviewPage(panel.webview, services.context.extensionUri, 'localRun', panel.title);
    // One watcher per open run, on its step files only.
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(folder.trajectories), '*/*.parquet'));
    const changed = () => this.debounce.schedule('relist', relistDelayMs, () => void this.relist());
    const poll = setInterval(() => {
      if (panel.visible) void this.lookAgain();
    }, lookAgainMs);
    this.subscriptions.push(
      panel.webview.onDidReceiveMessage((message: unknown) => this.channel.receive(message)),
      watcher,
      watcher.onDidCreate(changed),
      watcher.onDidDelete(changed),
      { dispose: () => clearInterval(poll) },
      watcher.onDidChange((uri) => {
        // Bounded: a split lists at most runSteps files, and the set is emptied on each listing.
        if (this.changedFiles.size < discoveryBounds.runSteps) this.changedFiles.add(uri.fsPath);
        changed();
      }),
    );
  }

  dispose(): void {
    this.reading.abort();
    this.debounce.dispose();
    this.channel.dispose();
    for (const subscription of this.subscriptions) subscription.dispose();
  }

  private handlers(): Handlers<RunHostMethods> {
    return {
      ready: (raw) => this.showSplit(params.optionalString(raw, 'split', maxSplitChars) ?? this.split),
      chooseSplit: (raw) => this.showSplit(params.string(raw, 'split', maxSplitChars)),
      openStep: async (raw) => {
        const split = params.string(raw, 'split', maxSplitChars);
        const step = params.object(raw).step;
        if (!isCount(step)) throw new ProtocolError('step must be a whole number');
        const file = this.splits.get(split)?.file(step);
        if (!file) throw new ProtocolError(`step ${step} of ${split} is not listed`);
        await this.stepReading.openStep(file.path);
        return null;
      },
    };
  }

  /** The split's snapshot; its reading starts (the one before stops). */
  private async showSplit(requested: string | undefined): Promise<RunSnapshot> {
    const split = requested !== undefined && this.folder.splits.includes(requested) ? requested : this.folder.split;
    // The same split again (the page reloaded after being hidden) goes on reading where it was.
    const switched = split !== this.split;
    if (switched) {
      this.reading.abort();
      this.reading = new AbortController();
      this.queue.length = 0;
      this.split = split;
    }
    const state = split === undefined ? undefined : await this.stateOf(split, switched);
    return {
      title: `${this.folder.project} / ${this.folder.model}`,
      folder: this.folder.trajectories,
      splits: this.folder.splits.map((name) => ({ name, stepCount: this.splits.get(name)?.list().length ?? 0 })),
      split: split ?? '',
      steps: state?.list() ?? [],
      moreSteps: state?.more ?? false,
      flags: this.stepReading.flags,
    };
  }

  /** The split's steps, listed (and their reading started) on first use. */
  private async stateOf(split: string, switched: boolean): Promise<SplitSteps> {
    let state = this.splits.get(split);
    if (state) {
      // Steps whose reading was stopped when the person looked at another split are read now.
      if (switched)
        this.enqueue(
          state
            .list()
            .filter((row) => row.state === 'pending')
            .map((row) => state!.file(row.step)!)
            .filter(Boolean),
        );
      return state;
    }
    state = new SplitSteps();
    this.splits.set(split, state);
    const listing = await listSteps(diskFiles.join(this.folder.trajectories, split), diskFiles, discoveryBounds.runSteps, true);
    this.enqueue(state.relist(listing));
    return state;
  }

  private enqueue(files: StepFile[]): void {
    if (files.length === 0) return;
    this.queue.push(...files);
    void this.pump();
  }

  /** Reads what is queued, one reading at a time (a reading reads a few files at once). */
  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.queue.length > 0 && !this.reading.signal.aborted) {
        const split = this.split;
        const state = split === undefined ? undefined : this.splits.get(split);
        const files = this.queue.splice(0);
        if (!state || split === undefined) break;
        const signal = this.reading.signal;
        await readRunSteps(files, {
          read: this.stepReading.read,
          signal,
          onBatch: (results) => {
            const rows = state.record(results.map((result) => (result.reason ? { ...result, reason: this.services.log.redact(result.reason) } : result)));
            if (rows.length > 0) this.channel.emit({ type: 'steps', split, rows });
          },
        });
      }
    } catch (error) {
      this.services.log.warn(`run view of ${this.folder.trajectories}: ${errorMessage(error)}`);
    } finally {
      this.pumping = false;
    }
    // A split chosen while the last reading stopped has its own queue waiting.
    if (this.queue.length > 0 && !this.reading.signal.aborted) void this.pump();
  }

  /** Lists the split again when the names of its step files are not the ones known. */
  private async lookAgain(): Promise<void> {
    const split = this.split;
    const state = split === undefined ? undefined : this.splits.get(split);
    if (!state || split === undefined || this.debounce.isPending('relist')) return;
    const listing = await diskFiles.list(diskFiles.join(this.folder.trajectories, split), discoveryBounds.entries);
    // The latest steps by number, as the listing keeps them.
    const names = (listing?.entries ?? [])
      .filter((entry) => entry.kind === 'file')
      .map((entry) => ({ name: entry.name, step: stepOfFileName(entry.name) }))
      .filter((entry): entry is { name: string; step: number } => entry.step !== undefined)
      .sort((a, b) => a.step - b.step)
      .slice(-discoveryBounds.runSteps)
      .map((entry) => entry.name);
    if (!state.sameNames(names)) this.debounce.schedule('relist', 0, () => void this.relist());
  }

  /** Step files appeared, went or changed: the shown split is listed again. */
  private async relist(): Promise<void> {
    const split = this.split;
    const state = split === undefined ? undefined : this.splits.get(split);
    if (!state || split === undefined) return;
    const listing = await listSteps(diskFiles.join(this.folder.trajectories, split), diskFiles, discoveryBounds.runSteps, true);
    const toRead = state.relist(listing);
    for (const path of this.changedFiles) {
      const file = state.changed(path);
      if (file && !toRead.includes(file)) toRead.push(file);
    }
    this.changedFiles.clear();
    this.channel.emit({ type: 'listed', split, steps: state.list(), moreSteps: state.more });
    this.enqueue(toRead);
  }
}
