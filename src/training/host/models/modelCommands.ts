import * as vscode from 'vscode';
import { useInChat } from './useInChat';
import { stepRanges } from '../../../platform/kit/confirmationText';
import type { Services } from '../../../platform/host/services';
import { deleteCheckpointsConfirmation, deleteModelConfirmation } from '../../model/trainingConfirmations';
import type { RememberedModel } from '../../../platform/host/rememberedItems';
import { withNotification } from '../flowGuards';
import { revealWhenListed } from '../revealWhenListed';
import type { Dialogs } from '../../../platform/host/dialogs';
import { addModel } from './addModel';
import { createModel } from './createModel';
import { chatModelId, modelLabel, type CheckpointNode, type LoadMoreNode, type ModelsNode, type TrainingModelNode } from './modelNodes';
import type { ModelsTreeProvider } from './modelsTree';
import { nameModel, nameThenChat, openInChat } from './nameModel';
import { copyAndSay } from '../../../platform/host/clipboard';

/** Commands of the Models view: each takes the node it was invoked on, or asks. */
export function registerModelCommands(services: Services, tree: ModelsTreeProvider, view: vscode.TreeView<ModelsNode>, dialogs: Dialogs): void {
  const reveal = (modelId: string) => revealWhenListed(view, tree, modelId);

  // Every field is asked (the tests answer through the dialogs service): no caller fills in the form.
  services.registerCommand('rlStudio.createModel', async () => {
    const model = await createModel(services, dialogs);
    if (model) {
      reveal(model.id);
      dialogs.info(`Created model ${model.name} (${model.entity}/${model.project}).`);
    }
    return model;
  });

  // (id, name) from a caller adds without a question; a person types an id or a name.
  services.registerCommand('rlStudio.addModel', async (id?: unknown, name?: unknown) => {
    const model = await addModel(services, dialogs, typeof id === 'string' ? id : undefined, typeof name === 'string' ? name : undefined);
    if (model) reveal(model.id);
    return model;
  });

  services.registerCommand('rlStudio.removeModel', async (node?: ModelsNode, selection?: ModelsNode[]) => {
    for (const model of trainingModelsOf(node, selection)) await services.remembered.models.remove(model.id);
  });

  services.registerCommand('rlStudio.deleteModel', async (node?: ModelsNode) => {
    const model = node?.kind === 'trainingModel' ? node.model : await pickTrainingModel(services, dialogs, 'Delete Model');
    if (!model) return undefined;
    const label = modelLabel(model);
    const list = tree.checkpoints.isShown(model.id) ? tree.checkpoints.of(model.id) : undefined;
    const confirmation = deleteModelConfirmation(model, services.settings.current.trainingApiUrl, list ? { count: list.items.length, more: list.hasMore } : undefined);
    if (!(await dialogs.confirm(confirmation.message, confirmation.detail, confirmation.action))) return undefined;
    const client = await services.client();
    const result = await withNotification(`deleting model ${label}…`, () => client.training.deleteModel(model.id));
    await services.remembered.models.remove(model.id);
    tree.checkpoints.forget(model.id);
    dialogs.info(`Deleted model ${label}: ${result.deleted_checkpoints} checkpoint${result.deleted_checkpoints === 1 ? '' : 's'}${result.deleted_run ? ' and its run' : ''}.`);
    return result;
  });

  services.registerCommand('rlStudio.setModelName', async (node?: ModelsNode) => {
    if (node?.kind !== 'trainingModel' && node?.kind !== 'checkpoint') return undefined;
    return nameModel(services, dialogs, node.model);
  });

  services.registerCommand('rlStudio.copyModelId', async (node?: ModelsNode) => {
    const id = node?.kind === 'inferenceModel' || node?.kind === 'trainingModel' ? node.model.id : undefined;
    if (!id) return;
    await copyAndSay(id, `Copied ${id}`);
  });

  services.registerCommand('rlStudio.copyCheckpointModelId', async (node?: ModelsNode) => {
    if (node?.kind !== 'checkpoint' && node?.kind !== 'trainingModel') return;
    const id = chatModelId(node);
    if (!id) {
      dialogs.warn('This model was added by its id alone: without its entity/project/name, its checkpoints have no model id yet.', {
        title: 'Name Model…',
        run: () => vscode.commands.executeCommand('rlStudio.setModelName', node),
      });
      return;
    }
    await copyAndSay(id, `Copied ${id}`);
  });

  services.registerCommand('rlStudio.useInChat', async (node?: ModelsNode) => {
    if (node?.kind !== 'checkpoint') return;
    const modelId = chatModelId(node);
    if (!modelId) {
      dialogs.warn('This model was added by its id alone: without its entity/project/name, its checkpoints have no model id to pin.', {
        title: 'Name Model…',
        run: () => vscode.commands.executeCommand('rlStudio.setModelName', node),
      });
      return;
    }
    await useInChat(services, dialogs, modelId);
  });

  services.registerCommand('rlStudio.chatWithModel', async (node?: ModelsNode) => {
    const modelId = node ? chatModelId(node) : undefined;
    if (!modelId && (node?.kind === 'trainingModel' || node?.kind === 'checkpoint')) {
      await nameThenChat(services, dialogs, node.model, node.kind === 'checkpoint' ? node.checkpoint.step : undefined);
      return;
    }
    await openInChat(modelId);
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
      // The steps confirmed are the steps sent: fixed here, before the question.
      const steps = [...new Set(items.map((item) => item.checkpoint.step))].sort((a, b) => b - a);
      const label = modelLabel(model);
      const count = `${steps.length} checkpoint${steps.length === 1 ? '' : 's'}`;
      const confirmation = deleteCheckpointsConfirmation(model, steps, services.settings.current.trainingApiUrl);
      if (!(await dialogs.confirm(confirmation.message, confirmation.detail, confirmation.action))) continue;
      const client = await services.client();
      const result = await withNotification(`deleting ${count} of ${label}…`, () => client.training.deleteCheckpoints(modelId, steps));
      const gone = new Set(steps);
      tree.checkpoints.of(modelId).remove((checkpoint) => gone.has(checkpoint.step));
      tree.redrawModel(modelId);
      const notFound = result.not_found_steps ?? [];
      const summary = `Deleted ${result.deleted_count} checkpoint${result.deleted_count === 1 ? '' : 's'} of ${label}.`;
      if (notFound.length) dialogs.warn(`${summary} Not found: step${notFound.length === 1 ? '' : 's'} ${stepRanges(notFound)}.`);
      else dialogs.info(summary);
      results.push(result);
    }
    return results;
  });
}

export async function pickTrainingModel(services: Services, dialogs: Dialogs, title: string): Promise<RememberedModel | undefined> {
  const models = services.remembered.models.list();
  if (models.length === 0) {
    dialogs.info('No training models yet: create one or add one by id.');
    return undefined;
  }
  const picked = await dialogs.pick(
    models.map((model) => ({ label: modelLabel(model), description: model.id, model })),
    { title },
  );
  return picked?.model;
}

function trainingModelsOf(node: ModelsNode | undefined, selection: ModelsNode[] | undefined): RememberedModel[] {
  // The selection counts only when the row right-clicked is part of it: otherwise it may still hold
  // a row removed a moment ago, and the one clicked would stay.
  const inSelection = node?.kind === 'trainingModel' && selection?.some((item) => item.kind === 'trainingModel' && item.model.id === node.model.id);
  const nodes = node ? (inSelection ? selection! : [node]) : (selection ?? []);
  return nodes.filter((item): item is TrainingModelNode => item.kind === 'trainingModel').map((item) => item.model);
}
