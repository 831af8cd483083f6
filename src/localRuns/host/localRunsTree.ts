import { homedir } from 'node:os';
import { basename, dirname } from 'node:path';
import * as vscode from 'vscode';
import { quoted } from '../../platform/kit/confirmationText';
import { plural } from '../../platform/kit/format';
import { affectsFeatureSettings, featureSettingLayers } from '../../platform/host/settings';
import type { Services } from '../../platform/host/services';
import { discoveryBounds } from '../model/artLayout';
import { configuredFolders, isInside } from '../model/configuredFolders';
import { formatBytes, modelDescription, modelTooltip, splitDescription, splitTooltip } from '../model/nodeText';
import { discoverRoots, listSteps, platformName, rootCandidates, type ArtRoot, type ArtRootCandidate, type LocalModel, type LocalProject, type LocalSplit, type StepFile } from '../model/discovery';
import { diskFiles } from './diskFiles';
import type { LocalRunLinks } from './localRunLinks';

export type LocalRunsNode =
  | { kind: 'root'; root: ArtRoot }
  | { kind: 'project'; project: LocalProject }
  | { kind: 'model'; model: LocalModel }
  | { kind: 'split'; model: LocalModel; split: LocalSplit }
  | { kind: 'step'; model: LocalModel; split: LocalSplit; step: StepFile }
  /** A note; one with `run` opens that folder's run view when clicked. */
  | { kind: 'note'; text: string; run?: string };

/** Changes under the watched folders wait this long for the next before discovery runs again. */
const refreshDelayMs = 1_000;
/**
 * How often discovery runs again while the view is visible, besides the watchers: a file watcher
 * may miss events (a network drive, a remote host out of watches, a sandbox without them), and a
 * run that goes on must still show its new steps. Discovery reads folder listings only; the tree
 * is redrawn only when what it found changed.
 */
const lookAgainMs = 5_000;
/** After a look that took t, the next waits at least this many times t. */
const lookAgainCostFactor = 20;

/**
 * The Local Runs view: the official client's project folders in the workspace (and those the
 * settings name), their projects, models, splits and logged steps. Discovery runs when the view
 * first shows, on Refresh, when the setting changes and (debounced) when a model.json or a step
 * file appears, changes or goes under a watched folder. A split's steps are listed when it is
 * expanded.
 */
