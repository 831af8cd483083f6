/**
 * The words of Follow on Platform: what is asked of the training API when a local model is followed
 * by its name. Foreign text (names from model.json and folder names) is quoted; the training API's
 * whole host is on a line of its own, as every confirmation of the training feature names it.
 */
import type { CreateModelRequest } from '../../platform/client/types';
import { escapeForOneLine, quoted, urlLines } from '../../platform/kit/confirmationText';

export interface FollowConfirmation {
  message: string;
  detail: string;
  action: string;
}

/** `folder`: the local model folder the followed model is linked to. */
export function followConfirmation(request: CreateModelRequest, trainingApiUrl: string, folder: string): FollowConfirmation {
  const where = request.entity ? `${request.entity}/${request.project}` : `${request.project} (your default entity)`;
  return {
    message: `Follow the local model ${quoted(request.name)} on the platform, in ${quoted(where)}?`,
    detail: [
      `Name: ${quoted(request.name)}`,
      `Project: ${quoted(request.project)}`,
      `Entity: ${request.entity ? quoted(request.entity) : 'your default entity'}`,
      `If no model ${quoted(request.name)} exists in ${quoted(where)}, one is created with base model ${quoted(request.base_model)}. If one exists, it is added as it is.`,
      ...urlLines('Training API', trainingApiUrl),
      `Local folder: ${escapeForOneLine(folder)}`,
      'The model is then listed in the Models view with its checkpoints, and linked to this folder. Nothing of the folder is sent.',
    ].join('\n'),
    action: 'Follow Model',
  };
}

/** Why a model cannot be followed as it is, or undefined. */
export function followProblem(facts: { trainable?: boolean } | undefined): string | undefined {
  if (facts?.trainable === false) return 'its model.json says it is not trainable (a plain model): the platform trains trainable models only';
  return undefined;
}
