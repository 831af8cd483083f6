import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CreateSftJobRequest, TrajectoryGroup } from '../../../platform/client/types';
import { modelLabel } from '../models/modelNodes';
import type { Services } from '../../../platform/host/services';
import { logConfirmation, sftConfirmation, trainingConfirmation, type Confirmation, type GroupSourceWords, type NamedModel } from '../../model/trainingConfirmations';
import { readyForTraining, withNotification } from '../flowGuards';
import type { Dialogs } from '../../../platform/host/dialogs';
import { changedAfterConfirmation } from '../../../platform/host/fileSnapshot';
import { pickExperimentalConfig, pickTargetModel, trajectoryFileOf } from './pickers';
import type { TrajectoryDiagnostics } from './trajectoryDiagnostics';
import { formatForFileName } from '../../../platform/kit/trajectoryFile';

export interface CreatedJobResult {
  id: string;
  modelId: string;
}

/**
 * Trajectory groups read for sending, with what the confirmation says of where they came from, and
 * how to tell that their source still holds them: the action sends these very groups, and nothing
 * when the source changed after the person confirmed.
 */
export interface GroupsToSend {
  groups: TrajectoryGroup[];
  source: GroupSourceWords;
  /** Where they came from, for the log. */
  detail: string;
  /** True when the source no longer holds what was read. */
  changed(): Promise<boolean>;
}

/**
 * Reads trajectory groups from a file and stops at the first sign of trouble: every problem is a
 * diagnostic on its line, and the message says how many there are and where the first one is.
 */
export async function readTrajectoryGroups(dialogs: Dialogs, diagnostics: TrajectoryDiagnostics, uri: vscode.Uri): Promise<GroupsToSend | undefined> {
  const { groups, problems, ok, snapshot } = await diagnostics.read(uri);
  if (ok && snapshot) {
    return { groups, source: { name: path.basename(uri.fsPath), path: uri.fsPath || uri.toString() }, detail: uri.fsPath, changed: () => snapshot.changed() };
  }
  const errors = problems.filter((problem) => problem.severity === 'error');
  const first = errors[0]!;
  // The closing entry of a long list stands for every problem it did not list.
  const count = problems.reduce((sum, problem) => sum + (problem.notListed ?? 1), 0);
  const name = path.basename(uri.fsPath);
  if (formatForFileName(uri.path) === 'parquet') {
    // A Parquet log has no text to show a problem in: the message names its row.
    dialogs.error(`${name} has ${count} problem${count === 1 ? '' : 's'}; nothing was sent. ${upperFirst(first.message)}`);
    return undefined;
  }
  // Not awaited: the command ends now (nothing was sent); the message stays until dismissed.
  dialogs.error(`${name} has ${count} problem${count === 1 ? '' : 's'}; nothing was sent. Line ${first.line + 1}: ${first.message}`, {
    title: 'Show Problem',
    run: async () => {
      const editor = await vscode.window.showTextDocument(uri);
      const position = new vscode.Position(first.line, first.column);
      editor.selection = new vscode.Selection(position, position);
      editor.revealRange(new vscode.Range(position, position), vscode.TextEditorRevealType.InCenter);
    },
  });
  return undefined;
}

export async function createTrainingJobFromFile(services: Services, dialogs: Dialogs, diagnostics: TrajectoryDiagnostics, given: unknown): Promise<CreatedJobResult | undefined> {
  if (!(await readyForTraining(services))) return undefined;
  const uri = await trajectoryFileOf(dialogs, given);
  if (!uri) return undefined;
  const read = await readTrajectoryGroups(dialogs, diagnostics, uri);
  if (!read) return undefined;
  return trainOnGroups(services, dialogs, read);
}

/** How many trajectories the groups hold, as the confirmation counts them. */
export function trajectoryCount(groups: readonly TrajectoryGroup[]): number {
  return groups.reduce((sum, group) => sum + (Array.isArray(group.trajectories) ? group.trajectories.length : 0), 0);
}

