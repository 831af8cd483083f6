import * as vscode from 'vscode';
import type { EvalRunFile } from '../../evals/evalModel';
import { primaryScorer } from '../../evals/evalRun';
import { leaderboard } from '../../evals/statistics';
import type { Services } from '../platform/services';

/** Pages of checkpoints read to find every step of a model (100 each): 10,000 checkpoints. */
const maxCheckpointPages = 100;

/**
 * "Delete the others": deletes every checkpoint of the run's training model except the one kept,
 * the best of the evaluation and the latest, after a confirmation that lists the steps that go.
 */
export async function deleteOtherCheckpoints(services: Services, run: EvalRunFile, keep: string): Promise<void> {
  const kept = run.models.find((model) => model.id === keep);
  if (!kept || kept.kind !== 'checkpoint' || kept.trainingModelId === undefined || kept.step === undefined) throw new Error('only a checkpoint of this evaluation can be kept');
  const trainingModelId = kept.trainingModelId;
  const best = leaderboard(run, primaryScorer(run.scorers)).find((row) => row.step !== undefined && run.models.some((model) => model.id === row.model && model.kind === 'checkpoint'));
  const client = await services.client();
  const steps: number[] = [];
  let after: string | undefined;
  for (let page = 0; page < maxCheckpointPages; page++) {
    const listed = await client.training.listCheckpoints(trainingModelId, { limit: 100, order: 'asc', ...(after ? { after } : {}) });
    steps.push(...listed.data.map((checkpoint) => checkpoint.step));
    if (!listed.has_more || listed.data.length === 0) break;
    after = listed.data.at(-1)!.id;
  }
  const latest = Math.max(...steps);
  const keepSteps = new Set([kept.step, latest, ...(best?.step !== undefined ? [best.step] : [])]);
  const doomed = steps.filter((step) => !keepSteps.has(step)).sort((a, b) => a - b);
  if (doomed.length === 0) {
    services.dialogs.info(`Nothing to delete: the model has only the kept step ${kept.step}, the best and the latest.`);
    return;
  }
  const kinds = [
    `step ${kept.step} (chosen)`,
    ...(best?.step !== undefined && best.step !== kept.step ? [`step ${best.step} (best)`] : []),
    ...(latest !== kept.step ? [`step ${latest} (latest)`] : []),
  ];
  const confirmed = await services.dialogs.confirm(
    `Delete ${doomed.length} checkpoint${doomed.length === 1 ? '' : 's'}?`,
    `Steps ${doomed.join(', ')} of model ${trainingModelId} will be deleted on the training API; ${kinds.join(', ')} stay. This cannot be undone.`,
    doomed.length === 1 ? 'Delete Checkpoint' : 'Delete Checkpoints',
  );
  if (!confirmed) return;
  const result = await client.training.deleteCheckpoints(trainingModelId, doomed);
  services.dialogs.info(`Deleted ${result.deleted_count} checkpoint${result.deleted_count === 1 ? '' : 's'}; ${kinds.join(', ')} stay.`);
  await vscode.commands.executeCommand('rlStudio.refreshModels');
}
