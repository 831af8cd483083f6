import type { ExperimentalConfig } from '../../platform/client/types';
import { firstTooDeep, maxJsonDepth } from '../../platform/kit/strictJson';
import { errorMessage } from '../../platform/client/errorMessage';

export type ConfigCheck = { ok: true; value: ExperimentalConfig | undefined } | { ok: false; message: string };

type Kind = 'number' | 'boolean' | 'integer' | string[];

/** Keys the wire reference names, with their types; other keys pass through unchecked. */
const known: Record<string, Kind> = {
  learning_rate: 'number',
  loss_fn: ['cispo', 'ppo'],
  normalize_advantages: 'boolean',
  scale_rewards: 'boolean',
  kl_penalty_coef: 'number',
  importance_sampling_level: ['token', 'sequence', 'average', 'geometric_average'],
  allow_training_without_logprobs: 'boolean',
  epsilon: 'number',
  epsilon_high: 'number',
  packed_sequence_length: 'integer',
};

/** A config is a handful of settings; anything longer is a paste gone wrong, and it is checked on every keystroke. */
export const maxExperimentalConfigLength = 100_000;

/**
 * Reads an experimental config typed by the user: empty means none; otherwise a JSON object whose
 * known keys have the right types. Unknown keys are allowed, since the platform accepts others.
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
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, message: 'Enter a JSON object, for example {"learning_rate": 1e-5}' };
  for (const [key, entry] of Object.entries(value)) {
    const kind = known[key];
    if (!kind) continue;
    if (Array.isArray(kind)) {
      if (typeof entry !== 'string' || !kind.includes(entry)) return { ok: false, message: `"${key}" must be one of ${kind.map((option) => `"${option}"`).join(', ')}` };
    } else if (kind === 'boolean') {
      if (typeof entry !== 'boolean') return { ok: false, message: `"${key}" must be true or false` };
    } else if (typeof entry !== 'number' || !Number.isFinite(entry) || (kind === 'integer' && !Number.isInteger(entry))) {
      return { ok: false, message: `"${key}" must be ${kind === 'integer' ? 'an integer' : 'a number'}` };
    }
  }
  return { ok: true, value: value as ExperimentalConfig };
}