/** The model as RL Studio knows it: its name when it was told one, its id always. */
function namedModel(services: Services, modelId: string): NamedModel {
  return services.remembered.models.get(modelId) ?? { id: modelId };
}

/**
 * Asks the confirmation, then makes sure the source still holds what was read: true only when the
 * person said yes and the groups confirmed are the groups the source holds.
 */
async function confirmedAsRead(dialogs: Dialogs, confirmation: Confirmation, read: GroupsToSend): Promise<boolean> {
  if (!(await dialogs.confirm(confirmation.message, confirmation.detail, confirmation.action))) return false;
  if (await read.changed()) {
    dialogs.error(changedAfterConfirmation(read.source.name));
    return false;
  }
  return true;
}

/**
 * Creates a training job from groups already read and checked: asks for the model and the
 * settings, confirms naming all of it, then sends those very groups. The source's name labels the
 * job ("run.jsonl → model").
 */
export async function trainOnGroups(services: Services, dialogs: Dialogs, read: GroupsToSend): Promise<CreatedJobResult | undefined> {
  if (!(await readyForTraining(services))) return undefined;
  const { groups } = read;
  const modelId = await pickTargetModel(services, dialogs, `Train on ${groups.length} trajectory group${groups.length === 1 ? '' : 's'}: target model`);
  if (!modelId) return undefined;
  const config = await pickExperimentalConfig(dialogs);
  if (config === null) return undefined;
  const confirmation = trainingConfirmation({
    source: read.source,
    groups: groups.length,
    trajectories: trajectoryCount(groups),
    model: namedModel(services, modelId),
    config,
    trainingApiUrl: services.settings.current.trainingApiUrl,
  });
  if (!(await confirmedAsRead(dialogs, confirmation, read))) return undefined;
  const client = await services.client();
  const created = await withNotification('creating the training job…', () =>
    client.training.createTrainingJob({ model_id: modelId, trajectory_groups: groups, ...(config ? { experimental_config: config } : {}) }),
  );
  const model = services.remembered.models.get(modelId);
  await services.remembered.jobs.add({
    id: created.id,
    modelId,
    kind: 'rl',
    addedAt: new Date().toISOString(),
    label: `${read.source.picked ? `${read.source.name} (${groups.length} group${groups.length === 1 ? '' : 's'})` : read.source.name} → ${model ? modelLabel(model) : modelId.slice(0, 8)}`,
  });
  services.log.info(`created training job ${created.id} on model ${modelId} from ${read.detail} (${groups.length} groups)`);
  return { id: created.id, modelId };
}

