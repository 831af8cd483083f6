import * as assert from 'node:assert/strict';
import { cacheKey } from '../../../src/evals/model/cacheKey';
import type { AnswerRecord, EvalModelRef } from '../../../src/evals/model/evalModel';
import type { NamedScorer } from '../../../src/platform/scoring/scorerSpec';
import { evalLimits } from '../../../src/evals/model/evalModel';
import { checkParameters, checkRunSize, planRun } from '../../../src/evals/model/runPlan';
import { checkpoint, parameters, run, sample } from './evalFixtures';

const scorers: NamedScorer[] = [{ name: 'exact', spec: { kind: 'exactMatch' } }];
const samples = [sample('a', 'qa', 'ra'), sample('b', 'qb', 'rb'), sample('c', 'qc', 'rc')];
const models = [checkpoint(10), checkpoint(20)];

/** Every answer of a run, as a finished run would hold them. */
function answered(forModels: EvalModelRef[], make: (model: string, sampleId: string, draw: number, key: string) => AnswerRecord | undefined): AnswerRecord[] {
  const answers: AnswerRecord[] = [];
  for (const model of forModels)
    for (const item of samples)
      for (let draw = 0; draw < parameters.n; draw++) {
        const answer = make(model.id, item.id, draw, cacheKey(model.id, item, parameters, draw));
        if (answer) answers.push(answer);
      }
  return answers;
}
const ok = (model: string, sampleId: string, draw: number, key: string): AnswerRecord => ({ model, sample: sampleId, draw, key, text: 'x', scores: { exact: 1 } });

