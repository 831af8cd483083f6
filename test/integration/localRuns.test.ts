import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { LocalRunsFeature } from '../../src/localRuns';
import type { LocalRunsNode } from '../../src/localRuns/host/localRunsTree';
import type { RememberedModel } from '../../src/platform/host/rememberedItems';
import { writeArtParquet } from '../support/artParquet';
import { seededIds } from './helpers/models';
import { connectToEmulator, type ConnectedPlatform } from './helpers/platform';
import { waitUntil } from './helpers/waitUntil';

const secret = 'sk-local-backend-key-0123456789';

/** One step's groups: two groups of three trajectories. */
function stepGroups(step: number): unknown[] {
  return [0, 1].map((group) => ({
    trajectories: [0, 1, 2].map((position) => ({
      messages_and_choices: [
        { role: 'user', content: `Game ${step}-${group}` },
        { finish_reason: 'stop', index: 0, message: { role: 'assistant', content: `Square ${position}, to block the row.` } },
      ],
      reward: (step + position) / 10,
    })),
  }));
}

describe('Local Runs: the official client’s folders, the run view and Follow on Platform', function () {
  this.timeout(90_000);
  let platform: ConnectedPlatform;
  let feature: LocalRunsFeature;
  let art: string;

  const modelFolder = (name: string) => join(art, 'emulator-project', 'models', name);
  async function logModel(name: string, fields: Record<string, unknown>, steps: number): Promise<void> {
    mkdirSync(join(modelFolder(name), 'trajectories', 'train'), { recursive: true });
    writeFileSync(
      join(modelFolder(name), 'model.json'),
      JSON.stringify({ name, project: 'emulator-project', entity: null, id: null, trainable: true, run_name: name, inference_api_key: secret, inference_base_url: 'http://127.0.0.1:1/v1', ...fields }),
    );
    for (let step = 0; step < steps; step++) await writeArtParquet(join(modelFolder(name), 'trajectories', 'train', `${String(step).padStart(4, '0')}.parquet`), stepGroups(step));
  }
  async function children(parent?: LocalRunsNode): Promise<LocalRunsNode[]> {
    return (await feature.tree.getChildren(parent)) ?? [];
  }
  async function modelNode(name: string): Promise<Extract<LocalRunsNode, { kind: 'model' }>> {
    const projects = await children();
    const project = projects.find((node) => node.kind === 'project' && node.project.name === 'emulator-project');
    const found = project && (await children(project)).find((node) => node.kind === 'model' && node.model.folderName === name);
    assert.ok(found?.kind === 'model', `${name} is listed`);
    return found;
  }

  before(async () => {
    platform = await connectToEmulator({ secondsPerStep: 0.05 });
    feature = (platform.api as unknown as { localRuns: LocalRunsFeature }).localRuns;
    const workspace = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(workspace, 'the tests run with a workspace folder');
    art = join(workspace, '.art');
    await logModel('agent-001', { base_model: seededIds(platform).baseModels[0] }, 3);
    feature.tree.refresh();
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(art, { recursive: true, force: true });
    await platform?.disconnect();
  });

  it('lists the model of the workspace’s .art with its steps, and nothing of model.json but its facts', async () => {
    const node = await modelNode('agent-001');
    const item = feature.tree.getTreeItem(node);
    assert.match(String(item.description), /^train 3 · latest 2 · /);
    assert.match(item.contextValue ?? '', /\bhasRun\b.*\bfollowable\b/);
    assert.ok(!JSON.stringify([item.label, item.description, item.tooltip]).includes(secret));
    assert.ok(!platform.api.recentLogLines().join('\n').includes(secret));
  });

  it('refreshes by itself when the client logs a step, while it is visible', async () => {
    await vscode.commands.executeCommand('rlStudio.localRuns.focus');
    await writeArtParquet(join(modelFolder('agent-001'), 'trajectories', 'train', '0003.parquet'), stepGroups(3));
    await waitUntil(
      'the fourth step listed',
      async () => String(feature.tree.getTreeItem(await modelNode('agent-001')).description),
      (description) => description.startsWith('train 4 · latest 3'),
    );
  });

  it('opens the trajectories folder as a run, from the Explorer’s folder', async () => {
    const trajectories = join(modelFolder('agent-001'), 'trajectories');
    await vscode.commands.executeCommand('rlStudio.openLocalRun', vscode.Uri.file(trajectories));
    await waitUntil(
      'the run view open',
      () => feature.runs.openFolders(),
      (folders) => folders.includes(trajectories),
    );
    await waitUntil(
      'the run view’s tab',
      () => vscode.window.tabGroups.activeTabGroup.activeTab?.label,
      (label) => label === 'Run: agent-001',
    );
  });

  it('follows the model on the platform by its name, after a confirmation naming what happens, and links it', async () => {
    const ids = seededIds(platform);
    const node = await modelNode('agent-001');
    const asked = platform.api.dialogs.asked.length;
    // model.json names no entity and rlStudio.project no team: the entity is asked.
    platform.api.dialogs.answerNext(ids.trainedModelEntity, 'Follow Model');
    const model = await vscode.commands.executeCommand<RememberedModel | undefined>('rlStudio.followLocalModel', node);
    assert.ok(model, 'the model was followed');
    assert.deepEqual([model.entity, model.project, model.name], [ids.trainedModelEntity, 'emulator-project', 'agent-001']);
    const confirmation = platform.api.dialogs.asked.slice(asked).find((question) => question.kind === 'confirm');
    assert.match(confirmation?.message ?? '', /Follow the local model "agent-001" on the platform/);
    assert.match(
      confirmation?.detail ?? '',
      new RegExp(`If no model "agent-001" exists in "${ids.trainedModelEntity}/emulator-project", one is created with base model "${ids.baseModels[0]!.replace(/[./]/g, '\\$&')}"`),
    );
    assert.match(confirmation?.detail ?? '', /Training API: /);
    assert.ok(platform.api.storedState && JSON.stringify(platform.api.storedState()).includes(model.id));
    assert.equal(feature.links.folderOf(model.id), modelFolder('agent-001'));
    await waitUntil(
      'the local model marked as followed',
      async () => String(feature.tree.getTreeItem(await modelNode('agent-001')).description),
      (description) => description.endsWith('followed'),
    );
    // Followed again: the same model, returned by name.
    platform.api.dialogs.answerNext(ids.trainedModelEntity, 'Follow Model');
    const again = await vscode.commands.executeCommand<RememberedModel | undefined>('rlStudio.followLocalModel', await modelNode('agent-001'));
    assert.equal(again?.id, model.id);
  });

  it('opens the logged rollouts of a followed model from the Models view', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await waitUntil(
      'the run view closed',
      () => feature.runs.openFolders().length,
      (count) => count === 0,
    );
    const followed = feature.links.followedId(modelFolder('agent-001'));
    assert.ok(followed);
    await vscode.commands.executeCommand('rlStudio.openLoggedRollouts', { kind: 'trainingModel', model: { id: followed, name: 'agent-001' } });
    await waitUntil(
      'the run view open again',
      () => feature.runs.openFolders(),
      (folders) => folders.includes(join(modelFolder('agent-001'), 'trajectories')),
    );
  });

  it('adds a model whose model.json names its platform id by that id, creating nothing', async () => {
    const modelId = await platform.emulator.createModelWithCheckpoints('registered', 2);
    await logModel('registered', { id: modelId, entity: 'emulator-entity', base_model: 'unused/base' }, 1);
    feature.tree.refresh();
    platform.api.dialogs.answerNext('Add by Its Id');
    const model = await vscode.commands.executeCommand<RememberedModel | undefined>('rlStudio.followLocalModel', await modelNode('registered'));
    assert.equal(model?.id, modelId);
    assert.equal(feature.links.folderOf(modelId), modelFolder('registered'));
  });
});
