/**
 * Checkpoint model ids: how a trained checkpoint is named to chat completions,
 * `wandb-artifact:///<entity>/<project>/<name>:step<N>` (no suffix: the latest step). Built and read
 * here only; every other model id is a catalogue model of the inference API.
 */
import { readModelReference, type ModelCoordinates } from './modelReference';

/** A checkpoint model id read back: the model's names and the step (undefined: the latest). */
export interface CheckpointReference extends ModelCoordinates {
  step?: number;
}

export const checkpointScheme = 'wandb-artifact:///';

/** The id that serves a checkpoint through chat completions; undefined when a name is missing. */
export function checkpointModelId(model: ModelCoordinates, step?: number): string | undefined {
  if (!model.entity || !model.project || !model.name) return undefined;
  const base = `${checkpointScheme}${model.entity}/${model.project}/${model.name}`;
  return step === undefined ? base : `${base}:step${step}`;
}

/** Whether a model id is in the checkpoint scheme (and so served by the training API). */
export function isCheckpointModelId(modelId: string): boolean {
  return modelId.startsWith(checkpointScheme);
}

/**
 * Reads a checkpoint model id with the rules of what a person may type (src/platform/kit/modelReference.ts);
 * undefined for anything else, `entity/project/name` without the scheme included.
 */
export function parseCheckpointModelId(modelId: string): CheckpointReference | undefined {
  if (!isCheckpointModelId(modelId)) return undefined;
  const reading = readModelReference(modelId, { project: '', allowId: false });
  if (!reading.ok || reading.reference.form !== 'artifact') return undefined;
  const { coordinates, step } = reading.reference;
  return step === undefined ? { ...coordinates } : { ...coordinates, step };
}
