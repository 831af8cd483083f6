import * as path from 'node:path';
import * as vscode from 'vscode';
import { InspectedFile } from '../model/inspectedFile';
import { formatForFileName } from '../../platform/kit/trajectoryFile';
import type { Services } from '../../platform/host/services';
import { affectsRolloutThresholds, rolloutThresholds } from './rolloutSettings';
import { sourceFor } from './workspaceSource';

/** Changes on disk closer together than this are read once (a script appending group after group). */
const changeSettleMs = 200;

/**
 * A rollout file open in the inspector (one per file, shared by every editor showing it): the file
 * as read, followed on disk as it grows or is rewritten, until the last editor of it closes.
 */
export class RolloutDocument implements vscode.CustomDocument {
  readonly file: InspectedFile;
  private readonly watcher: vscode.FileSystemWatcher;
  private readonly subscriptions: vscode.Disposable[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    readonly uri: vscode.Uri,
    private readonly services: Services,
  ) {
    const fileName = path.posix.basename(uri.path);
    this.file = new InspectedFile({ fileName, format: formatForFileName(fileName), source: sourceFor(uri), thresholds: rolloutThresholds() });
    const folder = vscode.Uri.joinPath(uri, '..');
    this.watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, fileName));
    const onChange = (): void => this.scheduleRead();
    this.subscriptions.push(
      this.watcher,
      this.watcher.onDidChange(onChange),
      this.watcher.onDidCreate(onChange),
      this.watcher.onDidDelete(onChange),
      // New thresholds change the flags of every group: the file is read again with them.
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (affectsRolloutThresholds(event)) void this.file.reread(rolloutThresholds());
      }),
    );
    void this.file.open().then(() => services.log.info(`rollout inspector read ${uri.fsPath || uri.toString()}: ${this.describe()}`));
  }

  /** How much was read, for the log. */
  describe(): string {
    const state = this.file.state();
    const { groups, trajectories } = state.statistics;
    return `${groups} groups, ${trajectories} trajectories, ${state.problems.length + state.problemsNotListed} problems${state.error ? ` (${state.error})` : ''}`;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const subscription of this.subscriptions) subscription.dispose();
    this.file.dispose();
  }

  private scheduleRead(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.services.log.debug(`rollout file changed on disk: ${this.uri.toString()}`);
      void this.file.changed();
    }, changeSettleMs);
  }
}
