import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Services } from '../../../platform/host/services';
import type { RememberedModel } from '../../../platform/host/rememberedItems';
import { urlLines } from '../../../platform/kit/confirmationText';
import { requestsPerAnswer, samplesPerCheckpoint } from '../../model/canary/canaryBudget';
import { canaryParameters } from '../../model/canary/canaryPins';
import { readEvalSet } from '../evalSetFiles';
import { canaryResultsUri, pickEvalSet, pickScorers } from '../evaluateCheckpoints';
import type { CanaryService } from './canaryService';

/** A training model as the Models view hands it (read by shape: this feature does not load the sidebar's code to know it). */
function modelOf(node: unknown): RememberedModel | undefined {
  const item = node as { kind?: unknown; model?: RememberedModel } | undefined;
  return item?.kind === 'trainingModel' && typeof item.model?.id === 'string' ? item.model : undefined;
}

async function pickModel(services: Services, title: string, among?: readonly string[]): Promise<RememberedModel | undefined> {
  const models = services.remembered.models.list().filter((model) => !among || among.includes(model.id));
  if (models.length === 0) {
    services.dialogs.info(among ? 'No model has a canary pinned.' : 'Add or create a training model in the Models view first: a canary evaluates its new checkpoints.');
    return undefined;
  }
  const picked = await services.dialogs.pick(
    models.map((model) => ({ label: String(model.name || model.id), description: model.id, model })),
    { title },
  );
  return picked?.model;
}

/**
 * "Pin a Canary Eval Set…": the eval set and scorers every new checkpoint of a model is evaluated
 * on, confirmed with what each checkpoint will cost (its budget), where the requests go and where
 * the results are written. The newest checkpoint is evaluated at once, as the first to compare with.
 */
export async function pinCanary(services: Services, canary: CanaryService, node?: unknown): Promise<boolean> {
  const dialogs = services.dialogs;
  const model = modelOf(node) ?? (await pickModel(services, 'Pin a Canary: training model'));
  if (!model) return false;
  const name = String(model.name || model.id);
  const setUri = await pickEvalSet(dialogs, `Canary of ${name}: eval set (a small one)`);
  if (!setUri) return false;
  const set = await readEvalSet(setUri);
  const setName = vscode.workspace.asRelativePath(setUri);
  if (set.samples.length === 0) {
    dialogs.error(`${path.posix.basename(setUri.path)} has no sample to evaluate. Nothing was pinned.`);
    return false;
  }
  const scorers = await pickScorers(
    services,
    dialogs,
    set.samples.some((sample) => sample.reference !== undefined),
    `Canary of ${name}: scorers (the first decides)`,
    false,
  );
  if (!scorers || scorers.length === 0) return false;

  const client = await services.client();
  const newest = (await client.training.listCheckpoints(model.id, { order: 'desc', limit: 1 })).data[0];
  const limits = canary.limits();
  const asked = samplesPerCheckpoint(set.samples.length, scorers, limits);
  if (asked === 0) {
    dialogs.error(
      `A budget of ${limits.perCheckpoint} requests per checkpoint pays for no answer with these scorers (each answer costs ${requestsPerAnswer(scorers)}). Raise rlStudio.canary.requestsPerCheckpoint. Nothing was pinned.`,
    );
    return false;
  }
  const results = canaryResultsUri(setUri, name);
  const detail = [
    `Each new checkpoint of ${name} (${model.id}) is asked ${asked === set.samples.length ? `the ${asked} prompts` : `the first ${asked} of the ${set.samples.length} prompts`} of ${setName} (greedy, one answer each, at most ${canaryParameters.maxTokens} tokens), scored by ${scorers.map((scorer) => scorer.name).join(', ')}.`,
    `Budget: ${limits.perCheckpoint} requests per checkpoint (${asked * requestsPerAnswer(scorers)} used), ${limits.perHour} per hour for every canary of this window (settings rlStudio.canary.*).`,
    newest ? `The newest checkpoint, step ${newest.step}, is evaluated now; later ones as they appear.` : 'The model has no checkpoint yet: the first one is evaluated when it appears.',
    ...urlLines('Training API', services.settings.current.trainingApiUrl),
    `Results: ${vscode.workspace.asRelativePath(results)}`,
  ].join('\n');
  if (!(await dialogs.confirm(`Pin a canary to ${name}?`, detail, 'Pin Canary'))) return false;
  await canary.pins.put({ modelId: model.id, modelName: name, setUri: setUri.toString(), scorers, seenStep: newest ? newest.step - 1 : -1 });
  canary.start();
  void canary.look(model.id);
  void vscode.commands.executeCommand('rlStudio.refreshModels');
  return true;
}

/** "Unpin Canary": new checkpoints of the model are no longer evaluated; its results file stays. */
export async function unpinCanary(services: Services, canary: CanaryService, node?: unknown): Promise<boolean> {
  const pinned = canary.pins.list().map((pin) => pin.modelId);
  const model = modelOf(node) ?? (await pickModel(services, 'Unpin Canary', pinned));
  if (!model) return false;
  if (!canary.pins.get(model.id)) {
    services.dialogs.info(`${String(model.name || model.id)} has no canary pinned.`);
    return false;
  }
  await canary.pins.remove(model.id);
  canary.forget(model.id);
  void vscode.commands.executeCommand('rlStudio.refreshModels');
  services.dialogs.info(`The canary of ${String(model.name || model.id)} is unpinned: its new checkpoints are no longer evaluated. Its results file stays.`);
  return true;
}
