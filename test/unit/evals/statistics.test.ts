import * as assert from 'node:assert/strict';
import type { EvalModelRef } from '../../../src/evals/model/evalModel';
import { disagrees, leaderboard, meanInterval, sampleMatrix, scoreAgainstStep, wilsonInterval } from '../../../src/evals/model/statistics';
import { answer, checkpoint, run } from './evalFixtures';

const close = (actual: number, expected: number): void => assert.ok(Math.abs(actual - expected) < 1e-4, `${actual} ≉ ${expected}`);

describe('evaluation statistics', () => {
  it('gives the Wilson interval for scores that are all 0 or 1', () => {
    // 8 of 10: the Wilson 95 % interval is [0.4902, 0.9433].
    const interval = meanInterval([1, 1, 1, 1, 1, 1, 1, 1, 0, 0]);
    assert.equal(interval.mean, 0.8);
    close(interval.low, 0.4902);
    close(interval.high, 0.9433);
    // 0 of 5 and 5 of 5 stay inside [0, 1] and are not degenerate.
    const none = wilsonInterval(0, 5);
    assert.equal(none.low, 0);
    close(none.high, 0.4345);
    const all = meanInterval([1, 1, 1, 1, 1]);
    close(all.low, 0.5655);
    assert.equal(all.high, 1);
  });

  it('gives mean ± 1.96·sd/√n, clamped to [0, 1], for other scores', () => {
    // Mean 0.5, sample sd 0.2582: half width 1.96 × 0.2582 / 2 = 0.2530.
    const interval = meanInterval([0.2, 0.4, 0.6, 0.8]);
    close(interval.mean, 0.5);
    close(interval.low, 0.247);
    close(interval.high, 0.753);
    const high = meanInterval([0.9, 1, 1, 0.5]);
    assert.equal(high.high, 1);
    assert.deepEqual(meanInterval([0.3]), { mean: 0.3, low: 0.3, high: 0.3 });
    assert.deepEqual(meanInterval([]), { mean: 0, low: 0, high: 0 });
  });

  it('ranks models by mean score, counting failed and unscored answers apart', () => {
    const [a, b, c] = [checkpoint(10), checkpoint(20), checkpoint(30)];
    const answers = [
      answer(a.id, 's1', 0, { exact: 0 }),
      answer(a.id, 's2', 0, { exact: 1 }),
      answer(b.id, 's1', 0, { exact: 1 }),
      answer(b.id, 's2', 0, { exact: 1 }),
      answer(b.id, 's3', 0, {}, { error: 'HTTP 500', text: undefined }),
      answer(b.id, 's4', 0, { exact: { error: 'no reference' } }),
      answer(c.id, 's1', 0, {}, { error: 'HTTP 500', text: undefined }),
      answer('not-in-run', 's1', 0, { exact: 1 }),
    ];
    const rows = leaderboard(run([a, b, c], answers), 'exact');
    assert.deepEqual(
      rows.map((row) => [row.label, row.mean, row.scored, row.failed, row.step]),
      [
        ['step 20', 1, 2, 2, 20],
        ['step 10', 0.5, 2, 0, 10],
        ['step 30', 0, 0, 1, 30],
      ],
    );
  });

  it('builds the per-sample matrix with the mean over draws, null where nothing was scored', () => {
    const [a, b] = [checkpoint(10), checkpoint(20)];
    const answers = [
      answer(a.id, 's1', 0, { exact: 1 }),
      answer(a.id, 's1', 1, { exact: 0 }),
      answer(a.id, 's2', 0, { exact: 1 }),
      answer(b.id, 's1', 0, { exact: 1 }),
      answer(b.id, 's2', 0, {}, { error: 'timeout', text: undefined }),
    ];
    const rows = sampleMatrix(run([a, b], answers), 'exact');
    assert.deepEqual(rows, [
      { sample: 's1', scores: [0.5, 1] },
      { sample: 's2', scores: [1, null] },
    ]);
    assert.equal(disagrees(rows[0]!), true);
    assert.equal(disagrees(rows[1]!), false);
    assert.equal(disagrees({ sample: 'x', scores: [0.7, 0.3] }), false);
    assert.equal(disagrees({ sample: 'x', scores: [0.75, 0.25] }), true);
    assert.equal(disagrees({ sample: 'x', scores: [null, null] }), false);
  });

  it('draws score against step per training model, in step order, leaving out other models', () => {
    const models: EvalModelRef[] = [checkpoint(30), checkpoint(10), checkpoint(5, 'other'), { id: 'base', label: 'base', kind: 'base', api: 'inference' }];
    const answers = models.map((model, at) => answer(model.id, 's1', 0, { exact: at % 2 }));
    const series = scoreAgainstStep(run(models, answers), 'exact');
    assert.deepEqual(
      series.map((line) => [line.trainingModel, line.points.map((point) => [point.step, point.mean])]),
      [
        [
          'wandb-artifact:///team/proj/agent',
          [
            [10, 1],
            [30, 0],
          ],
        ],
        ['other', [[5, 0]]],
      ],
    );
  });
});
