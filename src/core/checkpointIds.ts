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

/** Reads `entity/project/name`, as typed when adding a model by id; undefined when malformed. */
export function parseCoordinates(text: string): ModelCoordinates | undefined {
  const trimmed = text.trim().replace(/^wandb-artifact:\/\/\//, '').replace(/:step\d+$/, '');
  const parts = trimmed.split('/');
  if (parts.length !== 3 || parts.some((part) => part === '' || /\s/.test(part))) return undefined;
  const [entity, project, name] = parts as [string, string, string];
  return { entity, project, name };
}
