import * as assert from 'node:assert/strict';
import { checkAnswers, describeChecks } from '../../../../src/evals/model/canary/answerChecks';
import { canarySeries, canaryVerdict } from '../../../../src/evals/model/canary/canaryVerdict';
import { describeVerdict } from '../../../../src/evals/model/canary/canaryText';
import type { AnswerRecord, EvalModelRef, EvalRunFile } from '../../../../src/evals/model/evalModel';

const samples = 40;
const checkpoint = (step: number): EvalModelRef => ({ id: `wandb-artifact:///e/p/m:step${step}`, label: `step ${step}`, kind: 'checkpoint', api: 'training', step, trainingModelId: 'e/p/m' });

/** A checkpoint right on its first `right` samples (a better one is right on every sample a worse one is). */
function answers(step: number, right: number, extra: Partial<AnswerRecord> = {}): AnswerRecord[] {
  return Array.from({ length: samples }, (_, index) => ({
    model: checkpoint(step).id,
    sample: `s${index}`,
    draw: 0,
    key: `${step}:${index}`,
    text: index < right ? '42' : '41',
    finishReason: 'stop',
    scores: { 'exact match': index < right ? 1 : 0 },
    ...(index === samples - 1 ? extra : {}),
  }));
}

function runOf(...checkpoints: [step: number, right: number, extra?: Partial<AnswerRecord>][]): EvalRunFile {
  return {
    kind: 'rl-studio-eval',
    version: 1,
    set: { path: 'arith.evalset.jsonl', hash: 'h', samples },
    scorers: [{ name: 'exact match', spec: { kind: 'exactMatch' } }],
    parameters: { temperature: 0, seed: 0, n: 1, maxTokens: 512 },
    models: checkpoints.map(([step]) => checkpoint(step)),
    answers: checkpoints.flatMap(([step, right, extra]) => answers(step, right, extra)),
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
}

describe("a canary's verdict on a checkpoint", () => {
  it('calls a drop below the best earlier checkpoint beyond the noise, with the interval', () => {
    const run = runOf([10, 25], [20, 37], [24, 29]);
    const verdict = canaryVerdict(run, checkpoint(24), 'exact match', 0.5)!;
    assert.equal(verdict.best?.step, 20, 'the best so far, not the latest before');
    assert.equal(verdict.comparison?.pairs, samples);
    // Eight differences of −1 in forty: mean −0.2, sd 0.4051, se 0.06405, t(39) 2.0227.
    assert.ok(Math.abs(verdict.comparison!.meanDifference + 0.2) < 1e-12);
    assert.ok(Math.abs(verdict.comparison!.high - (-0.2 + 2.0227 * 0.06405)) < 1e-3);
    assert.equal(verdict.drop, true);
    assert.match(describeVerdict('e/p/m', verdict), /^Canary: step 24 of m scores 0\.725, 0\.2 below step 20, the best so far \(95 % interval of the change -0\.33\d* to -0\.07\d*, 40 prompts\)\.$/);
  });

  it('calls no drop for a better checkpoint, for the first one, nor for a fall within the noise', () => {
    const run = runOf([10, 25], [20, 37], [22, 36]);
    assert.equal(canaryVerdict(run, checkpoint(20), 'exact match', 0.5)!.drop, false);
    const first = canaryVerdict(run, checkpoint(10), 'exact match', 0.5)!;
    assert.equal(first.best, undefined);
    assert.equal(first.drop, false);
    assert.equal(canaryVerdict(run, checkpoint(22), 'exact match', 0.5)!.drop, false, 'one prompt in forty is noise');
    assert.match(describeVerdict('e/p/m', first), /^Canary: step 10 of m scores 0\.625 \(0\.\d+ to 0\.\d+, 40 answers\)\.$/);
  });

  it("applies the inspector's checks and flags a checkpoint whose answers go wrong", () => {
    const loop = 'the answer is the answer is '.repeat(40);
    const run = runOf([20, 37]);
    run.answers = run.answers.map((answer, index) => (index < 6 ? { ...answer, finishReason: 'length' } : index < 8 ? { ...answer, text: loop } : index < 9 ? { ...answer, text: ' ' } : answer));
    run.answers.push({ ...run.answers[0]!, sample: 'failed', key: 'f', text: undefined, error: 'HTTP 500' });
    const checks = checkAnswers(run.answers, 0.5);
    assert.deepEqual(checks, { answers: samples, truncated: 6, empty: 1, repeating: 2 });
    assert.equal(describeChecks(checks), '6 cut at the token limit, 1 empty, 2 repeating themselves');
    const verdict = canaryVerdict(run, checkpoint(20), 'exact match', 0.5)!;
    assert.equal(verdict.flagged, true);
    assert.match(describeVerdict('e/p/m', verdict), /answers badly: 9 of 40 answers flagged: 6 cut at the token limit, 1 empty, 2 repeating themselves\. It scores/);
  });

  it('charts the score and the flagged share by step', () => {
    const series = canarySeries(runOf([20, 37], [10, 25]), 'exact match', 0.5);
    assert.deepEqual(series.score.xs, [10, 20]);
    assert.deepEqual(series.score.ys, [25 / 40, 37 / 40]);
    assert.deepEqual(series.flagged.ys, [0, 0]);
  });
});
