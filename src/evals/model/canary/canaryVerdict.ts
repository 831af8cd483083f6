/**
 * What a canary says about one checkpoint, from its results file: its score (the primary scorer's
 * mean and interval), the inspector's checks on its answers, and whether it fell below the best
 * checkpoint evaluated before it (an earlier step) beyond the set's noise, by a paired comparison
 * over the samples both answered.
 */
import type { EvalModelRef, EvalRunFile } from '../evalModel';
import { comparePaired, type PairedComparison, type PairedScores } from '../pairedComparison';
import { leaderboard, scoreOf, type Interval } from '../statistics';
import { checkAnswers, flaggedAnswers, type AnswerChecks } from './answerChecks';

/** A checkpoint whose answers are flagged this often (a share) raises an alert by that alone. */
export const flaggedShareAlert = 0.2;

export interface CanaryVerdict {
  step: number;
  model: string;
  score: Interval & { scored: number; failed: number };
  checks: AnswerChecks;
  /** The best earlier checkpoint of the file, when there is one. */
  best?: { step: number; model: string; mean: number };
  /** This checkpoint against `best`, sample by sample. */
  comparison?: PairedComparison;
  /** It scores below the best beyond the noise of the set. */
  drop: boolean;
  /** At least `flaggedShareAlert` of its answers are truncated, empty or repeating. */
  flagged: boolean;
}

export function canaryVerdict(run: EvalRunFile, checkpoint: EvalModelRef, scorer: string, repetitionThreshold: number): CanaryVerdict | undefined {
  const step = checkpoint.step;
  if (step === undefined) return undefined;
  const rows = leaderboard(run, scorer);
  const row = rows.find((candidate) => candidate.model === checkpoint.id);
  if (!row) return undefined;
  const checks = checkAnswers(
    run.answers.filter((answer) => answer.model === checkpoint.id),
    repetitionThreshold,
  );
  const verdict: CanaryVerdict = {
    step,
    model: checkpoint.id,
    score: { mean: row.mean, low: row.low, high: row.high, scored: row.scored, failed: row.failed },
    checks,
    drop: false,
    flagged: checks.answers > 0 && flaggedAnswers(checks) / checks.answers >= flaggedShareAlert,
  };
  const earlier = new Map(run.models.filter((model) => model.kind === 'checkpoint' && model.step !== undefined && model.step < step).map((model) => [model.id, model.step!]));
  // Rows come best first: the first earlier checkpoint with a score is the best so far.
  const bestRow = rows.find((candidate) => earlier.has(candidate.model) && candidate.scored > 0);
  if (!bestRow) return verdict;
  verdict.best = { step: earlier.get(bestRow.model)!, model: bestRow.model, mean: bestRow.mean };
  verdict.comparison = comparePaired(pairedScores(run, bestRow.model, checkpoint.id, scorer));
  verdict.drop = verdict.comparison.drop;
  return verdict;
}

/** The first draw of each sample both models answered and were scored on. */
function pairedScores(run: EvalRunFile, best: string, current: string, scorer: string): PairedScores[] {
  const bestScores = new Map<string, number>();
  for (const answer of run.answers) {
    if (answer.model !== best || answer.draw !== 0) continue;
    const score = scoreOf(answer, scorer);
    if (score !== undefined) bestScores.set(answer.sample, score);
  }
  const pairs: PairedScores[] = [];
  for (const answer of run.answers) {
    if (answer.model !== current || answer.draw !== 0) continue;
    const score = scoreOf(answer, scorer);
    const before = bestScores.get(answer.sample);
    if (score !== undefined && before !== undefined) pairs.push({ id: answer.sample, best: before, current: score });
  }
  return pairs;
}

/** A canary's figures by checkpoint step, for the training charts: the score and the share of flagged answers. */
export function canarySeries(run: EvalRunFile, scorer: string, repetitionThreshold: number): { score: { xs: number[]; ys: number[] }; flagged: { xs: number[]; ys: number[] } } {
  const rows = new Map(leaderboard(run, scorer).map((row) => [row.model, row]));
  const points: { step: number; score: number; flagged: number }[] = [];
  for (const model of run.models) {
    const row = rows.get(model.id);
    if (model.kind !== 'checkpoint' || model.step === undefined || !row || row.scored === 0) continue;
    const checks = checkAnswers(
      run.answers.filter((answer) => answer.model === model.id),
      repetitionThreshold,
    );
    points.push({ step: model.step, score: row.mean, flagged: checks.answers ? flaggedAnswers(checks) / checks.answers : 0 });
  }
  points.sort((a, b) => a.step - b.step);
  return {
    score: { xs: points.map((point) => point.step), ys: points.map((point) => point.score) },
    flagged: { xs: points.map((point) => point.step), ys: points.map((point) => point.flagged) },
  };
}
