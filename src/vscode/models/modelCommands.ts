import * as vscode from 'vscode';
import { parseCoordinates } from '../../core/checkpointIds';
import type { Services } from '../services';
import type { RememberedModel } from '../state/remembered';
import { onlyFromTests } from '../testHooks';
import { checkedId, idProblem } from '../trust/ids';
import { readyForTraining, withNotification } from '../views/guards';
import type { Prompts } from '../views/prompts';
import { createModel } from './createModel';
import { chatModelId, modelLabel, type CheckpointNode, type LoadMoreNode, type ModelsNode, type TrainingModelNode } from './modelNodes';
import type { ModelsTreeProvider } from './modelsTree';

/** Commands of the Models view: each takes the node it was invoked on, or asks. */
export function registerModelCommands(services: Services, tree: ModelsTreeProvider, view: vscode.TreeView<ModelsNode>, prompts: Prompts): void {
  const reveal = (modelId: string) => {
    // The node exists once the root was read again after the list changed.
    setTimeout(() => {
      const node = tree.trainingNode(modelId);
      if (node && view.visible) void Promise.resolve(view.reveal(node, { select: true, focus: false })).catch(() => undefined);
    }, 200);
  };

  services.registerCommand('rlStudio.createModel', async (given?: unknown) => {
    // A filled-in form skips the questions, so only the tests may pass one.
    const form = onlyFromTests(services, given);
    const model = await createModel(services, prompts, isObject(form) ? form : {});
    if (model) {
      reveal(model.id);
      prompts.info(`Created model ${model.name} (${model.entity}/${model.project}).`);
    }
    return model;
  });

  services.registerCommand('rlStudio.addModel', async (id?: unknown, coordinates?: unknown) => {
    return addModelById(services, prompts, typeof id === 'string' ? id : undefined, typeof coordinates === 'string' ? coordinates : undefined).then((model) => {
      if (model) reveal(model.id);
      return model;
    });
  });

  services.registerCommand('rlStudio.removeModel', async (node?: ModelsNode, selection?: ModelsNode[]) => {
    for (const model of trainingModelsOf(node, selection)) await services.remembered.models.remove(model.id);
  });

  services.registerCommand('rlStudio.deleteModel', async (node?: ModelsNode) => {
    const model = node?.kind === 'trainingModel' ? node.model : await pickTrainingModel(services, prompts, 'Delete Model');
    if (!model) return undefined;
    const label = modelLabel(model);
    const confirmed = await prompts.confirm(
      `Delete the model "${label}" and all its checkpoints?`,
      `Model ${model.id}${model.entity ? ` (${model.entity}/${model.project}/${model.name})` : ''} will be deleted on ${services.settings.current.trainingApiUrl}, with every checkpoint and its run. This cannot be undone.`,
      'Delete Model',
    );
    if (!confirmed) return undefined;
    const client = await services.client();
    const result = await withNotification(`deleting model ${label}…`, () => client.training.deleteModel(model.id));
    await services.remembered.models.remove(model.id);
    tree.checkpoints.forget(model.id);
    prompts.info(`Deleted model ${label}: ${result.deleted_checkpoints} checkpoint${result.deleted_checkpoints === 1 ? '' : 's'}${result.deleted_run ? ' and its run' : ''}.`);
    return result;
  });

  services.registerCommand('rlStudio.setModelName', async (node?: ModelsNode) => {
    if (node?.kind !== 'trainingModel') return;
    const coordinates = await askCoordinates(prompts, true);
    if (!coordinates) return;
    await services.remembered.models.add({ ...node.model, ...coordinates });
  });

  services.registerCommand('rlStudio.copyModelId', async (node?: ModelsNode) => {
    const id = node?.kind === 'inferenceModel' || node?.kind === 'trainingModel' ? node.model.id : undefined;
    if (!id) return;
    await vscode.env.clipboard.writeText(id);
    vscode.window.setStatusBarMessage(`Copied ${id}`, 3000);
  });

  services.registerCommand('rlStudio.copyCheckpointModelId', async (node?: ModelsNode) => {
    if (node?.kind !== 'checkpoint' && node?.kind !== 'trainingModel') return;
    const id = chatModelId(node);
    if (!id) {
      prompts.warn('This model was added by id without its entity/project/name, so its checkpoints have no model id yet.', { title: 'Set Name…', run: () => vscode.commands.executeCommand('rlStudio.setModelName', node.kind === 'trainingModel' ? node : tree.trainingNode(node.model.id)) });
      return;
    }
    await vscode.env.clipboard.writeText(id);
    vscode.window.setStatusBarMessage(`Copied ${id}`, 3000);
  });

  services.registerCommand('rlStudio.chatWithModel', async (node?: ModelsNode) => {
    const modelId = node ? chatModelId(node) : undefined;
    if (node && !modelId) {
      prompts.warn('Set this model\'s entity/project/name to chat with it.', { title: 'Set Name…', run: () => vscode.commands.executeCommand('rlStudio.setModelName', node.kind === 'checkpoint' ? tree.trainingNode(node.model.id) : node) });
      return;
    }
    const available = (await vscode.commands.getCommands(true)).includes('rlStudio.openChat');
    if (!available) throw new Error('Chat is not available: the chat panel of RL Studio is not installed in this build.');
    await vscode.commands.executeCommand('rlStudio.openChat', modelId ? { modelId } : undefined);
  });

  services.registerCommand('rlStudio.loadMoreCheckpoints', async (node?: LoadMoreNode) => {
    if (node?.kind !== 'loadMore') return;
    const pager = tree.checkpoints.of(node.model.id);
    await Promise.resolve(vscode.window.withProgress({ location: { viewId: 'rlStudio.models' } }, () => pager.loadMore()));
    tree.redrawModel(node.model.id);
  });

  services.registerCommand('rlStudio.refreshModel', (node?: ModelsNode) => {
    if (node?.kind === 'trainingModel') tree.refreshModel(node.model.id);
    else tree.refresh();
  });

  services.registerCommand('rlStudio.deleteCheckpoints', async (node?: ModelsNode, selection?: ModelsNode[]) => {
    const chosen = [...new Set([...(selection ?? []), ...(node ? [node] : [])])].filter((item): item is CheckpointNode => item.kind === 'checkpoint');
    const byModel = new Map<string, CheckpointNode[]>();
    for (const item of chosen) byModel.set(item.model.id, [...(byModel.get(item.model.id) ?? []), item]);
    const results = [];
    for (const [modelId, items] of byModel) {
      const model = items[0]!.model;
      const steps = [...new Set(items.map((item) => item.checkpoint.step))].sort((a, b) => b - a);
      const label = modelLabel(model);
      const count = `${steps.length} checkpoint${steps.length === 1 ? '' : 's'}`;
      const confirmed = await prompts.confirm(
        `Delete ${count} of "${label}"?`,
        `Step${steps.length === 1 ? '' : 's'} ${listSteps(steps)} of model ${modelId} will be deleted on the training API. This cannot be undone.`,
        steps.length === 1 ? 'Delete Checkpoint' : 'Delete Checkpoints',
      );
      if (!confirmed) continue;
      const client = await services.client();
      const result = await withNotification(`deleting ${count} of ${label}…`, () => client.training.deleteCheckpoints(modelId, steps));
      const gone = new Set(steps);
      tree.checkpoints.of(modelId).remove((checkpoint) => gone.has(checkpoint.step));
      tree.redrawModel(modelId);
      const notFound = result.not_found_steps ?? [];
      const summary = `Deleted ${result.deleted_count} checkpoint${result.deleted_count === 1 ? '' : 's'} of ${label}.`;
      if (notFound.length) prompts.warn(`${summary} Not found: step${notFound.length === 1 ? '' : 's'} ${listSteps(notFound)}.`);
      else prompts.info(summary);
      results.push(result);
    }
    return results;
  });
}

