/**
 * The words of each costly tool's confirmation: everything that will happen, one fact a line, never
 * cut. Every step is named (as ranges), the model by name and id, the whole host of every URL on a
 * line of its own, every count; names from a server or a file are quoted on one line. The tool then
 * does exactly what these words say (see confirmedPlans). No `vscode` import: tested in Node.
 */
import { quoted, stepRanges, urlLines } from '../kit/confirmationText';
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

/**
 * A modal dialog's confirmation (its question, the lines under it, the button) as VS Code's tool
 * confirmation: the question is the title and the lines the message (VS Code adds its own buttons).
 * Tools whose action a command also offers confirm with the command's words, built once by the feature.
 */
export function toolConfirmationOf(dialog: { message: string; detail: string }): Confirmation {
  return { title: dialog.message, message: dialog.detail };
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
