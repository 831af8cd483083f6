/**
 * The report's numbers, from a results file: each model's mean score with a 95 % confidence
 * interval, the per-sample matrix (with `disagrees` for the samples where models part ways), and
 * the score against the checkpoint's step. Scores are those of one scorer, the primary one.
 */
import type { AnswerRecord, EvalRunFile, LeaderboardRow } from './evalModel';

const z95 = 1.96;

export interface Interval {
  mean: number;
  low: number;
  high: number;
}

/**
 * The mean and its 95 % interval. Scores that are all 0 or 1 are a proportion: the Wilson interval,
 * which stays inside [0, 1] and is honest at 0 % or 100 % and for few samples. Otherwise the normal
 * approximation, mean ± 1.96·sd/√n (sample standard deviation), clamped to [0, 1]. No scores: all 0.
 */
export function meanInterval(scores: readonly number[]): Interval {
  const n = scores.length;
  if (n === 0) return { mean: 0, low: 0, high: 0 };
  let sum = 0;
  let binary = true;
  for (const score of scores) {
    sum += score;
    if (score !== 0 && score !== 1) binary = false;
  }
  const mean = sum / n;
  if (binary) return { mean, ...wilsonInterval(sum, n) };
  if (n === 1) return { mean, low: mean, high: mean };
  let squares = 0;
  for (const score of scores) squares += (score - mean) ** 2;
  const half = (z95 * Math.sqrt(squares / (n - 1))) / Math.sqrt(n);
  return { mean, low: clamp01(mean - half), high: clamp01(mean + half) };
}

export function wilsonInterval(successes: number, n: number, z = z95): { low: number; high: number } {
  if (n === 0) return { low: 0, high: 0 };
  const p = successes / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return { low: clamp01(centre - half), high: clamp01(centre + half) };
}

function clamp01(value: number): number {
  return Math.min(1, Math.max(0, value));
}

/** The answer's score by `scorer`, or undefined when it failed or was not scored. */
export function scoreOf(answer: AnswerRecord, scorer: string): number | undefined {
  if (answer.error !== undefined || !Object.prototype.hasOwnProperty.call(answer.scores, scorer)) return undefined;
  const score = answer.scores[scorer];
  return typeof score === 'number' && Number.isFinite(score) ? score : undefined;
}

/**
 * One row per model of the run, best mean first (ties in the run's order). `failed` counts answers
 * that failed or that the scorer could not score; a model with nothing scored has mean 0 and
 * `scored` 0, and comes last.
 */
export function leaderboard(run: EvalRunFile, scorer: string): LeaderboardRow[] {
  const scores = new Map<string, number[]>(run.models.map((model) => [model.id, []]));
  const failed = new Map<string, number>();
  for (const answer of run.answers) {
    const list = scores.get(answer.model);
    if (!list) continue;
    const score = scoreOf(answer, scorer);
    if (score === undefined) failed.set(answer.model, (failed.get(answer.model) ?? 0) + 1);
    else list.push(score);
  }
  const rows = run.models.map((model, order) => {
    const list = scores.get(model.id)!;
    const row: LeaderboardRow = { model: model.id, label: model.label, ...meanInterval(list), scored: list.length, failed: failed.get(model.id) ?? 0 };
    if (model.step !== undefined) row.step = model.step;
    return { row, order };
  });
  rows.sort((a, b) => Number(b.row.scored > 0) - Number(a.row.scored > 0) || b.row.mean - a.row.mean || a.order - b.order);
  return rows.map(({ row }) => row);
}

/**
 * The row the report may call best: the highest mean of the rows with a score, unless another row
 * has the same mean (a tie crowns nobody) or more of its answers failed than were scored (too little
 * evidence). Undefined when no row qualifies; the order of `rows` does not matter.
 */
export function crownedBest<Row extends Pick<LeaderboardRow, 'mean' | 'scored' | 'failed'>>(rows: readonly Row[]): Row | undefined {
  let best: Row | undefined;
  let tied = false;
  for (const row of rows) {
    if (row.scored === 0) continue;
    if (!best || row.mean > best.mean) {
      best = row;
      tied = false;
    } else if (row.mean === best.mean) tied = true;
  }
  return best && !tied && best.failed <= best.scored ? best : undefined;
}

/** A sample's scores, one per model of the run (in its order): the mean over its draws, or null when none was scored. */
export interface SampleRow {
  sample: string;
  scores: (number | null)[];
}

/** One row per sample, in the order of the answers (the set's order in a file `mergeAnswers` wrote). */
export function sampleMatrix(run: EvalRunFile, scorer: string): SampleRow[] {
  const column = new Map(run.models.map((model, at) => [model.id, at]));
  const sums = new Map<string, { sum: number[]; count: number[] }>();
  for (const answer of run.answers) {
    const at = column.get(answer.model);
    if (at === undefined) continue;
    let row = sums.get(answer.sample);
    if (!row) {
      row = { sum: new Array<number>(run.models.length).fill(0), count: new Array<number>(run.models.length).fill(0) };
      sums.set(answer.sample, row);
    }
    const score = scoreOf(answer, scorer);
    if (score === undefined) continue;
    row.sum[at]! += score;
    row.count[at]!++;
  }
  return [...sums].map(([sample, row]) => ({ sample, scores: row.sum.map((sum, at) => (row.count[at]! > 0 ? sum / row.count[at]! : null)) }));
}

/** Models part ways on this sample: one passes and another fails (the highest and lowest scores at least 0.5 apart). */
export function disagrees(row: SampleRow): boolean {
  let min = Infinity;
  let max = -Infinity;
  for (const score of row.scores) {
    if (score === null) continue;
    min = Math.min(min, score);
    max = Math.max(max, score);
  }
  return max - min >= 0.5;
}

export interface StepPoint extends Interval {
  step: number;
  model: string;
}

/** Per training model, its checkpoints' scores in step order (the score-against-step chart: one line each). */
export function scoreAgainstStep(run: EvalRunFile, scorer: string): { trainingModel: string; points: StepPoint[] }[] {
  const rows = new Map(leaderboard(run, scorer).map((row) => [row.model, row]));
  const series = new Map<string, StepPoint[]>();
  for (const model of run.models) {
    const row = rows.get(model.id);
    if (model.kind !== 'checkpoint' || model.step === undefined || !row || row.scored === 0) continue;
    const trainingModel = model.trainingModelId ?? '';
    let points = series.get(trainingModel);
    if (!points) series.set(trainingModel, (points = []));
    points.push({ step: model.step, model: model.id, mean: row.mean, low: row.low, high: row.high });
  }
  return [...series].map(([trainingModel, points]) => ({ trainingModel, points: points.sort((a, b) => a.step - b.step) }));
}
