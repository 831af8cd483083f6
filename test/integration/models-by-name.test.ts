import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { WebviewReport } from '../../src/chat/protocol';
import type { ModelsNode } from '../../src/training/host/models/modelNodes';
import type { RememberedModel } from '../../src/platform/host/rememberedItems';
import type { RegisteredViews } from '../../src/training/activation';
import { checkpointNode as checkpointNodeOf, seededIds, trainingModelNode as trainingModelNodeOf } from './helpers/models';
import { connectToEmulator, type ConnectedPlatform } from './helpers/platform';
import { waitUntil } from './helpers/waitUntil';

describe('Models: adding by id or by name', function () {
  this.timeout(90_000);
  let platform: ConnectedPlatform;
  let views: RegisteredViews;
  let previousProject: string | undefined;
  const config = () => vscode.workspace.getConfiguration('rlStudio');

  before(async () => {
    platform = await connectToEmulator({ secondsPerStep: 0.05 });
    views = platform.api.views as unknown as RegisteredViews;
    previousProject = config().inspect<string>('project')?.globalValue;
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await config().update('project', previousProject, vscode.ConfigurationTarget.Global);
    await platform?.disconnect();
  });

  async function useProject(project: string): Promise<void> {
    await config().update('project', project, vscode.ConfigurationTarget.Global);
    await waitUntil(
      'rlStudio.project in use',
      () => platform.api.settingsInUse().settings.project,
      (value) => value === project,
    );
  }

  async function children(parent?: ModelsNode): Promise<ModelsNode[]> {
    return (await views.models.getChildren(parent)) ?? [];
  }

  const trainingModelNode = (modelId: string) => trainingModelNodeOf(views.models, modelId);
  const checkpointNode = (modelId: string, step: number) => checkpointNodeOf(views.models, modelId, step);

  const lastQuestion = (kind: string) => [...platform.api.dialogs.asked].reverse().find((question) => question.kind === kind);

  it('a name alone joins rlStudio.project, and the model is added with the id typed next', async () => {
    const ids = seededIds(platform);
    await useProject(`${ids.trainedModelEntity}/${ids.trainedModelProject}`);
    const askedBefore = platform.api.dialogs.asked.length;
    platform.api.dialogs.answerNext(ids.trainedModelName, 'enterId', ids.trainedModelId);
    const model = await vscode.commands.executeCommand<RememberedModel | undefined>('rlStudio.addModel');
    assert.deepEqual(model && { id: model.id, entity: model.entity, project: model.project, name: model.name }, {
      id: ids.trainedModelId,
      entity: ids.trainedModelEntity,
      project: ids.trainedModelProject,
      name: ids.trainedModelName,
    });
    const first = platform.api.dialogs.asked.slice(askedBefore).find((question) => question.kind === 'input' && question.message === 'Add Model by ID or Name');
    assert.match(first?.detail ?? '', /wandb-artifact:\/\/\/entity\/project\/name/);
    assert.match(first?.detail ?? '', new RegExp(`name alone, in ${ids.trainedModelEntity}/${ids.trainedModelProject} \\(rlStudio\\.project\\)`));
    assert.match(first?.detail ?? '', /finds models only by id/);
    assert.deepEqual(lastQuestion('pick')?.choices?.length, 3, 'id, find by name, or chat only');
    const item = views.models.getTreeItem(await trainingModelNode(ids.trainedModelId));
    assert.match(item.contextValue ?? '', /\bchattable\b/);
  });

  it('a checkpoint model id is found by name through the training API, with no id typed', async () => {
    const ids = seededIds(platform);
    const modelId = await platform.emulator.createModelWithCheckpoints('found-by-name', 3);
    platform.api.dialogs.answerNext('wandb-artifact:///emulator-entity/emulator-project/found-by-name:step2', 'findByName', ids.baseModels[0], 'Create Model');
    const model = await vscode.commands.executeCommand<RememberedModel | undefined>('rlStudio.addModel');
    assert.equal(model?.id, modelId, 'the existing model, returned by name');
    assert.equal(model?.name, 'found-by-name');
    assert.match(platform.api.dialogs.shown.at(-1) ?? '', /^Added emulator-entity\/emulator-project\/found-by-name \(id /);
  });

  it('a checkpoint of a model added by id alone says why it cannot chat, names the model, then opens the chat', async () => {
    const modelId = await platform.emulator.createModelWithCheckpoints('named-later', 3);
    platform.api.dialogs.answerNext(modelId, '');
    const added = await vscode.commands.executeCommand<RememberedModel | undefined>('rlStudio.addModel');
    assert.equal(added?.name, '', 'added without a name');
    const node = await checkpointNode(modelId, 2);
    assert.doesNotMatch(views.models.getTreeItem(node).contextValue ?? '', /\bchattable\b/);

    platform.api.dialogs.answerNext('Name Model…', 'emulator-entity/emulator-project/named-later');
    await vscode.commands.executeCommand('rlStudio.chatWithModel', node);
    const why = lastQuestion('choose');
    assert.match(why?.message ?? '', /^Step 2 of model .* cannot be opened in chat yet: RL Studio does not know the model's entity\/project\/name/);
    assert.match(why?.detail ?? '', /wandb-artifact:\/\/\/entity\/project\/name:step2/);
    const expected = 'wandb-artifact:///emulator-entity/emulator-project/named-later:step2';
    const report = await waitUntil(
      'the chat panel on the named checkpoint',
      async () => vscode.commands.executeCommand<WebviewReport | undefined>('rlStudio.chatReport'),
      (value) => value?.selectedModels[0] === expected,
      { timeoutMs: 30_000 },
    );
    assert.equal(report?.selectedModels[0], expected);
    await waitUntil(
      'the named checkpoint to be chattable',
      async () => views.models.getTreeItem(await checkpointNode(modelId, 2)).contextValue ?? '',
      (value) => /\bchattable\b/.test(value),
    );
  });

  it('a reference with a dot segment is refused in words, and nothing is added', async () => {
    const listed = async () => {
      const training = (await children()).find((node) => node.kind === 'group' && node.group === 'training');
      return training ? (await children(training)).filter((node) => node.kind === 'trainingModel').length : 0;
    };
    const refusals = () => platform.api.recentLogLines().filter((line) => line.includes('"." and ".." cannot be part of a model id or name')).length;
    const before = await listed();
    const refusedBefore = refusals();
    platform.api.dialogs.answerNext('emulator-entity/../found-by-name');
    const model = await vscode.commands.executeCommand('rlStudio.addModel');
    assert.equal(model, undefined);
    assert.ok(refusals() > refusedBefore, 'the refusal is said');
    assert.equal(await listed(), before, 'nothing was added');
  });
});
