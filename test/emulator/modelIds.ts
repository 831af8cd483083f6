/** Which model ids a chat request may name on each API. */
import type { EmulatorEnv } from './context';
import type { ApiName } from './httpError';

const ARTIFACT_ID = /^wandb-artifact:\/\/\/([^/]+)\/([^/]+)\/([^:/]+)(?::(step\d+|latest))?$/;

export interface ServedCheckpoint {
  /** `entity/project/name` of the training model. */
  trainingModel: string;
  step: number;
}

/** The existing checkpoint `id` names (`…:stepN`, or no suffix or `:latest` for the latest one), if any. */
export function servedCheckpoint(env: EmulatorEnv, id: string): ServedCheckpoint | undefined {
  const match = ARTIFACT_ID.exec(id);
  if (!match) return undefined;
  const [, entity, project, name, suffix] = match;
  const model = env.state.findModelByName(entity!, project!, name!);
  if (!model) return undefined;
  const checkpoint = suffix === undefined || suffix === 'latest' ? model.checkpoints.latest() : model.checkpoints.byStep(Number(suffix.slice('step'.length)));
  return checkpoint ? { trainingModel: `${entity}/${project}/${name}`, step: checkpoint.step } : undefined;
}

export function isServedModel(env: EmulatorEnv, api: ApiName, id: string): boolean {
  if (servedCheckpoint(env, id)) return true;
  if (api === 'training') return env.baseModels.includes(id);
  return env.inferenceModels.some((model) => model.id === id);
}
