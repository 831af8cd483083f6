/**
 * A canary pinned to a training model: the eval set and scorers every new checkpoint of the model
 * is evaluated on, and the newest step already seen (later ones are new). Kept in the workspace's
 * state, read back through `readPins`, which keeps only well-formed pins (at most `maxPins`).
 */
import { isRecord, own } from '../../../platform/kit/plainValues';
import type { EvalParameters } from '../evalModel';
import type { NamedScorer } from '../../../platform/scoring/scorerSpec';
import { readScorers } from '../../../platform/scoring/scorerSpecs';

export interface CanaryPin {
  /** The training model's id. */
  modelId: string;
  /** Its name when pinned, for messages and the results file's name. */
  modelName: string;
  /** The eval set, as a URI string of the workspace. */
  setUri: string;
  scorers: NamedScorer[];
  /** The newest checkpoint step seen; a listed step above it is new. */
  seenStep: number;
}

export const maxPins = 10;
/** New checkpoints evaluated from one look at a model: when more came at once, the newest. */
export const maxNewPerLook = 3;

/** Every canary asks alike: greedy, seeded, one answer, so two checkpoints differ by their weights alone. */
export const canaryParameters: EvalParameters = { temperature: 0, seed: 0, n: 1, maxTokens: 512 };

export function readPins(raw: unknown): CanaryPin[] {
  if (!Array.isArray(raw)) return [];
  const pins: CanaryPin[] = [];
  for (const value of raw.slice(0, maxPins)) {
    if (!isRecord(value)) continue;
    const modelId = own(value, 'modelId');
    const setUri = own(value, 'setUri');
    const seenStep = own(value, 'seenStep');
    const modelName = own(value, 'modelName');
    const scorers = readScorers(own(value, 'scorers'));
    if (typeof modelId !== 'string' || modelId === '' || modelId.length > 300) continue;
    if (typeof modelName !== 'string' || modelName === '' || modelName.length > 300) continue;
    if (typeof setUri !== 'string' || setUri === '' || setUri.length > 4_000) continue;
    if (typeof seenStep !== 'number' || !Number.isInteger(seenStep) || seenStep < -1) continue;
    if ('error' in scorers || scorers.scorers.length === 0 || scorers.scorers.some((scorer) => scorer.spec.kind === 'command')) continue;
    if (pins.some((pin) => pin.modelId === modelId)) continue;
    pins.push({ modelId, modelName, setUri, scorers: scorers.scorers, seenStep });
  }
  return pins;
}

/**
 * The steps to evaluate now among those listed: the ones after `seenStep`, oldest first, at most
 * `maxNewPerLook` (the newest; the others are `skipped`).
 */
export function newSteps(listed: readonly number[], seenStep: number): { evaluate: number[]; skipped: number[] } {
  const fresh = [...new Set(listed.filter((step) => Number.isInteger(step) && step > seenStep))].sort((a, b) => a - b);
  const cut = Math.max(0, fresh.length - maxNewPerLook);
  return { evaluate: fresh.slice(cut), skipped: fresh.slice(0, cut) };
}

/** The results file's base name for a model's canary: `canary-<model name>` (a file name's characters only). */
export function canaryFileStem(modelName: string): string {
  const name = modelName.split('/').at(-1) ?? modelName;
  return `canary-${name.replace(/[^\w.-]+/g, '-').slice(0, 80) || 'model'}`;
}
