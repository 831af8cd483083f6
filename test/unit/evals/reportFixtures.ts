/**
 * An evaluation run made up for the report page's tests, screenshots and benchmark: checkpoints of
 * one training model (better with the steps up to a peak), optionally the base model and a
 * catalogue model, samples with prompts and references, answers scored by two scorers, some
 * failed, long ones cut as the snapshot cuts them, and the leaderboard the host would compute.
 */
import type { AnswerRecord, EvalModelRef, EvalRunFile, LeaderboardRow } from '../../../src/evals/model/evalModel';
import { previewChars, type ReportSnapshot, type RunProgress, type SampleView } from '../../../src/evals/protocol';

export const hostileText = '<img src=x onerror="window.__pwned=1"><a href="https://example.com">link</a><b>bold</b>';

export interface RunOptions {
  samples: number;
  steps: number[];
  draws?: number;
  base?: boolean;
  catalogue?: boolean;
  /** Every `failEvery`th answer failed (0: none). */
  failEvery?: number;
  /** Every `longEvery`th answer is longer than the preview (0: none). */
  longEvery?: number;
  hostile?: boolean;
  progress?: RunProgress;
  canPromote?: boolean;
}

export interface FixtureRun {
  snapshot: ReportSnapshot;
  /** Answers whole, by key (the snapshot's are cut). */
  whole: Map<string, AnswerRecord>;
  models: EvalModelRef[];
}

/** A deterministic number in [0, 1) from two integers. */
export function noise(a: number, b: number): number {
  let x = (a * 374761393 + b * 668265263) | 0;
  x = Math.imul(x ^ (x >>> 13), 1274126177);
  x ^= x >>> 16;
  return (x >>> 0) / 4294967296;
}

const topics = [
  'the capital of France',
  'a prime above 100',
  'the boiling point of water',
  'the author of Hamlet',
  'the square root of 144',
  'the largest planet',
  'the speed of light',
  'the year of the moon landing',
];
const answersOf = ['Paris', '101', '100 °C', 'Shakespeare', '12', 'Jupiter', '299,792 km/s', '1969'];
const wrong = ['Lyon', '99', '90 °C', 'Marlowe', '14', 'Saturn', '300 km/s', '1971'];
const training = 'wandb-artifact:///team/project/run-a1';

export function fixtureModels(options: Pick<RunOptions, 'steps' | 'base' | 'catalogue'>): EvalModelRef[] {
  const models: EvalModelRef[] = [];
  if (options.base) models.push({ id: 'Qwen/Qwen3-8B', label: 'base', kind: 'base', api: 'inference' });
  options.steps.forEach((step, at) =>
    models.push({
      id: `${training}:step${step}`,
      label: `step ${step}`,
      kind: 'checkpoint',
      api: 'training',
      step,
      trainingModelId: training,
      metrics: { loss: 1.2 - at * 0.15, reward: 0.3 + 0.5 * quality(at, options.steps.length) },
    }),
  );
  if (options.catalogue) models.push({ id: 'meta-llama/Llama-3.1-70B-Instruct', label: 'meta-llama/Llama-3.1-70B-Instruct', kind: 'catalogue', api: 'inference' });
  return models;
}

/** How often a checkpoint answers right: rises with the steps, peaks at the fourth of five, then slips. */
function quality(at: number, count: number): number {
  const peak = Math.max(0, count - 2);
  return 0.35 + 0.45 * (1 - Math.abs(at - peak) / Math.max(1, count));
}