describe('run plan', () => {
  it('asks every sample of every model n times when there is no file, in file order, with each draw’s seed', () => {
    const plan = planRun({ samples, models, parameters, scorers });
    assert.equal(plan.items.length, 12);
    assert.equal(plan.total, 12);
    assert.deepEqual(plan.reused, []);
    assert.deepEqual(
      plan.items.slice(0, 3).map((item) => [item.model.id, item.sample.id, item.draw, item.seed]),
      [
        [models[0]!.id, 'a', 0, 42],
        [models[0]!.id, 'a', 1, 43],
        [models[0]!.id, 'b', 0, 42],
      ],
    );
    assert.equal(new Set(plan.items.map((item) => item.key)).size, 12);
  });

  it('asks nothing again when everything is answered', () => {
    const existing = run(models, answered(models, ok));
    const plan = planRun({ samples, models, parameters, scorers, existing });
    assert.equal(plan.items.length, 0);
    assert.equal(plan.reused.length, 12);
    assert.equal(plan.dropped, 0);
    assert.deepEqual(plan.toScore, []);
  });

  it('asks only the new checkpoint’s answers when one is added', () => {
    const existing = run(models, answered(models, ok));
    const added = checkpoint(30);
    const plan = planRun({ samples, models: [...models, added], parameters, scorers, existing });
    assert.equal(plan.items.length, 6);
    assert.ok(plan.items.every((item) => item.model === added));
    assert.equal(plan.total, 18);
  });

  it('asks failed answers again only when asked: all of them, or those keys', () => {
    const answers = answered(models, (model, sampleId, draw, key) => (sampleId === 'b' ? { model, sample: sampleId, draw, key, error: 'HTTP 500', scores: {} } : ok(model, sampleId, draw, key)));
    const existing = run(models, answers);
    assert.equal(planRun({ samples, models, parameters, scorers, existing }).items.length, 0);
    assert.equal(planRun({ samples, models, parameters, scorers, existing, retryFailed: true }).items.length, 4);
    const one = answers.find((answer) => answer.error)!.key;
    assert.deepEqual(
      planRun({ samples, models, parameters, scorers, existing, retryFailed: [one] }).items.map((item) => item.key),
      [one],
    );
  });

  it('asks a changed sample again, and drops the answers the run no longer covers', () => {
    const existing = run(models, answered(models, ok));
    const changed = [samples[0]!, sample('b', 'qb, reworded', 'rb'), samples[2]!];
    const plan = planRun({ samples: changed, models: [models[0]!], parameters, scorers, existing });
    assert.deepEqual(
      plan.items.map((item) => [item.sample.id, item.draw]),
      [
        ['b', 0],
        ['b', 1],
      ],
    );
    assert.equal(plan.reused.length, 4);
    assert.equal(plan.dropped, 8);
  });

  it('lists reused answers that a new scorer has not scored, without asking them again', () => {
    const existing = run(models, answered(models, ok));
    const plan = planRun({ samples, models, parameters, scorers: [...scorers, { name: 'json', spec: { kind: 'validJson' } }], existing });
    assert.equal(plan.items.length, 0);
    assert.equal(plan.toScore.length, 12);
    assert.deepEqual(plan.toScore[0]!.scorers, ['json']);
  });

  it('refuses runs past the limits, or with a model or scorer twice', () => {
    assert.match(checkRunSize({ samples: [], models, parameters, scorers })!, /no samples/);
    assert.match(checkRunSize({ samples, models: [], parameters, scorers })!, /no model/);
    assert.match(checkRunSize({ samples, models, parameters: { ...parameters, n: evalLimits.draws + 1 }, scorers })!, /from 1 to 16/);
    assert.match(checkRunSize({ samples, models: Array.from({ length: evalLimits.models + 1 }, (_, at) => checkpoint(at)), parameters, scorers })!, /more than the 32/);
    assert.match(checkRunSize({ samples, models: [models[0]!, models[0]!], parameters, scorers })!, /chosen twice/);
    assert.match(checkRunSize({ samples, models, parameters, scorers: [scorers[0]!, scorers[0]!] })!, /same name/);
    const many = Array.from({ length: evalLimits.samples }, (_, at) => sample(`s${at}`));
    assert.match(checkRunSize({ samples: many, models: Array.from({ length: 32 }, (_, at) => checkpoint(at)), parameters: { ...parameters, n: 16 }, scorers })!, /more than the 1,000,000/);
    assert.throws(() => planRun({ samples: [], models, parameters, scorers }), /The evaluation cannot start: the eval set has no samples\./);
  });

  it('a re-run of 1,000 samples × 5 checkpoints with everything answered asks nothing', () => {
    const many = Array.from({ length: 1_000 }, (_, at) => sample(`s${at}`, `question ${at}`, `${at}`));
    const five = [10, 20, 30, 40, 50].map((step) => checkpoint(step));
    const first = planRun({ samples: many, models: five, parameters, scorers });
    assert.equal(first.items.length, 10_000);
    const existing = run(
      five,
      first.items.map((item) => ({ model: item.model.id, sample: item.sample.id, draw: item.draw, key: item.key, text: 'x', scores: { exact: 1 } })),
    );
    const again = planRun({ samples: many, models: five, parameters, scorers, existing });
    assert.equal(again.items.length, 0);
    assert.equal(again.reused.length, 10_000);
  });
});

