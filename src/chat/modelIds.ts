/**
 * Model ids the chat understands. Trained checkpoints are served by the training API under
 * `wandb-artifact:///<entity>/<project>/<name>:step<N>` (no suffix: the latest step); every other
 * id is a catalogue model of the inference API.
 */

export type ChatApi = 'inference' | 'training';

const artifactPrefix = 'wandb-artifact:///';

export interface CheckpointRef {
  entity: string;
  project: string;
  name: string;
  /** Undefined for the latest checkpoint. */
  step?: number;
}

export function apiForModel(modelId: string): ChatApi {
  return modelId.startsWith(artifactPrefix) ? 'training' : 'inference';
}

export function checkpointModelId(ref: CheckpointRef): string {
  const base = `${artifactPrefix}${ref.entity}/${ref.project}/${ref.name}`;
  return ref.step === undefined ? base : `${base}:step${ref.step}`;
}

export function parseCheckpointModelId(modelId: string): CheckpointRef | undefined {
  if (!modelId.startsWith(artifactPrefix)) return undefined;
  const match = /^([^/]+)\/([^/]+)\/([^/:]+)(?::step(\d+))?$/.exec(modelId.slice(artifactPrefix.length));
  if (!match) return undefined;
  const [, entity, project, name, step] = match;
  return { entity: entity!, project: project!, name: name!, step: step === undefined ? undefined : Number(step) };
}

/** A short label for headers and tabs: `policy-001 · step 12`, or the catalogue id. */
export function shortModelLabel(modelId: string): string {
  const ref = parseCheckpointModelId(modelId);
  if (!ref) return modelId || 'no model';
  return ref.step === undefined ? `${ref.name} · latest` : `${ref.name} · step ${ref.step}`;
}
