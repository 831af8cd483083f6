/** Which model ids a chat request may name on each API. */
import type { EmulatorEnv } from './context';
import type { ApiName } from './httpError';

const ARTIFACT_ID = /^wandb-artifact:\/\/\/([^/]+)\/([^/]+)\/([^:/]+)(?::(step\d+|latest))?$/;

/** True when `id` names an existing checkpoint (`…:stepN`) or a model with checkpoints (no suffix = latest). */
export function isServedCheckpoint(env: EmulatorEnv, id: string): boolean {
  const match = ARTIFACT_ID.exec(id);
  if (!match) return false;
  const [, entity, project, name, suffix] = match;
  const model = env.state.findModelByName(entity!, project!, name!);
  if (!model) return false;
  if (suffix === undefined || suffix === 'latest') return model.checkpoints.size > 0;
  return model.checkpoints.byStep(Number(suffix.slice('step'.length))) !== undefined;
}

export function isServedModel(env: EmulatorEnv, api: ApiName, id: string): boolean {
  if (isServedCheckpoint(env, id)) return true;
  if (api === 'training') return env.baseModels.includes(id);
  return env.inferenceModels.some((model) => model.id === id);
}
