import type { ExperimentalConfig } from '../../platform/client/types';
import { firstTooDeep, maxJsonDepth } from '../../platform/kit/strictJson';
import { errorMessage } from '../../platform/client/errorMessage';
import { setOwn } from '../../platform/kit/plainValues';

export type ConfigCheck = { ok: true; value: ExperimentalConfig | undefined } | { ok: false; message: string };

type Kind = 'number' | 'boolean' | 'integer' | 'string' | string[];

/**
 * Keys the official client's experimental training config names, with their types; other keys pass
 * through unchecked.
 */
const known: Record<string, Kind> = {
  advantage_balance: 'number',
  allow_training_without_logprobs: 'boolean',
  epsilon: 'number',
  epsilon_high: 'number',
  importance_sampling_level: ['token', 'sequence', 'average', 'geometric_average'],
  kimi_k2_tau: 'number',
  kl_penalty_coef: 'number',
  kl_penalty_reference_step: 'integer',
  kl_penalty_source: ['current_learner', 'sample'],
  kl_penalty_step_lag: 'integer',
  kl_ref_adapter_path: 'string',
  learning_rate: 'number',
  logprob_calculation_chunk_size: 'integer',
  loss_fn: ['cispo', 'ppo'],
  mask_prob_ratio: 'boolean',
  max_negative_advantage_importance_sampling_weight: 'number',
  normalize_advantages: 'boolean',
  num_trajectories_learning_rate_multiplier_power: 'number',
  packed_sequence_length: 'integer',
  plot_tensors: 'boolean',
  ppo: 'boolean',
  precalculate_logprobs: 'boolean',
  scale_learning_rate_by_reward_std_dev: 'boolean',
  scale_rewards: 'boolean',
  truncated_importance_sampling: 'number',
};

/** A config is a handful of settings; anything longer is a paste gone wrong, and it is checked on every keystroke. */
export const maxExperimentalConfigLength = 100_000;

/**
 * Reads an experimental config typed by the user: empty means none; otherwise a JSON object whose
 * known keys have the right types. Unknown keys are allowed, since the platform accepts others. A
 * key set to `null` is unset, as in the config the official client sends (every key it knows, the
 * unset ones `null`): it is left out, and a config with nothing set is none.
 */
export function parseExperimentalConfig(text: string): ConfigCheck {
  if (text.trim() === '') return { ok: true, value: undefined };
  if (text.length > maxExperimentalConfigLength) return { ok: false, message: `Too long: an experimental config is at most ${maxExperimentalConfigLength.toLocaleString('en-US')} characters` };
  // The config is sent as JSON, and serialising it again recurses once per level.
  if (firstTooDeep(text) >= 0) return { ok: false, message: `Nested deeper than ${maxJsonDepth} levels: an experimental config is a flat object of settings` };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `Not valid JSON: ${errorMessage(error)}` };
  }
  // `null` is what the official client sends for no config.
  if (value === null) return { ok: true, value: undefined };
  if (typeof value !== 'object' || Array.isArray(value)) return { ok: false, message: 'Enter a JSON object, for example {"learning_rate": 1e-5}' };
  const set: ExperimentalConfig = {};
  for (const [key, entry] of Object.entries(value)) {
    if (entry === null) continue;
    const problem = wrongType(key, entry);
    if (problem) return { ok: false, message: problem };
    setOwn(set, key, entry);
  }
  return { ok: true, value: Object.keys(set).length > 0 ? set : undefined };
}

/** Why a known key's value is not of its type, or undefined when it is (or the key is not known). */
function wrongType(key: string, entry: unknown): string | undefined {
  const kind = Object.prototype.hasOwnProperty.call(known, key) ? known[key] : undefined;
  if (!kind) return undefined;
  if (Array.isArray(kind)) {
    return typeof entry === 'string' && kind.includes(entry) ? undefined : `"${key}" must be one of ${kind.map((option) => `"${option}"`).join(', ')} (or null for unset)`;
  }
  if (kind === 'boolean') return typeof entry === 'boolean' ? undefined : `"${key}" must be true or false (or null for unset)`;
  if (kind === 'string') return typeof entry === 'string' ? undefined : `"${key}" must be a string (or null for unset)`;
  if (typeof entry !== 'number' || !Number.isFinite(entry) || (kind === 'integer' && !Number.isInteger(entry))) {
    return `"${key}" must be ${kind === 'integer' ? 'an integer' : 'a number'} (or null for unset)`;
  }
  return undefined;
}
