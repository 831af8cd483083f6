/**
 * Which checkpoints "Delete the others" deletes, decided from the report alone: only checkpoints this
 * evaluation scored and ranked below the one kept. Everything else stays: the chosen step, the best,
 * the latest, every step the evaluation did not score (those made after it included: the platform
 * gives no creation time, and a step past the last one evaluated was made after the evaluation),
 * steps that scored as well as the chosen one, and steps whose answers mostly failed (too little
 * evidence to delete weights on). Also the words of the confirmation, which name every step.
 */
import { escapeForOneLine, quoted, stepRanges } from '../../platform/kit/confirmationText';
import type { EvalModelRef, LeaderboardRow } from './evalModel';

/** A checkpoint as the platform lists it now. */
export interface ListedCheckpoint {
  id: string;
  step: number;
}

export interface PruneInput {
  /** The report's models and its leaderboard (primary scorer). */
  models: readonly EvalModelRef[];
  leaderboard: readonly LeaderboardRow[];
  /** The model id of the checkpoint kept. */
  keep: string;
  /** Every checkpoint of the training model the platform lists now. */
  listed: readonly ListedCheckpoint[];
}

/** Why listed checkpoints stay, counted (the chosen, best and latest are named instead). */
export interface StayCounts {
  /** Not scored by this evaluation (made after it included). */
  unevaluated: number;
  /** Of those, made after the evaluation: steps past the last one it scored. */
  madeAfter: number;
  /** Scored as well as the chosen one or better. */
  notBelow: number;
  /** More answers failed than were scored. */
  mostlyFailed: number;
}

export type PrunePlan =
  | { ok: false; error: string }
  | {
      ok: true;
      trainingModelId: string;
      /** Steps to delete, ascending. */
      doomed: number[];
      chosen: number;
      /** The best checkpoint's steps (several when tied at the top; the chosen one when it is the best). */
      best: number[];
      latest: number | undefined;
      stay: StayCounts;
    };

export function planPrune(input: PruneInput): PrunePlan {
  const chosen = input.models.find((model) => model.id === input.keep);
  if (!chosen || chosen.kind !== 'checkpoint' || chosen.trainingModelId === undefined || chosen.step === undefined) return { ok: false, error: 'only a checkpoint of this evaluation can be kept' };
  const trainingModelId = chosen.trainingModelId;
  const rows = new Map(input.leaderboard.map((row) => [row.model, row]));
  const chosenRow = rows.get(chosen.id);
  if (!chosenRow || chosenRow.scored === 0) return { ok: false, error: `step ${chosen.step} was not scored by this evaluation, so nothing ranks below it` };
  // The rows of this training model's checkpoints, by step; a step listed twice counts by its weakest claim to go.
  const evaluated = new Map<number, LeaderboardRow[]>();
  for (const model of input.models) {
    if (model.kind !== 'checkpoint' || model.trainingModelId !== trainingModelId || model.step === undefined) continue;
    const row = rows.get(model.id);
    if (!row || row.scored === 0) continue;
    evaluated.set(model.step, [...(evaluated.get(model.step) ?? []), row]);
  }
  let topMean = -Infinity;
  for (const list of evaluated.values()) for (const row of list) topMean = Math.max(topMean, row.mean);
  const bestSteps = [...evaluated].filter(([, list]) => list.some((row) => row.mean === topMean)).map(([step]) => step);
  const lastEvaluated = Math.max(...evaluated.keys());
  const listedSteps = [...new Set(input.listed.map((checkpoint) => checkpoint.step))];
  const latest = listedSteps.length ? Math.max(...listedSteps) : undefined;
  const stay: StayCounts = { unevaluated: 0, madeAfter: 0, notBelow: 0, mostlyFailed: 0 };
  const doomed: number[] = [];
  for (const step of listedSteps) {
    if (step === chosen.step || step === latest || bestSteps.includes(step)) continue;
    const list = evaluated.get(step);
    if (!list) {
      stay.unevaluated++;
      if (step > lastEvaluated) stay.madeAfter++;
    } else if (list.some((row) => row.failed > row.scored)) stay.mostlyFailed++;
    else if (list.some((row) => !(row.mean < chosenRow.mean))) stay.notBelow++;
    else doomed.push(step);
  }
  return {
    ok: true,
    trainingModelId,
    doomed: doomed.sort((a, b) => a - b),
    chosen: chosen.step,
    best: bestSteps.sort((a, b) => a - b),
    latest,
    stay,
  };
}

/** The steps that stay, named: `20 (chosen), 30 (best), 40 (latest)`. */
export function namedStays(plan: Extract<PrunePlan, { ok: true }>): { text: string; count: number } {
  const roles = new Map<number, string[]>([[plan.chosen, ['chosen']]]);
  for (const step of plan.best) roles.set(step, [...(roles.get(step) ?? []), 'best']);
  if (plan.latest !== undefined) roles.set(plan.latest, [...(roles.get(plan.latest) ?? []), 'latest']);
  const text = [...roles]
    .sort(([a], [b]) => a - b)
    .map(([step, names]) => `${step} (${names.join(', ')})`)
    .join(', ');
  return { text, count: roles.size };
}

function checkpoints(count: number): string {
  return `${count} checkpoint${count === 1 ? '' : 's'}`;
}

/** What else stays, counted; empty when nothing else does. */
export function otherStays(stay: StayCounts): string {
  const parts: string[] = [];
  if (stay.unevaluated > 0) parts.push(`${checkpoints(stay.unevaluated)} this evaluation did not score${stay.madeAfter > 0 ? ` (${stay.madeAfter} of them made after it)` : ''}`);
  if (stay.notBelow > 0) parts.push(`${checkpoints(stay.notBelow)} that scored as well as the chosen one`);
  if (stay.mostlyFailed > 0) parts.push(`${checkpoints(stay.mostlyFailed)} whose answers mostly failed`);
  return parts.length ? `Also kept: ${parts.join('; ')}.` : '';
}

/**
 * The confirmation: `Delete 3 checkpoints of model "my-model" (id …): steps 10–12. Steps 20
 * (chosen), 30 (best), 40 (latest) stay. … This cannot be undone.` Every step named, never cut.
 */
export function pruneConfirmation(plan: Extract<PrunePlan, { ok: true }>, modelName: string): { message: string; detail: string; action: string } {
  const count = plan.doomed.length;
  const stays = namedStays(plan);
  const model = `model ${quoted(modelName)} (id ${escapeForOneLine(plan.trainingModelId)})`;
  const detail = [
    `Delete ${checkpoints(count)} of ${model}: step${count === 1 ? '' : 's'} ${stepRanges(plan.doomed)}.`,
    `Step${stays.count === 1 ? '' : 's'} ${stays.text} ${stays.count === 1 ? 'stays' : 'stay'}.`,
    otherStays(plan.stay),
    'This cannot be undone.',
  ]
    .filter(Boolean)
    .join(' ');
  return { message: `Delete ${checkpoints(count)} of ${quoted(modelName)}?`, detail, action: count === 1 ? 'Delete Checkpoint' : 'Delete Checkpoints' };
}