describe('run plan of a retry and the bounds of what a file may ask', () => {
  const fileWith = (answers: AnswerRecord[]) => ({ ...run(models, answers), parameters });
  const failedAt =
    (sampleId: string) =>
    (model: string, s: string, draw: number, key: string): AnswerRecord =>
      s === sampleId && draw === 0 && model === models[0]!.id ? { model, sample: s, draw, key, error: 'Bad request (400)', scores: {} } : ok(model, s, draw, key);

  it('a retry asks exactly the failed answers given, nothing missing and no kept answer scored again', () => {
    // One answer failed; the file lacks the answers of the second model and the judge never scored.
    const answers = answered([models[0]!], failedAt('b'));
    const judged: NamedScorer[] = [...scorers, { name: 'judge', spec: { kind: 'judge', model: 'judge-model', rubric: 'r' } }];
    const failedKey = answers.find((answer) => answer.error !== undefined)!.key;
    const plan = planRun({ samples, models, parameters, scorers: judged, existing: fileWith(answers), retryFailed: [failedKey], onlyRetry: true });
    assert.deepEqual(
      plan.items.map((item) => item.key),
      [failedKey],
    );
    assert.deepEqual(plan.toScore, []);
    const whole = planRun({ samples, models, parameters, scorers: judged, existing: fileWith(answers), retryFailed: [failedKey] });
    assert.equal(whole.items.length, 1 + samples.length * parameters.n, 'without onlyRetry the missing answers are asked too');
  });

  it('a retry of keys that did not fail, or are not in the file, asks nothing', () => {
    const answers = answered([models[0]!], failedAt('b'));
    const goodKey = answers.find((answer) => answer.error === undefined)!.key;
    assert.equal(planRun({ samples, models, parameters, scorers, existing: fileWith(answers), retryFailed: [goodKey, 'no-such-key'], onlyRetry: true }).items.length, 0);
  });

  it('a retry keeps every other answer as it is, and a failed answer whose key no longer matches is kept, not asked', () => {
    const answers = answered([models[0]!], failedAt('b'));
    const stale: AnswerRecord = { model: models[0]!.id, sample: 'a', draw: 1, key: 'stale-key', error: 'old failure', scores: {} };
    const gone: AnswerRecord = { model: 'a-model-no-longer-listed', sample: 'a', draw: 0, key: 'gone', text: 'x', scores: {} };
    const plan = planRun({ samples, models, parameters, scorers, existing: fileWith([...answers, stale, gone]), retryFailed: true, onlyRetry: true });
    assert.equal(plan.items.length, 1);
    assert.equal(plan.reused.length, answers.length - 1 + 2);
    assert.equal(plan.dropped, 0);
  });

  it('plans a retry from the answers alone: a file describing a million answers with one failed plans in well under a second', () => {
    const many = Array.from({ length: 10_000 }, (_, at) => sample(`s${at}`));
    const wide = Array.from({ length: 25 }, (_, at) => checkpoint(at));
    const asked = { ...parameters, n: 4 };
    const failed: AnswerRecord = { model: wide[0]!.id, sample: 's0', draw: 0, key: cacheKey(wide[0]!.id, many[0]!, asked, 0), error: 'x', scores: {} };
    const started = performance.now();
    const plan = planRun({ samples: many, models: wide, parameters: asked, scorers, existing: { ...run(wide, [failed]), parameters: asked }, retryFailed: true, onlyRetry: true });
    assert.equal(plan.items.length, 1);
    // Hashing every described answer took 9.6 s; only the failed ones is a few ms. The bound leaves room for a busy machine.
    assert.ok(performance.now() - started < 3_000, `took ${Math.round(performance.now() - started)} ms`);
  });

  it('"retry all failed" asks the failed ones only', () => {
    const answers = answered(models, failedAt('c'));
    const plan = planRun({ samples, models, parameters, scorers, existing: fileWith(answers), retryFailed: true, onlyRetry: true });
    assert.equal(plan.items.length, 1);
  });

  for (const [field, value, words] of [
    ['maxTokens', 1_000_000, /max_tokens is 1,000,000; it must be a whole number from 1 to 32,768/],
    ['maxTokens', 0, /max_tokens/],
    ['maxTokens', 12.5, /max_tokens/],
    ['n', 17, /answers per prompt must be a whole number from 1 to 16/],
    ['temperature', 50, /temperature is 50/],
    ['topP', 3, /top_p is 3/],
  ] as const) {
    it(`${field} ${value} is refused with its bound`, () => {
      const asked = { ...parameters, [field]: value };
      assert.match(checkParameters(asked) ?? '', words);
      assert.throws(
        () => planRun({ samples, models, parameters: asked, scorers }),
        (error: Error) => words.test(error.message),
      );
    });
  }

  it('the largest max_tokens allowed passes', () => {
    assert.equal(checkParameters({ ...parameters, maxTokens: evalLimits.maxTokens }), undefined);
  });
});