export function fixtureRun(options: RunOptions): FixtureRun {
  const models = fixtureModels(options);
  const draws = options.draws ?? 1;
  const samples: SampleView[] = [];
  for (let sample = 0; sample < options.samples; sample++) {
    const topic = topics[sample % topics.length]!;
    const prompt = options.hostile && sample === 1 ? hostileText : `Question ${sample + 1}: what is ${topic}? Answer in one sentence, then explain briefly.`;
    samples.push({
      id: `s${sample}`,
      line: sample,
      messages: [
        { role: 'system', content: 'You are a careful assistant. Answer exactly.' },
        { role: 'user', content: prompt },
      ],
      reference: answersOf[sample % answersOf.length]!,
    });
  }
  const answers: AnswerRecord[] = [];
  const whole = new Map<string, AnswerRecord>();
  let counter = 0;
  models.forEach((model, modelAt) => {
    const checkpointAt = model.kind === 'checkpoint' ? options.steps.indexOf(model.step!) : -1;
    const p = model.kind === 'base' ? 0.3 : model.kind === 'catalogue' ? 0.7 : quality(checkpointAt, options.steps.length);
    for (let sample = 0; sample < options.samples; sample++) {
      for (let draw = 0; draw < draws; draw++) {
        counter++;
        const key = `k-${modelAt}-${sample}-${draw}`;
        const base: AnswerRecord = { model: model.id, sample: `s${sample}`, draw, key, scores: {} };
        if (options.failEvery && counter % options.failEvery === 0) {
          const answer = { ...base, error: 'The platform answered 503 (service unavailable) three times: asked again by the next run.' };
          answers.push(answer);
          whole.set(key, answer);
          continue;
        }
        const right = noise(sample * 31 + draw, modelAt + 7) < p;
        const word = right ? answersOf[sample % answersOf.length]! : wrong[sample % wrong.length]!;
        let text = `The answer is ${word}. ${right ? 'This follows from the definition' : 'I believe this is so'}, as stated in standard references${modelAt % 2 ? ' and textbooks' : ''}.`;
        if (options.hostile && sample === 1) text = `${hostileText} ${text}`;
        if (options.longEvery && counter % options.longEvery === 0) text += ` ${'More detail follows here. '.repeat(Math.ceil((previewChars * 1.5) / 26))}The end.`;
        const format = noise(sample, modelAt * 3 + draw) < 0.8 ? 1 : 0;
        const answer: AnswerRecord = {
          ...base,
          text,
          finishReason: text.length > previewChars ? 'length' : 'stop',
          scores: { exact: right ? 1 : 0, format: format },
          latencyMs: 300 + Math.floor(noise(sample, modelAt) * 1800),
          usage: { promptTokens: 40, completionTokens: Math.ceil(text.length / 4) },
        };
        if (options.failEvery && counter % (options.failEvery * 3 + 1) === 0) answer.scores.format = { error: 'the scorer timed out after 10 s' };
        whole.set(key, answer);
        answers.push(text.length > previewChars ? ({ ...answer, text: text.slice(0, previewChars), cut: true } as AnswerRecord) : answer);
      }
    }
  });
  const run: EvalRunFile = {
    kind: 'rl-studio-eval',
    version: 1,
    set: { path: 'evals/geography-and-math.jsonl', hash: 'abc123', samples: options.samples },
    scorers: [
      { name: 'exact', spec: { kind: 'contains' } },
      { name: 'format', spec: { kind: 'regex', pattern: '^The answer is' } },
    ],
    parameters: { temperature: 0.7, seed: 1234, n: draws, maxTokens: 512 },
    models,
    answers,
    createdAt: '2026-11-20T10:00:00.000Z',
    updatedAt: '2026-11-20T10:42:00.000Z',
  };
  const snapshot: ReportSnapshot & { samples: SampleView[] } = {
    fileName: 'geography-and-math.rleval.json',
    run,
    answerCount: answers.length,
    gone: [],
    primaryScorer: 'exact',
    leaderboard: leaderboardOf(models, answers, 'exact'),
    canPromote: options.canPromote ?? true,
    samples,
  };
  if (options.progress) snapshot.progress = options.progress;
  return { snapshot, whole, models };
}

/** Each model's mean primary score with a normal 95 % interval, as the host computes it. */
export function leaderboardOf(models: EvalModelRef[], answers: AnswerRecord[], primary: string): LeaderboardRow[] {
  return models.map((model) => {
    const scores: number[] = [];
    let failed = 0;
    for (const answer of answers) {
      if (answer.model !== model.id) continue;
      const score = answer.scores[primary];
      if (answer.error !== undefined || typeof score !== 'number') failed++;
      else scores.push(score);
    }
    const mean = scores.length ? scores.reduce((sum, value) => sum + value, 0) / scores.length : 0;
    const variance = scores.length > 1 ? scores.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (scores.length - 1) : 0;
    const half = scores.length ? 1.96 * Math.sqrt(variance / scores.length) : 0;
    const row: LeaderboardRow = { model: model.id, label: model.label, mean, low: Math.max(0, mean - half), high: Math.min(1, mean + half), scored: scores.length, failed };
    if (model.step !== undefined) row.step = model.step;
    return row;
  });
}
