/**
 * The words of training's costly actions' confirmations: training, fine-tuning, logging, creating
 * and deleting. Each names everything the action does and nothing it does not: the model by name
 * and id, every step (as ranges, never cut), the whole host of every address on a line of its own,
 * how many groups and trajectories, and the file. One set of words for both ways in: the sidebar's
 * commands show them through the dialogs service, the agent's tools through VS Code's confirmation
 * (platform/agent/toolConfirmations `toolConfirmationOf`). Plain text, no `vscode`: tested in Node.
 */
import type { CreateModelRequest, CreateSftJobRequest, ExperimentalConfig } from '../../platform/client/types';
import { escapeForOneLine, quoted, stepRanges, urlLines } from '../../platform/kit/confirmationText';
import { plural } from '../../platform/kit/format';

/** A modal confirmation: the question, the lines under it, and the button that does it. */
export interface Confirmation {
  message: string;
  detail: string;
  action: string;
}

/** A model as RL Studio knows it: always its id, its name when it was told one. */
export interface NamedModel {
  id: string;
  name?: string;
  entity?: string;
  project?: string;
}

/** Where trajectory groups come from, as the confirmation names it. */
export interface GroupSourceWords {
  /** The file's name, short: `run.jsonl`. */
  name: string;
  /** The file's whole path (or address), never cut. */
  path: string;
  /** One-based numbers of the groups picked in the file, when not the whole file. */
  picked?: readonly number[];
}

/** The model's name as the question names it, quoted: a name comes from a server and is shown on one line. */
export function modelName(model: NamedModel): string {
  return model.name ? quoted(model.name) : `model ${model.id}`;
}

/** The model's line: its full name when known, and always its id. */
export function modelLine(model: NamedModel): string {
  const full = model.name ? [model.entity, model.project, model.name].filter(Boolean).join('/') : '';
  return full ? `Model: ${quoted(full)}, id ${escapeForOneLine(model.id)}` : `Model: id ${escapeForOneLine(model.id)} (its name is not known here)`;
}

function sourceLines(source: GroupSourceWords): string[] {
  const lines = [`File: ${escapeForOneLine(source.path)}`];
  if (source.picked) lines.push(`Groups of the file (numbered from 1): ${stepRanges(source.picked)}`);
  return lines;
}

/** The promise the file-reading commands keep: what is sent is what was counted. */
const sentAsRead = 'Exactly these groups are sent, as they were read; if the file changes before they are sent, nothing is sent.';

export function trainingConfirmation(plan: {
  source: GroupSourceWords;
  groups: number;
  trajectories: number;
  model: NamedModel;
  config: ExperimentalConfig | undefined;
  trainingApiUrl: string;
}): Confirmation {
  return {
    message: `Start a training job on ${modelName(plan.model)} with ${plural(plan.groups, 'trajectory group')} from ${escapeForOneLine(plan.source.name)}?`,
    detail: [
      `${plural(plan.groups, 'trajectory group')}, ${plural(plan.trajectories, 'trajectory', 'trajectories')}.`,
      ...sourceLines(plan.source),
      modelLine(plan.model),
      plan.config ? `Experimental config: ${escapeForOneLine(JSON.stringify(plan.config))}` : "Settings: the platform's defaults",
      ...urlLines('Training API', plan.trainingApiUrl),
      sentAsRead,
    ].join('\n'),
    action: 'Start Training',
  };
}

export function logConfirmation(plan: { source: GroupSourceWords; groups: number; trajectories: number; model: NamedModel; split: string; trainingApiUrl: string }): Confirmation {
  return {
    message: `Log ${plural(plan.groups, 'trajectory group')} from ${escapeForOneLine(plan.source.name)} to ${modelName(plan.model)} (split ${quoted(plan.split)})?`,
    detail: [
      `${plural(plan.groups, 'trajectory group')}, ${plural(plan.trajectories, 'trajectory', 'trajectories')}.`,
      ...sourceLines(plan.source),
      modelLine(plan.model),
      `Split: ${quoted(plan.split)}`,
      ...urlLines('Training API', plan.trainingApiUrl),
      sentAsRead,
    ].join('\n'),
    action: 'Log Groups',
  };
}

export function sftConfirmation(plan: { model: NamedModel; dataUrl: string; config: CreateSftJobRequest['config']; trainingApiUrl: string }): Confirmation {
  const rate = plan.config?.learning_rate;
  const settings = plan.config
    ? `Settings: batch size ${String(plan.config.batch_size ?? 'auto')}, learning rate ${rate === undefined ? 'default' : Array.isArray(rate) ? rate.join(', ') : String(rate)}`
    : "Settings: the platform's defaults";
  return {
    message: `Start a fine-tuning job on ${modelName(plan.model)}?`,
    detail: [
      modelLine(plan.model),
      ...urlLines('Training data', plan.dataUrl),
      settings,
      ...urlLines('Training API', plan.trainingApiUrl),
      'The training API reads the data from that address itself.',
    ].join('\n'),
    action: 'Start Fine-Tuning',
  };
}

export function createModelConfirmation(request: CreateModelRequest, trainingApiUrl: string): Confirmation {
  const lines = [
    `Name: ${quoted(request.name)}`,
    `Project: ${quoted(request.project)}`,
    `Entity: ${request.entity ? quoted(request.entity) : 'your default entity'}`,
    `Base model: ${quoted(request.base_model)}`,
  ];
  if (request.return_existing !== undefined) {
    lines.push(request.return_existing ? 'If the name is taken: the existing model is added instead.' : 'If the name is taken: nothing is created, and RL Studio says so.');
  }
  lines.push(...urlLines('Training API', trainingApiUrl));
  return { message: `Create the training model ${quoted(request.name)} in project ${quoted(request.project)}?`, detail: lines.join('\n'), action: 'Create Model' };
}

export function deleteModelConfirmation(model: NamedModel, trainingApiUrl: string, listedCheckpoints: { count: number; more: boolean } | undefined): Confirmation {
  const listed = listedCheckpoints
    ? `Checkpoints: ${plural(listedCheckpoints.count, 'checkpoint')} listed here${listedCheckpoints.more ? ', and more not yet listed' : ''}; every one is deleted.`
    : 'Checkpoints: every one is deleted.';
  return {
    message: `Delete the model ${modelName(model)} and all its checkpoints?`,
    detail: [modelLine(model), listed, ...urlLines('Training API', trainingApiUrl), 'The model, every checkpoint and its run are deleted. This cannot be undone.'].join('\n'),
    action: 'Delete Model',
  };
}

export function deleteCheckpointsConfirmation(model: NamedModel, steps: readonly number[], trainingApiUrl: string): Confirmation {
  const count = plural(new Set(steps).size, 'checkpoint');
  return {
    message: `Delete ${count} of ${modelName(model)}?`,
    detail: [`Step${new Set(steps).size === 1 ? '' : 's'}: ${stepRanges(steps)}`, modelLine(model), ...urlLines('Training API', trainingApiUrl), 'This cannot be undone.'].join('\n'),
    action: new Set(steps).size === 1 ? 'Delete Checkpoint' : 'Delete Checkpoints',
  };
}