/** Adds a model the platform knows by id, after checking that the training API has it. */
export async function addModelById(services: Services, prompts: Prompts, givenId?: string, givenCoordinates?: string): Promise<RememberedModel | undefined> {
  if (!(await readyForTraining(services))) return undefined;
  const typed = givenId ?? (await prompts.input({
    title: 'Add Model by ID',
    prompt: 'The id of a training model (a UUID), as returned when it was created',
    validateInput: (value) => idProblem(value, 'model'),
  }));
  if (!typed?.trim()) return undefined;
  const id = checkedId(typed, 'model');
  const existing = services.remembered.models.get(id);
  if (existing) return existing;
  const client = await services.client();
  try {
    await withNotification('checking the model id…', () => client.training.listCheckpoints(id, { limit: 1 }));
  } catch (error) {
    if (services.asPlatformError(error)?.status === 404) throw new Error(`The training API has no model with id ${id}.`);
    throw error;
  }
  let coordinates = givenCoordinates ? parseCoordinates(givenCoordinates) : undefined;
  if (givenCoordinates && !coordinates) throw new Error(`"${givenCoordinates}" is not entity/project/name.`);
  if (!coordinates && givenId === undefined) coordinates = await askCoordinates(prompts, false);
  const model: RememberedModel = { id, entity: coordinates?.entity ?? '', project: coordinates?.project ?? '', name: coordinates?.name ?? '', base_model: '' };
  await services.remembered.models.add(model);
  return model;
}

async function askCoordinates(prompts: Prompts, required: boolean) {
  const text = await prompts.input({
    title: 'Model name',
    prompt: `entity/project/name of the model${required ? '' : ' (optional: needed to chat with its checkpoints)'}`,
    placeHolder: 'entity/project/name',
    validateInput: (value) => (value.trim() === '' && !required) || parseCoordinates(value) ? undefined : 'Use the form entity/project/name',
  });
  return text ? parseCoordinates(text) : undefined;
}

async function pickTrainingModel(services: Services, prompts: Prompts, title: string): Promise<RememberedModel | undefined> {
  const models = services.remembered.models.list();
  if (models.length === 0) {
    prompts.info('No training models yet: create one or add one by id.');
    return undefined;
  }
  const picked = await prompts.pick(models.map((model) => ({ label: modelLabel(model), description: model.id, model })), { title });
  return picked?.model;
}

function trainingModelsOf(node: ModelsNode | undefined, selection: ModelsNode[] | undefined): RememberedModel[] {
  const nodes = selection?.length ? selection : node ? [node] : [];
  return nodes.filter((item): item is TrainingModelNode => item.kind === 'trainingModel').map((item) => item.model);
}

function listSteps(steps: number[]): string {
  if (steps.length <= 12) return steps.join(', ');
  return `${steps.slice(0, 10).join(', ')} and ${steps.length - 10} more`;
}

function isObject(value: unknown): value is Record<string, never> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

