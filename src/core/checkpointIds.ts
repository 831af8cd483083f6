import { readModelReference } from './modelReference';

/** Names of a training model as the checkpoint model ids need them. */
export interface ModelCoordinates {
  entity: string;
  project: string;
  name: string;
}

const scheme = 'wandb-artifact:///';

/** The id that serves a checkpoint through chat completions: `wandb-artifact:///entity/project/name:stepN`. */
export function checkpointModelId(model: ModelCoordinates, step?: number): string | undefined {
  if (!model.entity || !model.project || !model.name) return undefined;
  const base = `${scheme}${model.entity}/${model.project}/${model.name}`;
  return step === undefined ? base : `${base}:step${step}`;
}

/** Reads `entity/project/name` (or a checkpoint model id); undefined when malformed. */
export function parseCoordinates(text: string): ModelCoordinates | undefined {
  const reading = readModelReference(text, { project: '', allowId: false });
  return reading.ok && reading.reference.form !== 'id' ? reading.reference.coordinates : undefined;
}
