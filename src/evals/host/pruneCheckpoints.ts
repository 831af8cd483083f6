import * as vscode from 'vscode';
import type { PlatformClient } from '../../platform/client/client';
import { quoted, stepRanges } from '../../platform/kit/confirmationText';
import { pagesInTurn } from '../../platform/kit/pagesInTurn';
import type { EvalModelRef, LeaderboardRow } from '../model/evalModel';
import { namedStays, otherStays, planPrune, pruneConfirmation, type ListedCheckpoint } from '../model/prunePlan';
import type { Services } from '../../platform/host/services';

/** Pages of checkpoints read to find every step of a model (100 each): 10,000 checkpoints. */
const maxCheckpointPages = 100;

/** Every checkpoint of the model the platform lists now, up to the bound. */
export async function listAllCheckpoints(client: PlatformClient, trainingModelId: string): Promise<ListedCheckpoint[]> {
  const listed: ListedCheckpoint[] = [];
  const pages = pagesInTurn((after) => client.training.listCheckpoints(trainingModelId, { limit: 100, order: 'asc', ...(after ? { after } : {}) }), maxCheckpointPages);
  for await (const page of pages) listed.push(...page.map((checkpoint) => ({ id: checkpoint.id, step: checkpoint.step })));
  return listed;
}

/**
 * "Delete the others": deletes the checkpoints this evaluation scored below the one kept (see
 * planPrune), of a training model RL Studio knows, after a confirmation naming the model by name and
 * id and every step that goes and stays. Resolves with the steps the platform lists afterwards (read
 * again, so the report stops offering a deleted step), or undefined when nothing was deleted.
 */
export async function deleteOtherCheckpoints(
  services: Services,
  report: { models: readonly EvalModelRef[]; leaderboard: readonly LeaderboardRow[] },
  keep: string,
): Promise<{ trainingModelId: string; steps: number[] } | undefined> {
  const kept = report.models.find((model) => model.id === keep);
  if (!kept || kept.kind !== 'checkpoint' || kept.trainingModelId === undefined) throw new Error('only a checkpoint of this evaluation can be kept');
  const known = services.remembered.models.get(kept.trainingModelId);
  if (!known) {
    services.dialogs.error(
      `Nothing was deleted: the results file names the model ${quoted(kept.trainingModelId)}, which is not in RL Studio's Models view. Checkpoints are deleted only of a model you created or added there.`,
    );
    return undefined;
  }
  const client = await services.client();
  const plan = planPrune({ models: report.models, leaderboard: report.leaderboard, keep, listed: await listAllCheckpoints(client, known.id) });
  if (!plan.ok) {
    services.dialogs.error(`Nothing was deleted: ${plan.error}.`);
    return undefined;
  }
  if (plan.doomed.length === 0) {
    services.dialogs.info(
      `Nothing to delete of ${quoted(known.name)}: no checkpoint this evaluation scored ranks below step ${plan.chosen}. Steps ${namedStays(plan).text} stay. ${otherStays(plan.stay)}`.trim(),
    );
    return undefined;
  }
  const confirmation = pruneConfirmation(plan, known.name);
  if (!(await services.dialogs.confirm(confirmation.message, confirmation.detail, confirmation.action))) return undefined;
  const result = await client.training.deleteCheckpoints(known.id, plan.doomed);
  const missing = result.not_found_steps.length ? ` (steps ${stepRanges(result.not_found_steps)} were already gone)` : '';
  services.dialogs.info(
    `Deleted ${result.deleted_count} checkpoint${result.deleted_count === 1 ? '' : 's'} of ${quoted(known.name)}: steps ${stepRanges(plan.doomed)}${missing}. Steps ${namedStays(plan).text} stay.`,
  );
  await vscode.commands.executeCommand('rlStudio.refreshModels');
  const after = await listAllCheckpoints(client, known.id);
  return { trainingModelId: known.id, steps: after.map((checkpoint) => checkpoint.step) };
}
