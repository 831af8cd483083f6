/**
 * What a run still has to do: every sample against every model, `n` draws each, minus what the
 * existing results file already answered with the same key (cacheKey.ts). A failed answer is asked
 * again only when asked to (all failed ones, or the keys given), so re-running after a failure, or
 * after adding a checkpoint, sends only what is missing. Answers reused whose scores lack a scorer
 * of the run are listed to be scored, without a request. Answers of the file that the run no longer
 * covers (a model removed, a sample changed, other parameters) are dropped. A retry (`onlyRetry`)
 * asks exactly the failed answers it names and changes nothing else: no missing answer asked, no
 * answer kept scored again (a judge would send requests of its own), none dropped.
 */
import { cacheKey, drawSeed } from './cacheKey';
import type { AnswerRecord, EvalModelRef, EvalParameters, EvalRunFile, EvalSample } from './evalModel';
import type { NamedScorer } from '../../platform/scoring/scorerSpec';
import { evalLimits } from './evalModel';
import { maxRunAnswers } from './resultsFile';

/** One request to make: a model's answer to a sample, draw `draw`, sent with `seed`. */
export interface WorkItem {
  key: string;
  model: EvalModelRef;
  sample: EvalSample;
  draw: number;
  seed: number;
}

export interface RunPlan {
  /** Requests to make, in the results file's order (model, sample, draw). */
  items: WorkItem[];
  /** Answers kept from the existing file, as they are. */
  reused: AnswerRecord[];
  /** Reused answers some scorer of the run has not scored yet, with those scorers' names. */
  toScore: { answer: AnswerRecord; scorers: string[] }[];
  /** Answers of the existing file the run no longer covers. */
  dropped: number;
  /** Answers the run holds when done: items plus reused. */
  total: number;
}

export interface PlanInput {
  samples: readonly EvalSample[];
  models: readonly EvalModelRef[];
  parameters: EvalParameters;
  scorers: readonly NamedScorer[];
  existing?: EvalRunFile;
  /** Ask failed answers again: all of them, or those with these keys. */
  retryFailed?: boolean | readonly string[];
  /** Ask only the failed answers of `retryFailed`: answers missing from the file stay missing, every other answer is kept as it is and not scored again. */
  onlyRetry?: boolean;
}

/** Why sampling parameters (from a dialog or a file) cannot be sent, or undefined. */
export function checkParameters(parameters: EvalParameters): string | undefined {
  const { maxTokens, n, temperature, topP, seed } = parameters;
  if (!Number.isInteger(maxTokens) || maxTokens < 1 || maxTokens > evalLimits.maxTokens)
    return `max_tokens is ${formatCount(maxTokens)}; it must be a whole number from 1 to ${formatCount(evalLimits.maxTokens)}`;
  if (!Number.isInteger(n) || n < 1 || n > evalLimits.draws) return `answers per prompt must be a whole number from 1 to ${evalLimits.draws}`;
  if (!Number.isFinite(temperature) || temperature < 0 || temperature > 2) return `the temperature is ${temperature}; it must be from 0 to 2`;
  if (topP !== undefined && (!Number.isFinite(topP) || topP <= 0 || topP > 1)) return `top_p is ${topP}; it must be above 0 and at most 1`;
  if (!Number.isSafeInteger(seed)) return `the seed is ${seed}; it must be a whole number`;
  return undefined;
}

const formatCount = (value: number): string => (Number.isFinite(value) ? value.toLocaleString('en-US') : String(value));

