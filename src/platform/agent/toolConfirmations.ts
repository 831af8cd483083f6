/**
 * The words of each costly tool's confirmation: everything that will happen, one fact a line, never
 * cut. Every step is named (as ranges), the model by name and id, the whole host of every URL on a
 * line of its own, every count; names from a server or a file are quoted on one line. The tool then
 * does exactly what these words say (see confirmedPlans). No `vscode` import: tested in Node.
 */
import { quoted, stepRanges, urlLines } from '../kit/confirmationText';
import { plural } from '../kit/format';
import { foreignName, foreignToken } from './foreignText';

/** What a confirmation names: shown by VS Code before the tool runs, with Continue and Cancel. */
export interface Confirmation {
  title: string;
  /** Exactly what will happen, one fact a line: the model, the file, how many groups or steps, the endpoint's origin. */
  message: string;
}

/** A training model as a confirmation names it: its name and its id. */
export interface NamedModel {
  id: string;
  name: string;
}

/** Characters of a workspace path quoted at most (tools take paths of at most 1,024). */
const maxPathChars = 1_024;

/** `"agent-001" (model id m-1)`: by name and by id, so two models of one name cannot be confused. */
export function modelNamed(model: NamedModel): string {
  return `${model.name ? foreignName(model.name) : 'the model'} (model id ${foreignToken(model.id, 512)})`;
}

export function deleteCheckpointsConfirmation(facts: { model: NamedModel; steps: readonly number[]; origin: string }): Confirmation {
  const count = new Set(facts.steps).size;
  return {
    title: `Delete ${plural(count, 'checkpoint')} of ${foreignName(facts.model.name || facts.model.id, 80)}?`,
    message: [
      `Delete ${plural(count, 'checkpoint')} of ${modelNamed(facts.model)}.`,
      `Steps: ${stepRanges(facts.steps)}`,
      `Training API: ${facts.origin}`,
      'Their weights are gone for good: this cannot be undone.',
    ].join('\n'),
  };
}

export function startSftConfirmation(facts: { model: NamedModel; dataUrl: string; batchSize?: number | string; learningRate?: number | readonly number[]; origin: string }): Confirmation {
  const lines = [`Fine-tune ${modelNamed(facts.model)} on the data at this URL:`, ...urlLines('Data URL', facts.dataUrl)];
  if (facts.batchSize !== undefined || facts.learningRate !== undefined)
    lines.push(`Batch size ${facts.batchSize ?? 'auto'}, learning rate ${facts.learningRate === undefined ? 'default' : [facts.learningRate].flat().join(', ')}.`);
  lines.push(`Training API: ${facts.origin}`, 'The platform reads the data from that URL and trains on its GPUs.');
  return { title: 'Start a supervised fine-tuning job?', message: lines.join('\n') };
}

export function startTrainingConfirmation(facts: { model: NamedModel; file: string; groups: number; trajectories: number; digest: string; learningRate?: number; origin: string }): Confirmation {
  return {
    title: 'Start an RL training job?',
    message: [
      `Train ${modelNamed(facts.model)} on ${quoted(facts.file, maxPathChars)}: ${plural(facts.groups, 'trajectory group')}, ${plural(facts.trajectories, 'trajectory', 'trajectories')}${facts.learningRate !== undefined ? `, learning rate ${facts.learningRate}` : ''}.`,
      `Training API: ${facts.origin}`,
      `The groups are sent as read now (sha256 ${facts.digest.slice(0, 16)}); if the file changes before you continue, nothing is sent. The training uses the platform's GPUs.`,
    ].join('\n'),
  };
}

export function createModelConfirmation(facts: { name: string; project: string; baseModel: string; returnExisting: boolean; origin: string }): Confirmation {
  return {
    title: 'Create a training model?',
    message: [
      `Create the training model ${foreignName(facts.name)} in project ${foreignName(facts.project)}, from base model ${foreignName(facts.baseModel)}.${facts.returnExisting ? ' If the name is taken, the existing model is used.' : ''}`,
      `Training API: ${facts.origin}`,
    ].join('\n'),
  };
}

export function evaluateCheckpointsConfirmation(facts: {
  model: NamedModel;
  steps: readonly number[];
  withBase: boolean;
  evalSet: string;
  samples: number;
  models: number;
  answersPerSample: number;
  scorers: readonly string[];
  resultsFile: string;
  origin: string;
}): Confirmation {
  const requests = facts.samples * facts.models * facts.answersPerSample;
  return {
    title: 'Evaluate checkpoints?',
    message: [
      `Evaluate ${modelNamed(facts.model)} on ${quoted(facts.evalSet, maxPathChars)}.`,
      `Checkpoints: steps ${stepRanges(facts.steps)}${facts.withBase ? ', and the base model (step 0)' : ''}`,
      `Requests: ${facts.samples} samples × ${facts.models} models × ${facts.answersPerSample} answers = up to ${requests} chat completions`,
      `Training API: ${facts.origin}`,
      `Scored by: ${facts.scorers.map((scorer) => foreignName(scorer, 80)).join(', ')}`,
      `Answers already in ${quoted(facts.resultsFile, maxPathChars)} are reused. The report opens as it runs; if the eval set changes before you continue, nothing is sent.`,
    ].join('\n'),
  };
}

export function sendWebhookTestConfirmation(facts: { file: string; bytes: number; webhook: string; endpoint: string; hasAccessToken: boolean; secretName?: string }): Confirmation {
  const credentials = [facts.hasAccessToken ? 'with its access token' : 'without an access token', facts.secretName ? `signed with its secret ${foreignName(facts.secretName, 80)}` : 'unsigned'];
  return {
    title: 'Send a webhook test?',
    message: [
      `Send ${quoted(facts.file, maxPathChars)}, rendered with the sample event (about ${facts.bytes} bytes), as a POST to webhook ${foreignName(facts.webhook)}:`,
      ...urlLines('Endpoint', facts.endpoint),
      `Sent ${credentials.join(', ')}.`,
      'The endpoint receives it as a real event would arrive; if the payload or the webhook changes before you continue, nothing is sent.',
    ].join('\n'),
  };
}
