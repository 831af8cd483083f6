/**
 * The results file of a run (`*.rleval.json`): read back with every field checked, merged with new
 * answers, and written as JSON that reads and diffs well: 2-space indent, fields in a fixed order,
 * answers sorted by model (in the run's order), sample (in the set's order) and draw, so one answer
 * changing changes only its own lines. Bounded: the file's size, the number of answers, and each
 * answer's text (`evalLimits.maxScoredChars`).
 */
import { firstTooDeep, tooDeepMessage } from '../../platform/kit/strictJson';
import { isRecord, own, setOwn } from '../../platform/kit/plainValues';
import { evalLimits, type AnswerRecord, type EvalModelRef, type EvalParameters, type EvalRunFile } from './evalModel';
import { readScorers } from '../../platform/scoring/scorerSpecs';
import { errorMessage } from '../../platform/client/errorMessage';

/** 256 MiB: a run at every limit with long answers; well below what a JS string can hold. */
export const maxRunFileChars = 256 * 1024 * 1024;
/** Answers a run may hold: samples × models × draws past it are refused before a run starts. */
export const maxRunAnswers = 1_000_000;

export type ParsedRunFile = { ok: true; run: EvalRunFile; notes: string[] } | { ok: false; error: string };

/** Scores read per answer: room for the run's scorers and some that were removed since. */
const maxScoresPerAnswer = 4 * evalLimits.scorers;
/** Answers skipped for being malformed are counted in one note each up to this many. */
const maxNotes = 20;

export function parseRunFile(text: string): ParsedRunFile {
  const fail = (error: string): ParsedRunFile => ({ ok: false, error: `The results file cannot be read: ${error}.` });
  if (text.length > maxRunFileChars) return fail(`it is larger than ${maxRunFileChars / 1024 / 1024} MB`);
  if (firstTooDeep(text) >= 0) return fail(`its JSON is ${tooDeepMessage}`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return fail(`it is not JSON (${errorMessage(error)})`);
  }
  if (!isRecord(value) || own(value, 'kind') !== 'rl-studio-eval') return fail('it is not an RL Studio evaluation (its "kind" is not "rl-studio-eval")');
  if (own(value, 'version') !== 1) return fail(`it is of version ${String(own(value, 'version'))}, which this version of RL Studio does not read`);
  const set = readSet(own(value, 'set'));
  if (typeof set === 'string') return fail(set);
  const scorers = readScorers(own(value, 'scorers'));
  if ('error' in scorers) return fail(scorers.error);
  const parameters = readParameters(own(value, 'parameters'));
  if (typeof parameters === 'string') return fail(parameters);
  const models = readModels(own(value, 'models'));
  if (typeof models === 'string') return fail(models);
  const rawAnswers = own(value, 'answers');
  if (!Array.isArray(rawAnswers)) return fail('"answers" must be a list');
  if (rawAnswers.length > maxRunAnswers) return fail(`it holds ${rawAnswers.length} answers, more than the ${maxRunAnswers} a run may have`);
  const notes: string[] = [];
  const answers: AnswerRecord[] = [];
  const keys = new Set<string>();
  let skipped = 0;
  for (let at = 0; at < rawAnswers.length; at++) {
    const answer = readAnswer(rawAnswers[at]);
    const problem = typeof answer === 'string' ? answer : keys.has(answer.key) ? 'its key is the key of an earlier answer' : undefined;
    if (problem !== undefined) {
      if (++skipped <= maxNotes) notes.push(`Answer ${at + 1} is left out (it will be asked again): ${problem}.`);
      continue;
    }
    keys.add((answer as AnswerRecord).key);
    answers.push(answer as AnswerRecord);
  }
  if (skipped > maxNotes) notes.push(`${skipped - maxNotes} more answers are left out.`);
  const createdAt = own(value, 'createdAt');
  const updatedAt = own(value, 'updatedAt');
  const run: EvalRunFile = {
    kind: 'rl-studio-eval',
    version: 1,
    set,
    scorers: scorers.scorers,
    parameters,
    models,
    answers,
    createdAt: typeof createdAt === 'string' ? createdAt : '',
    updatedAt: typeof updatedAt === 'string' ? updatedAt : '',
  };
  return { ok: true, run, notes };
}