/** Why a run of this size or shape cannot be planned, or undefined. */
export function checkRunSize(input: Pick<PlanInput, 'samples' | 'models' | 'parameters' | 'scorers'>): string | undefined {
  const { samples, models, parameters, scorers } = input;
  if (samples.length === 0) return 'the eval set has no samples';
  if (samples.length > evalLimits.samples) return `the eval set has ${samples.length} samples, more than the ${evalLimits.samples} a run may have`;
  if (models.length === 0) return 'no model is chosen';
  if (models.length > evalLimits.models) return `${models.length} models are chosen, more than the ${evalLimits.models} a run may compare`;
  const badParameters = checkParameters(parameters);
  if (badParameters) return badParameters;
  const answers = samples.length * models.length * parameters.n;
  if (answers > maxRunAnswers)
    return `the run would hold ${answers.toLocaleString('en-US')} answers, more than the ${maxRunAnswers.toLocaleString('en-US')} a run may have; choose fewer models, samples or answers per prompt`;
  if (scorers.length > evalLimits.scorers) return `${scorers.length} scorers are chosen, more than the ${evalLimits.scorers} a run may have`;
  if (new Set(models.map((model) => model.id)).size !== models.length) return 'a model is chosen twice';
  if (new Set(scorers.map((scorer) => scorer.name)).size !== scorers.length) return 'two scorers have the same name';
  return undefined;
}

/** Throws an Error whose message a person reads when the run is too large or malformed (see checkRunSize). */
export function planRun(input: PlanInput): RunPlan {
  const problem = checkRunSize(input);
  if (problem) throw new Error(`The evaluation cannot start: ${problem}.`);
  const { samples, models, parameters, scorers, existing, retryFailed } = input;
  const retryKeys = Array.isArray(retryFailed) ? new Set<string>(retryFailed) : undefined;
  const retry = (answer: AnswerRecord): boolean => answer.error !== undefined && (retryFailed === true || retryKeys?.has(answer.key) === true);
  if (input.onlyRetry) return planRetry(input, retry);
  const previous = new Map<string, AnswerRecord>();
  for (const answer of existing?.answers ?? []) if (!previous.has(answer.key)) previous.set(answer.key, answer);
  const scorerNames = scorers.map((scorer) => scorer.name);

  const plan: RunPlan = { items: [], reused: [], toScore: [], dropped: 0, total: 0 };
  let kept = 0;
  for (const model of models) {
    for (const sample of samples) {
      for (let draw = 0; draw < parameters.n; draw++) {
        const key = cacheKey(model.id, sample, parameters, draw);
        const answer = previous.get(key);
        if (answer) kept++;
        if (!answer || retry(answer)) {
          plan.items.push({ key, model, sample, draw, seed: drawSeed(parameters, draw) });
          continue;
        }
        plan.reused.push(answer);
        const missing = answer.error === undefined ? scorerNames.filter((name) => !Object.prototype.hasOwnProperty.call(answer.scores, name)) : [];
        if (missing.length > 0) plan.toScore.push({ answer, scorers: missing });
      }
    }
  }
  plan.dropped = previous.size - kept;
  plan.total = plan.items.length + plan.reused.length;
  return plan;
}

/**
 * A retry's plan, from the file's answers alone: each failed answer to retry whose key is still the
 * key of its model, sample and draw is asked again (one hash each, however large the run the file
 * describes); every other answer is kept as it is, and nothing is scored again.
 */
function planRetry(input: PlanInput, retry: (answer: AnswerRecord) => boolean): RunPlan {
  const { samples, models, parameters, existing } = input;
  const modelById = new Map(models.map((model) => [model.id, model]));
  const sampleById = new Map(samples.map((sample) => [sample.id, sample]));
  const plan: RunPlan = { items: [], reused: [], toScore: [], dropped: 0, total: 0 };
  const seen = new Set<string>();
  for (const answer of existing?.answers ?? []) {
    if (seen.has(answer.key)) continue;
    seen.add(answer.key);
    const model = modelById.get(answer.model);
    const sample = sampleById.get(answer.sample);
    if (retry(answer) && model && sample && answer.draw < parameters.n && cacheKey(model.id, sample, parameters, answer.draw) === answer.key) {
      plan.items.push({ key: answer.key, model, sample, draw: answer.draw, seed: drawSeed(parameters, answer.draw) });
    } else {
      plan.reused.push(answer);
    }
  }
  plan.total = plan.items.length + plan.reused.length;
  return plan;
}
