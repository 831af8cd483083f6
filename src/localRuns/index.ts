import * as vscode from 'vscode';
import type { Services } from '../platform/host/services';
import { copyAndSay } from '../platform/host/clipboard';
import { featureSettingLayers, setUserFeatureSetting } from '../platform/host/settings';
import { maxConfiguredFolders } from './model/configuredFolders';
import { groupFlagMeanings, groupFlags, rolloutThresholds, summarizeGroup } from '../rollouts';
import { trajectoriesFolder } from './model/artLayout';
import type { LocalModel } from './model/discovery';
import { parquetStepReader } from './model/runReading';
import { followOnPlatform } from './host/followOnPlatform';
import { LocalRunLinks } from './host/localRunLinks';
import { LocalRunsTree, type LocalRunsNode } from './host/localRunsTree';
import { RunPanels } from './host/runPanels';

/** What the Local Runs feature hands to activation (the tree's real provider) and to the tests. */
export interface LocalRunsFeature {
  tree: LocalRunsTree;
  runs: RunPanels;
  links: LocalRunLinks;
}

/** The rollout inspector's view type: a step file opens in it (it reads `.parquet` trajectory logs). */
const inspectorViewType = 'rlStudio.rollouts';

/**
 * Entry of dist/localRuns.js, loaded when the Local Runs view first shows its content, a run view is
 * restored or one of its commands first runs: discovery and the tree, the run views, Follow on
 * Platform and their commands.
 */
export function startLocalRuns(services: Services, view: vscode.TreeView<LocalRunsNode>): LocalRunsFeature {
  const links = new LocalRunLinks(services);
  const tree = new LocalRunsTree(services, links);
  tree.attachView(view);
  const thresholds = rolloutThresholds();
  const flags = groupFlags.map((flag) => ({ flag, ...groupFlagMeanings[flag] }));
  const read = parquetStepReader((group, index, rowStart) => summarizeGroup(group, { index, line: rowStart, offset: 0, bytes: 0 }, thresholds).summary, groupFlags);
  const openStep = (path: string) => vscode.commands.executeCommand('vscode.openWith', vscode.Uri.file(path), inspectorViewType);
  const runs = new RunPanels(services, { read, flags, openStep });
  services.context.subscriptions.push(links, tree, runs);

  services.registerCommand('rlStudio.refreshLocalRuns', () => tree.refresh());
  services.registerCommand('rlStudio.addLocalRunsFolder', () => addFolder(services, tree));
  services.registerCommand('rlStudio.openLocalRun', async (given?: unknown) => {
    const folder = folderOf(given) ?? (await pickRun(services, tree));
    if (folder) await runs.show(folder);
  });
  services.registerCommand('rlStudio.openLocalStep', async (node?: LocalRunsNode) => {
    if (node?.kind === 'step') await openStep(node.step.path);
  });
  services.registerCommand('rlStudio.revealLocalRun', async (node?: LocalRunsNode) => {
    const path = pathOf(node);
    if (!path) return;
    const uri = vscode.Uri.file(path);
    // The Explorer shows the workspace's folders only: a folder elsewhere is shown by the system's file manager.
    await vscode.commands.executeCommand(vscode.workspace.getWorkspaceFolder(uri) ? 'revealInExplorer' : 'revealFileInOS', uri);
  });
  services.registerCommand('rlStudio.copyLocalModelPath', async (node?: LocalRunsNode) => {
    const path = pathOf(node);
    if (path) await copyAndSay(path, 'Copied the model folder path');
  });
  services.registerCommand('rlStudio.followLocalModel', async (node?: LocalRunsNode) => {
    const model = node?.kind === 'model' ? node.model : await pickModel(services, tree, 'Follow on Platform');
    return model ? followOnPlatform(services, links, model) : undefined;
  });
  services.registerCommand('rlStudio.openLoggedRollouts', async (node?: unknown) => {
    const model = platformModelOf(node);
    if (!model) return;
    const folder = links.folderOf(model.id) ?? (await findLocalFolder(tree, links, model));
    if (!folder) {
      services.dialogs.info(
        `No local run of ${model.name ? `"${model.name}"` : `model ${model.id}`} was found. The Local Runs view lists the official client's folders; Follow on Platform there links a local model to this one.`,
      );
      return;
    }
    await runs.show(`${folder}/${trajectoriesFolder}`);
  });
  return { tree, runs, links };
}