export class LocalRunsTree implements vscode.TreeDataProvider<LocalRunsNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<LocalRunsNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private roots: ArtRoot[] | undefined;
  private discovering: Promise<ArtRoot[]> | undefined;
  private watchers: vscode.Disposable[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly subscriptions: vscode.Disposable[];
  /** The folders the settings named that are not looked in, and why (logged once per change). */
  private warned = '';

  constructor(
    private readonly services: Services,
    private readonly links: LocalRunLinks,
  ) {
    this.subscriptions = [
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (affectsFeatureSettings(event, 'localRuns')) this.refresh();
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.refresh()),
      links.onDidChange(() => this.changed.fire(undefined)),
    ];
  }

  /** Looks again every few seconds while `view` is visible. */
  attachView(view: vscode.TreeView<LocalRunsNode>): void {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let visible = view.visible;
    // The next look is armed once the last one is done, and waits longer after a slow one: a large
    // tree of folders is not read again and again back to back.
    const arm = (waitMs: number) => {
      clearTimeout(timer);
      timer = visible
        ? setTimeout(
            () =>
              void this.lookAgain()
                .catch(() => lookAgainMs)
                .then((tookMs) => arm(Math.max(lookAgainMs, tookMs * lookAgainCostFactor))),
            waitMs,
          )
        : undefined;
    };
    arm(lookAgainMs);
    this.subscriptions.push(
      view.onDidChangeVisibility((event) => {
        visible = event.visible;
        arm(lookAgainMs);
      }),
      { dispose: () => ((visible = false), clearTimeout(timer)) },
    );
  }

  /**
   * Discovery again; the tree is redrawn only when what it finds differs from what it shows.
   * Resolves with the time the look took.
   */
  private async lookAgain(): Promise<number> {
    const started = performance.now();
    if (!this.roots) return 0;
    const shown = this.roots;
    const found = await this.runDiscovery(false);
    if (this.roots === shown && JSON.stringify(found) !== JSON.stringify(shown)) {
      this.roots = found;
      this.changed.fire(undefined);
    }
    return performance.now() - started;
  }

  /** Runs discovery again now. */
  refresh(): void {
    this.roots = undefined;
    this.discovering = undefined;
    this.changed.fire(undefined);
  }

  /** Every model found (discovery runs first if it has not). */
  async models(): Promise<LocalModel[]> {
    return (await this.discover()).flatMap((root) => root.projects.flatMap((project) => project.models));
  }

  async getChildren(node?: LocalRunsNode): Promise<LocalRunsNode[]> {
    if (!node) {
      const roots = await this.discover();
      const found = roots.filter((root) => root.projects.length > 0);
      if (found.length === 1) return this.projectsOf(found[0]!);
      return found.map((root) => ({ kind: 'root', root }));
    }
    switch (node.kind) {
      case 'root':
        return this.projectsOf(node.root);
      case 'project': {
        const models: LocalRunsNode[] = node.project.models.map((model) => ({ kind: 'model', model }));
        if (node.project.moreModels) models.push({ kind: 'note', text: `Only the first ${discoveryBounds.models} models are listed` });
        return models;
      }
      case 'model': {
        const splits: LocalRunsNode[] = node.model.splits.map((split) => ({ kind: 'split', model: node.model, split }));
        if (node.model.note) splits.unshift({ kind: 'note', text: node.model.note });
        if (node.model.moreSplits) splits.push({ kind: 'note', text: `Only the first ${discoveryBounds.splits} splits are listed` });
        return splits;
      }
      case 'split': {
        const { steps, more } = await listSteps(node.split.path, diskFiles, discoveryBounds.treeSteps, true);
        // The latest steps first: the one a person looks for while a run goes on.
        const nodes: LocalRunsNode[] = steps.reverse().map((step) => ({ kind: 'step', model: node.model, split: node.split, step }));
        if (more)
          nodes.push({
            kind: 'note',
            text: `Only the latest ${discoveryBounds.treeSteps} steps are listed here: Open Run lists up to ${discoveryBounds.runSteps.toLocaleString('en-US')}`,
            run: node.split.path,
          });
        return nodes;
      }
      default:
        return [];
    }
  }

  getTreeItem(node: LocalRunsNode): vscode.TreeItem {
    switch (node.kind) {
      case 'root': {
        const item = new vscode.TreeItem(node.root.path, vscode.TreeItemCollapsibleState.Expanded);
        item.iconPath = new vscode.ThemeIcon('folder-library');
        item.description = node.root.origin === 'setting' ? 'from rlStudio.localRuns.folders' : 'workspace';
        item.tooltip = `Local runs in ${quoted(node.root.path)}${node.root.moreProjects ? `\nOnly the first ${discoveryBounds.projects} projects are listed.` : ''}`;
        item.contextValue = 'localRoot';
        item.resourceUri = vscode.Uri.file(node.root.path);
        return item;
      }
      case 'project': {
        const item = new vscode.TreeItem(node.project.name, vscode.TreeItemCollapsibleState.Expanded);
        item.iconPath = new vscode.ThemeIcon('project');
        item.description = plural(node.project.models.length, 'model');
        item.tooltip = `Project ${quoted(node.project.name)}\nFolder: ${quoted(node.project.path)}`;
        item.contextValue = 'localProject';
        item.id = `project:${node.project.path}`;
        return item;
      }
      case 'model':
        return this.modelItem(node.model);
      case 'split': {
        const item = new vscode.TreeItem(node.split.name, vscode.TreeItemCollapsibleState.Collapsed);
        item.iconPath = new vscode.ThemeIcon('graph-line');
        item.description = splitDescription(node.split);
        item.tooltip = splitTooltip(node.model, node.split);
        item.contextValue = 'localSplit';
        item.id = `split:${node.split.path}`;
        return item;
      }
      case 'step': {
        const item = new vscode.TreeItem(`Step ${node.step.step}`, vscode.TreeItemCollapsibleState.None);
        item.iconPath = new vscode.ThemeIcon('output');
        item.description = formatBytes(node.step.bytes);
        item.tooltip = `Step ${node.step.step} of ${quoted(node.split.name)}, ${quoted(node.model.folderName)}\nFile: ${quoted(node.step.path)}\nOpens in the rollout inspector.`;
        item.contextValue = 'localStep';
        item.id = `step:${node.step.path}`;
        item.command = { command: 'rlStudio.openLocalStep', title: 'Open Step in Rollout Inspector', arguments: [node] };
        return item;
      }
      case 'note': {
        const item = new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
        item.iconPath = new vscode.ThemeIcon('info');
        item.tooltip = node.text;
        item.contextValue = 'localNote';
        if (node.run) item.command = { command: 'rlStudio.openLocalRun', title: 'Open Run', arguments: [node.run] };
        return item;
      }
    }
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const watcher of this.watchers) watcher.dispose();
    for (const subscription of this.subscriptions) subscription.dispose();
    this.changed.dispose();
  }

  private modelItem(model: LocalModel): vscode.TreeItem {
    const item = new vscode.TreeItem(platformName(model), vscode.TreeItemCollapsibleState.Collapsed);
    const followed = this.links.followedId(model.path);
    item.description = modelDescription(model, followed);
    item.tooltip = modelTooltip(model, followed);
    item.iconPath = new vscode.ThemeIcon(model.note ? 'warning' : followed ? 'cloud' : 'beaker');
    item.contextValue = ['localModel', model.splits.length > 0 ? 'hasRun' : '', followed ? 'followed' : 'followable'].filter(Boolean).join(' ');
    item.id = `model:${model.path}`;
    return item;
  }

  private projectsOf(root: ArtRoot): LocalRunsNode[] {
    const nodes: LocalRunsNode[] = root.projects.map((project) => ({ kind: 'project', project }));
    if (root.moreProjects) nodes.push({ kind: 'note', text: `Only the first ${discoveryBounds.projects} projects are listed` });
    return nodes;
  }

  private discover(): Promise<ArtRoot[]> {
    if (this.roots) return Promise.resolve(this.roots);
    const discovering = (this.discovering ??= this.runDiscovery());
    return discovering.then((roots) => {
      if (this.discovering === discovering) this.roots = roots;
      return roots;
    });
  }

  private async runDiscovery(watch = true): Promise<ArtRoot[]> {
    const started = performance.now();
    const workspaceFolders = (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file').map((folder) => folder.uri.fsPath);
    const configured = await this.configured(workspaceFolders);
    const candidates = rootCandidates(workspaceFolders, configured, diskFiles);
    const roots = await discoverRoots(candidates, diskFiles);
    if (watch) await this.watch(candidates);
    const models = roots.reduce((sum, root) => sum + root.projects.reduce((count, project) => count + project.models.length, 0), 0);
    if (watch) this.services.log.debug(`local runs: ${models} models in ${roots.length} of ${candidates.length} folders, found in ${Math.round(performance.now() - started)} ms`);
    return roots;
  }

  /** The setting's folders RL Studio may look in; the rest are named in the log, once per change. */
  private async configured(workspaceFolders: string[]): Promise<string[]> {
    const layers = featureSettingLayers('localRuns.folders') ?? {};
    // In Restricted Mode a workspace's values do not count.
    const trusted = vscode.workspace.isTrusted !== false;
    const { folders, ignored } = configuredFolders(trusted ? layers : { globalValue: layers.globalValue }, workspaceFolders, homedir());
    const realWorkspace = await Promise.all(workspaceFolders.map((folder) => diskFiles.realPath(folder)));
    const kept: string[] = [];
    for (const folder of folders) {
      if (folder.from === 'workspace') {
        // A link inside the workspace may point out of it: the folder it resolves to must be inside too.
        const real = await diskFiles.realPath(folder.path);
        if (real && !realWorkspace.some((root) => root !== undefined && isInside(real, root))) {
          ignored.push({ value: folder.path, reason: 'it leads out of the workspace through a symbolic link' });
          continue;
        }
      }
      kept.push(folder.path);
    }
    const warning = ignored.map((entry) => `${quoted(entry.value)} (${entry.reason})`).join('; ');
    if (warning && warning !== this.warned) this.services.log.warn(this.services.log.redact(`rlStudio.localRuns.folders: not looked in: ${warning}`));
    this.warned = warning;
    return kept;
  }

  /**
   * One watcher per folder looked in (at most discoveryBounds.roots), on model.json and step files
   * only. A workspace's `.art` that does not exist yet is watched for from its workspace folder (which
   * VS Code watches anyway), so the view fills when the first run logs; a configured folder that does
   * not exist is not watched (its parent may be a whole home folder).
   */
  private async watch(candidates: ArtRootCandidate[]): Promise<void> {
    for (const watcher of this.watchers) watcher.dispose();
    this.watchers = [];
    for (const candidate of candidates.slice(0, discoveryBounds.roots)) {
      const exists = (await diskFiles.realPath(candidate.path)) !== undefined;
      if (!exists && candidate.origin !== 'workspace') continue;
      const pattern = exists
        ? new vscode.RelativePattern(vscode.Uri.file(candidate.path), '**/{model.json,*.parquet}')
        : new vscode.RelativePattern(vscode.Uri.file(dirname(candidate.path)), `${basename(candidate.path)}/**/{model.json,*.parquet}`);
      const watcher = vscode.workspace.createFileSystemWatcher(pattern);
      const changed = () => this.scheduleRefresh();
      this.watchers.push(watcher, watcher.onDidCreate(changed), watcher.onDidChange(changed), watcher.onDidDelete(changed));
    }
  }

  private scheduleRefresh(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.refresh(), refreshDelayMs);
  }
}
