/**
 * The platform's lists and states as concise text for a language model: one line an item, the ids
 * the next call needs first, numbers as the views show them. Every name, id, key and message the
 * server sent is quoted or kept to one plain token (see foreignText), so none of it can start a
 * line or a bullet of its own. No `vscode` import: tested in Node.
 */
import type { Checkpoint, TrainingJob, TrainingModel } from '../client/types';
import { escapeForOneLine, quoted } from '../kit/confirmationText';
import { escapedLine, foreignName, foreignToken } from './foreignText';
import { formatFigure } from './textTable';

/** Metrics shown per checkpoint at most, in the checkpoint's own order. */
const metricsPerCheckpoint = 6;

export interface ModelListing {
  model: TrainingModel;
  /** Newest first, as listed; undefined when they were not asked for. */
  checkpoints?: readonly Checkpoint[];
  /** More checkpoints than listed exist. */
  moreCheckpoints?: boolean;
  /** Why its checkpoints could not be listed. */
  problem?: string;
}

export function describeModels(listings: readonly ModelListing[], catalogue: { ids: readonly string[]; more: number } | { problem: string } | undefined): string {
  const lines: string[] = [];
  if (listings.length === 0) lines.push('Training models: none in RL Studio yet (create one with the create-model tool, or the user adds one in the Models view).');
  else lines.push(`Training models (${listings.length}):`);
  for (const { model, checkpoints, moreCheckpoints, problem } of listings) {
    lines.push(
      `- ${model.name ? foreignName(String(model.name)) : '(no name)'} · id ${foreignToken(String(model.id))} · project ${foreignToken(`${model.entity}/${model.project}`)} · base ${foreignToken(String(model.base_model))}`,
    );
    if (problem) lines.push(`  checkpoints: could not be listed: ${escapedLine(problem)}`);
    else if (checkpoints && checkpoints.length === 0) lines.push('  checkpoints: none yet');
    else if (checkpoints) {
      lines.push(`  checkpoints (newest first${moreCheckpoints ? ', more exist' : ''}):`);
      for (const checkpoint of checkpoints) lines.push(`  - step ${foreignToken(String(checkpoint.step))}${metricText(checkpoint.metrics)}`);
    }
  }
  if (catalogue && 'problem' in catalogue) lines.push(`Inference catalogue: could not be listed: ${escapedLine(catalogue.problem)}`);
  else if (catalogue)
    lines.push(
      `Inference catalogue (${catalogue.ids.length + catalogue.more}): ${catalogue.ids.map((id) => foreignToken(String(id))).join(', ')}${catalogue.more > 0 ? `, and ${catalogue.more} more` : ''}`,
    );
  return lines.join('\n');
}

function metricText(metrics: Record<string, unknown>): string {
  const entries = Object.entries(metrics ?? {})
    .filter((entry): entry is [string, number] => entry[0] !== 'step' && typeof entry[1] === 'number' && Number.isFinite(entry[1]))
    .slice(0, metricsPerCheckpoint);
  return entries.length === 0 ? '' : ` · ${entries.map(([name, value]) => `${foreignToken(name, 40)} ${formatFigure(value)}`).join(', ')}`;
}

export interface JobListing {
  id: string;
  label?: string;
  modelId?: string;
  kind?: 'rl' | 'sft';
  addedAt: string;
  record?: TrainingJob;
  problem?: string;
}

export function describeJobs(listings: readonly JobListing[], notListed: number): string {
  if (listings.length === 0) return 'Followed training jobs: none. Jobs the user creates or adds in RL Studio are followed.';
  const lines = [`Followed training jobs (${listings.length + notListed}, newest first):`];
  for (const job of listings) {
    const state = job.problem ? `status unknown: ${escapedLine(job.problem, 200)}` : job.record?.status ? foreignToken(String(job.record.status), 40) : 'status not reported';
    const parts = [`- job ${foreignToken(job.id)}`, job.kind === 'sft' ? 'SFT' : 'RL', state];
    if (job.label) parts.push(foreignName(job.label, 120));
    if (job.modelId) parts.push(`model ${foreignToken(job.modelId)}`);
    if (job.record?.training_start) parts.push(`started ${foreignToken(String(job.record.training_start), 40)}`);
    if (job.record?.training_end) parts.push(`ended ${foreignToken(String(job.record.training_end), 40)}`);
    if (job.record?.error_message) parts.push(`error: ${quoted(String(job.record.error_message))}`);
    lines.push(parts.join(' · '));
  }
  if (notListed > 0) lines.push(`… and ${notListed} older jobs not listed.`);
  return lines.join('\n');
}

/** `detail` is RL Studio's own words, any server text in it already quoted; `problem` is kept to one line here. */
export type ApiCheck = { ok: true; ms: number; detail?: string } | { ok: false; problem: string };

export function describePlatformStatus(status: { trainingUrl: string; inferenceUrl: string; signedIn: boolean; training?: ApiCheck; inference?: ApiCheck }): string {
  const lines = [
    `Training API: ${status.trainingUrl ? escapeForOneLine(status.trainingUrl) : 'not set'}`,
    `Inference API: ${status.inferenceUrl ? escapeForOneLine(status.inferenceUrl) : 'not set'}`,
    `Signed in: ${status.signedIn ? "yes (the key is stored in VS Code's secret storage)" : 'no'}`,
  ];
  const check = (name: string, result: ApiCheck | undefined) => {
    if (!result) return;
    lines.push(result.ok ? `${name}: answers (${Math.round(result.ms)} ms)${result.detail ? `; ${result.detail}` : ''}` : `${name}: ${escapedLine(result.problem, 400)}`);
  };
  check('Training API check', status.training);
  check('Inference API check', status.inference);
  return lines.join('\n');
}