/** A folder given to Open Run: a tree node, an Explorer folder, or a path. */
function folderOf(given: unknown): string | undefined {
  if (given instanceof vscode.Uri) return given.scheme === 'file' ? given.fsPath : undefined;
  if (typeof given === 'string' && given.length < 4096) return given;
  const node = given as LocalRunsNode | undefined;
  if (node?.kind === 'model') return `${node.model.path}/${trajectoriesFolder}`;
  if (node?.kind === 'split') return node.split.path;
  return undefined;
}

function pathOf(node: LocalRunsNode | undefined): string | undefined {
  switch (node?.kind) {
    case 'model':
    case 'split':
    case 'step':
      return node.kind === 'model' ? node.model.path : node.kind === 'split' ? node.split.path : node.step.path;
    case 'project':
      return node.project.path;
    case 'root':
      return node.root.path;
    default:
      return undefined;
  }
}

async function pickModel(services: Services, tree: LocalRunsTree, title: string): Promise<LocalModel | undefined> {
  const models = await tree.models();
  if (models.length === 0) {
    services.dialogs.info("No local runs found: RL Studio looks for the official client's .art folder at the root of each workspace folder and in the folders of rlStudio.localRuns.folders.");
    return undefined;
  }
  const picked = await services.dialogs.pick(
    models.map((model) => ({ label: model.facts?.name ?? model.folderName, description: model.project, detail: model.path, model })),
    { title, placeHolder: 'A model of the local runs', matchOnDescription: true },
  );
  return picked?.model;
}

async function pickRun(services: Services, tree: LocalRunsTree): Promise<string | undefined> {
  const model = await pickModel(services, tree, 'Open Run');
  return model ? `${model.path}/${trajectoriesFolder}` : undefined;
}

/** A folder the person picks is added to their own settings (it may be anywhere). */
async function addFolder(services: Services, tree: LocalRunsTree): Promise<void> {
  const uri = await services.dialogs.openFile({ title: 'Look for Local Runs in a Folder', canSelectFiles: false, canSelectFolders: true, openLabel: 'Look Here' });
  if (!uri || uri.scheme !== 'file') return;
  const current = featureSettingLayers('localRuns.folders')?.globalValue;
  const folders = Array.isArray(current) ? current.filter((value): value is string => typeof value === 'string') : [];
  if (!folders.includes(uri.fsPath)) await setUserFeatureSetting('localRuns.folders', [...folders, uri.fsPath].slice(-maxConfiguredFolders));
  tree.refresh();
}

/** A Models view node of a training model: its id and name. */
function platformModelOf(node: unknown): { id: string; name?: string; project?: string } | undefined {
  const model = (node as { kind?: unknown; model?: { id?: unknown; name?: unknown; project?: unknown } } | undefined)?.model;
  if (typeof model?.id !== 'string') return undefined;
  return { id: model.id, name: typeof model.name === 'string' ? model.name : undefined, project: typeof model.project === 'string' ? model.project : undefined };
}

/** A local model that names this platform model: by id in its model.json, else by project and name. */
async function findLocalFolder(tree: LocalRunsTree, links: LocalRunLinks, model: { id: string; name?: string; project?: string }): Promise<string | undefined> {
  const models = await tree.models();
  const found =
    models.find((local) => local.facts?.id === model.id) ??
    models.find((local) => model.name !== undefined && (local.facts?.name ?? local.folderName) === model.name && (local.facts?.project ?? local.project) === model.project);
  if (found) await links.link(model.id, found.path);
  return found?.path;
}