function readSet(value: unknown): EvalRunFile['set'] | string {
  if (!isRecord(value)) return '"set" must be an object';
  const path = own(value, 'path');
  const hash = own(value, 'hash');
  const samples = own(value, 'samples');
  if (typeof path !== 'string' || typeof hash !== 'string' || !isCount(samples)) return '"set" needs "path" and "hash" as text and "samples" as a count';
  return { path, hash, samples };
}

function readParameters(value: unknown): EvalParameters | string {
  if (!isRecord(value)) return '"parameters" must be an object';
  const number = (key: string): number | undefined => {
    const field = own(value, key);
    return typeof field === 'number' && Number.isFinite(field) ? field : undefined;
  };
  const temperature = number('temperature');
  const seed = number('seed');
  const n = number('n');
  const maxTokens = number('maxTokens');
  if (temperature === undefined || seed === undefined || n === undefined || maxTokens === undefined) return '"parameters" needs "temperature", "seed", "n" and "maxTokens" as numbers';
  if (!Number.isInteger(n) || n < 1 || n > evalLimits.draws) return `"parameters.n" must be a whole number from 1 to ${evalLimits.draws}`;
  const parameters: EvalParameters = { temperature, seed, n, maxTokens };
  const topP = number('topP');
  if (topP !== undefined) parameters.topP = topP;
  return parameters;
}

const modelKinds = new Set(['checkpoint', 'base', 'catalogue']);

function readModels(value: unknown): EvalModelRef[] | string {
  if (!Array.isArray(value)) return '"models" must be a list';
  if (value.length > evalLimits.models) return `"models" lists ${value.length} models, more than the ${evalLimits.models} a run may compare`;
  const models: EvalModelRef[] = [];
  for (let at = 0; at < value.length; at++) {
    const entry: unknown = value[at];
    if (!isRecord(entry)) return `model ${at + 1} must be an object`;
    const id = own(entry, 'id');
    const label = own(entry, 'label');
    const kind = own(entry, 'kind');
    const api = own(entry, 'api');
    if (typeof id !== 'string' || id === '' || typeof label !== 'string') return `model ${at + 1} needs an "id" and a "label" as text`;
    if (typeof kind !== 'string' || !modelKinds.has(kind)) return `model ${at + 1}'s "kind" must be checkpoint, base or catalogue`;
    if (api !== 'training' && api !== 'inference') return `model ${at + 1}'s "api" must be training or inference`;
    if (models.some((model) => model.id === id)) return `the model "${id}" is listed twice`;
    const model: EvalModelRef = { id, label, kind: kind as EvalModelRef['kind'], api };
    const step = own(entry, 'step');
    if (isCount(step)) model.step = step;
    const trainingModelId = own(entry, 'trainingModelId');
    if (typeof trainingModelId === 'string') model.trainingModelId = trainingModelId;
    const metrics = numbersOf(own(entry, 'metrics'));
    if (metrics) model.metrics = metrics;
    models.push(model);
  }
  return models;
}

