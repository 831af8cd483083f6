/**
 * What makes an answer reusable: the model, the sample (its id, prompt and reference; not its
 * metadata, which changes no request), the parameters of the request and the draw. A changed
 * sample or parameter gives another key, so the next run asks it again; anything else is reused.
 * The id is in the key because two samples may share a prompt (a set that gives its own ids may
 * hold the same prompt twice) and each answer belongs to one sample.
 *
 * `n` is left out: draw 2 of a run with n = 4 is the same request as draw 2 with n = 8 (its seed is
 * `drawSeed`), so raising `n` asks only the new draws.
 */
import { canonicalJson, sha256Hex } from './canonicalJson';
import type { EvalParameters, EvalSample } from './evalModel';

/** 32 hex digits (128 bits): no two of a run's answers share one by chance. */
const keyChars = 32;
/** Bumped when what a key covers changes, so older files are asked again rather than misread. */
const keyVersion = 1;

export function cacheKey(model: string, sample: Pick<EvalSample, 'id' | 'messages' | 'reference'>, parameters: EvalParameters, draw: number): string {
  // The run's seed and the draw, not only the seed sent: draw 1 of seed 42 and draw 0 of seed 43 send
  // the same seed but are different answers of the results file.
  const request = { temperature: parameters.temperature, seed: parameters.seed, draw, maxTokens: parameters.maxTokens, topP: parameters.topP };
  return sha256Hex(canonicalJson({ v: keyVersion, model, sample: sample.id, messages: sample.messages, reference: sample.reference ?? null, request }), keyChars);
}

/** The seed sent for draw `draw`: each draw its own, fixed, so a draw is the same request every run. */
export function drawSeed(parameters: EvalParameters, draw: number): number {
  return parameters.seed + draw;
}