export async function createSftJob(services: Services, dialogs: Dialogs): Promise<CreatedJobResult | undefined> {
  if (!(await readyForTraining(services))) return undefined;
  const modelId = await pickTargetModel(services, dialogs, 'Supervised fine-tuning: target model');
  if (!modelId) return undefined;
  const url = (
    await dialogs.input({
      title: 'Supervised fine-tuning: training data URL',
      prompt: 'Where the training data is, for example https://… or s3://…',
      validateInput: (value) => (/^[a-z][a-z0-9+.-]*:\/\/\S+$/i.test(value.trim()) ? undefined : 'Enter a URL such as https://host/data.jsonl'),
    })
  )?.trim();
  if (!url) return undefined;
  const defaults = { label: 'Default settings', custom: false };
  const custom = { label: 'Batch size and learning rate…', custom: true };
  const choice = await dialogs.pick([defaults, custom], { title: 'Supervised fine-tuning: settings' });
  if (!choice) return undefined;
  const request: CreateSftJobRequest = { model_id: modelId, training_data_url: url };
  if (choice.custom) {
    const batch = await dialogs.input({
      title: 'Batch size',
      prompt: 'A positive integer, or "auto"',
      value: 'auto',
      validateInput: (value) => (value.trim() === 'auto' || /^[1-9]\d*$/.test(value.trim()) ? undefined : 'A positive integer, or auto'),
    });
    if (batch === undefined) return undefined;
    const rate = await dialogs.input({
      title: 'Learning rate',
      prompt: 'A number, or several separated by commas (one per epoch). Empty for the default.',
      validateInput: (value) => (value.trim() === '' || value.split(',').every((part) => Number.isFinite(Number(part.trim())) && part.trim() !== '') ? undefined : 'Numbers separated by commas'),
    });
    if (rate === undefined) return undefined;
    request.config = { batch_size: batch.trim() === 'auto' ? 'auto' : Number(batch) };
    const rates = rate.trim() === '' ? [] : rate.split(',').map((part) => Number(part.trim()));
    if (rates.length === 1) request.config.learning_rate = rates[0]!;
    else if (rates.length > 1) request.config.learning_rate = rates;
  }
  const confirmation = sftConfirmation({ model: namedModel(services, modelId), dataUrl: url, config: request.config, trainingApiUrl: services.settings.current.trainingApiUrl });
  if (!(await dialogs.confirm(confirmation.message, confirmation.detail, confirmation.action))) return undefined;
  const client = await services.client();
  const created = await withNotification('creating the fine-tuning job…', () => client.training.createSftJob(request));
  const model = services.remembered.models.get(modelId);
  const dataName =
    url
      .replace(/[?#].*$/, '')
      .split('/')
      .filter(Boolean)
      .pop() ?? url;
  await services.remembered.jobs.add({ id: created.id, modelId, kind: 'sft', addedAt: new Date().toISOString(), label: `SFT ${dataName} → ${model ? modelLabel(model) : modelId.slice(0, 8)}` });
  return { id: created.id, modelId };
}

export async function logTrajectoriesFromFile(services: Services, dialogs: Dialogs, diagnostics: TrajectoryDiagnostics, given: unknown): Promise<LoggedGroups | undefined> {
  if (!(await readyForTraining(services))) return undefined;
  const uri = await trajectoryFileOf(dialogs, given);
  if (!uri) return undefined;
  const read = await readTrajectoryGroups(dialogs, diagnostics, uri);
  if (!read) return undefined;
  return logGroups(services, dialogs, read);
}

export interface LoggedGroups {
  modelId: string;
  split: string;
  count: number;
}

/**
 * Logs groups already read and checked to a model: asks for the model and the split, confirms
 * naming all of it, then sends those very groups.
 */
export async function logGroups(services: Services, dialogs: Dialogs, read: GroupsToSend): Promise<LoggedGroups | undefined> {
  if (!(await readyForTraining(services))) return undefined;
  const { groups } = read;
  const modelId = await pickTargetModel(services, dialogs, `Log ${groups.length} trajectory group${groups.length === 1 ? '' : 's'}: model`);
  if (!modelId) return undefined;
  const splits = ['train', 'val', 'test'].map((split) => ({ label: split, split }));
  const other = { label: 'Another split…', split: '' };
  const picked = await dialogs.pick([...splits, other], { title: 'Split' });
  if (!picked) return undefined;
  const split = picked.split || (await dialogs.input({ title: 'Split name', validateInput: (value) => (/^\w[\w.-]*$/.test(value.trim()) ? undefined : 'Letters, digits, ".", "_" and "-"') }))?.trim();
  if (!split) return undefined;
  const confirmation = logConfirmation({
    source: read.source,
    groups: groups.length,
    trajectories: trajectoryCount(groups),
    model: namedModel(services, modelId),
    split,
    trainingApiUrl: services.settings.current.trainingApiUrl,
  });
  if (!(await confirmedAsRead(dialogs, confirmation, read))) return undefined;
  const client = await services.client();
  await withNotification(`logging ${groups.length} trajectory groups…`, () => client.training.log(modelId, { split, trajectory_groups: groups }));
  const model = services.remembered.models.get(modelId);
  dialogs.info(`Logged ${groups.length} trajectory group${groups.length === 1 ? '' : 's'} to ${model ? modelLabel(model) : modelId} (split ${split}).`);
  return { modelId, split, count: groups.length };
}

function upperFirst(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