function readAnswer(value: unknown): AnswerRecord | string {
  if (!isRecord(value)) return 'it is not an object';
  const model = own(value, 'model');
  const sample = own(value, 'sample');
  const draw = own(value, 'draw');
  const key = own(value, 'key');
  if (typeof model !== 'string' || typeof sample !== 'string' || typeof key !== 'string' || key === '' || !isCount(draw)) return 'it needs "model", "sample" and "key" as text and "draw" as a count';
  const scores = own(value, 'scores');
  if (scores !== undefined && !isRecord(scores)) return '"scores" must be an object';
  const answer: AnswerRecord = { model, sample, draw, key, scores: {} };
  const names = Object.keys(scores ?? {});
  if (names.length > maxScoresPerAnswer) return `it has ${names.length} scores, more than the ${maxScoresPerAnswer} read`;
  for (const name of names) {
    const score = own(scores!, name);
    if (typeof score === 'number' && Number.isFinite(score)) setOwn(answer.scores, name, score);
    else if (isRecord(score) && typeof own(score, 'error') === 'string') setOwn(answer.scores, name, { error: own(score, 'error') as string });
    else return `the score "${name}" is neither a number nor an error`;
  }
  const text = own(value, 'text');
  if (typeof text === 'string') answer.text = text.slice(0, evalLimits.maxScoredChars);
  const finishReason = own(value, 'finishReason');
  if (typeof finishReason === 'string') answer.finishReason = finishReason;
  const error = own(value, 'error');
  if (typeof error === 'string') answer.error = error;
  if (answer.text === undefined && answer.error === undefined) return 'it has neither "text" nor "error"';
  const latencyMs = own(value, 'latencyMs');
  if (typeof latencyMs === 'number' && Number.isFinite(latencyMs)) answer.latencyMs = latencyMs;
  const usage = own(value, 'usage');
  if (isRecord(usage) && isCount(own(usage, 'promptTokens')) && isCount(own(usage, 'completionTokens'))) {
    answer.usage = { promptTokens: own(usage, 'promptTokens') as number, completionTokens: own(usage, 'completionTokens') as number };
  }
  return answer;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function numbersOf(value: unknown): Record<string, number> | undefined {
  if (!isRecord(value)) return undefined;
  const numbers: Record<string, number> = {};
  for (const key of Object.keys(value).slice(0, 256)) {
    const field = own(value, key);
    if (typeof field === 'number' && Number.isFinite(field)) setOwn(numbers, key, field);
  }
  return numbers;
}

/**
 * The run with `answers` in: each replaces the answer of the same key, or is added. Answers are
 * then sorted (see `sortAnswers`); `sampleOrder` is the set's sample ids in order.
 */
export function mergeAnswers(run: EvalRunFile, answers: readonly AnswerRecord[], options: { sampleOrder?: readonly string[]; updatedAt?: string } = {}): EvalRunFile {
  const byKey = new Map<string, AnswerRecord>();
  for (const answer of run.answers) byKey.set(answer.key, answer);
  for (const answer of answers) byKey.set(answer.key, answer);
  const merged = sortAnswers([...byKey.values()], run.models, options.sampleOrder);
  return { ...run, answers: merged, updatedAt: options.updatedAt ?? run.updatedAt };
}

/**
 * Model (the run's order; models it does not list after, in the order met), then sample (the
 * set's order when given, then the order met), then draw; the key settles anything left.
 */
export function sortAnswers(answers: readonly AnswerRecord[], models: readonly EvalModelRef[], sampleOrder: readonly string[] = []): AnswerRecord[] {
  const modelRank = new Map(models.map((model, at) => [model.id, at]));
  const sampleRank = new Map(sampleOrder.map((sample, at) => [sample, at]));
  for (const answer of answers) {
    if (!modelRank.has(answer.model)) modelRank.set(answer.model, modelRank.size);
    if (!sampleRank.has(answer.sample)) sampleRank.set(answer.sample, sampleRank.size);
  }
  return [...answers].sort(
    (a, b) => modelRank.get(a.model)! - modelRank.get(b.model)! || sampleRank.get(a.sample)! - sampleRank.get(b.sample)! || a.draw - b.draw || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
  );
}

/** The file's text: fields in a fixed order, scores in the run's scorer order, 2-space indent, a final newline. */
export function serializeRunFile(run: EvalRunFile): string {
  const scorerOrder = run.scorers.map((scorer) => scorer.name);
  const ordered = {
    kind: run.kind,
    version: run.version,
    set: { path: run.set.path, hash: run.set.hash, samples: run.set.samples },
    scorers: run.scorers.map((scorer) => ({ name: scorer.name, spec: scorer.spec })),
    parameters: { temperature: run.parameters.temperature, seed: run.parameters.seed, n: run.parameters.n, maxTokens: run.parameters.maxTokens, topP: run.parameters.topP },
    models: run.models.map((model) => ({
      id: model.id,
      label: model.label,
      kind: model.kind,
      api: model.api,
      step: model.step,
      trainingModelId: model.trainingModelId,
      metrics: model.metrics,
    })),
    createdAt: run.createdAt,
    updatedAt: run.updatedAt,
    answers: run.answers.map((answer) => orderedAnswer(answer, scorerOrder)),
  };
  return `${JSON.stringify(ordered, null, 2)}\n`;
}

function orderedAnswer(answer: AnswerRecord, scorerOrder: readonly string[]): unknown {
  const scores: Record<string, unknown> = {};
  const names = Object.keys(answer.scores);
  const known = scorerOrder.filter((name) => names.includes(name));
  for (const name of [...known, ...names.filter((name) => !scorerOrder.includes(name)).sort()]) setOwn(scores, name, answer.scores[name]);
  return {
    model: answer.model,
    sample: answer.sample,
    draw: answer.draw,
    key: answer.key,
    text: answer.text,
    finishReason: answer.finishReason,
    error: answer.error,
    scores,
    latencyMs: answer.latencyMs,
    usage: answer.usage,
  };
}
