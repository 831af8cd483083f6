import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { summarizeGroup } from '../../../src/rollouts/model/groupSummary';
import type { GroupSummary } from '../../../src/rollouts/model/groupSummaryShape';
import { histogramBins, maxSeriesKeys, otherKey, RolloutStatisticsBuilder, type SeriesStatistics } from '../../../src/rollouts/model/rolloutStatistics';
import { choice, group, groupOfRewards, trajectory } from './rolloutFixtures';

function summaryOf(value: unknown, index = 0): GroupSummary {
  const { summary } = summarizeGroup(value, { index, line: index, offset: 0, bytes: 0 });
  if (!summary) throw new Error('no summary');
  return summary;
}

/** The figures of a series computed in one go from all its values: two passes, no running sums. */
function batchSeries(values: number[]): Omit<SeriesStatistics, 'histogramOf'> {
  if (values.length === 0) return { count: 0, mean: 0, std: 0, min: 0, max: 0, histogram: { min: 0, max: 0, counts: new Array<number>(histogramBins).fill(0) } };
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  const std = Math.sqrt(values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / values.length);
  const min = Math.min(...values);
  const max = Math.max(...values);
  const counts = new Array<number>(histogramBins).fill(0);
  for (const value of values) {
    // Equal-width bins as documented: the width is (max − min) / bins, the last bin takes max; a
    // width of 0 (min = max, or a range so small that the division underflows) puts all in bin 0.
    const width = (max - min) / histogramBins;
    const bin = width > 0 ? Math.min(histogramBins - 1, Math.floor((value - min) / width)) : 0;
    counts[bin]!++;
  }
  return { count: values.length, mean, std, min, max, histogram: { min, max, counts } };
}

function assertSeriesEqual(actual: SeriesStatistics, expected: Omit<SeriesStatistics, 'histogramOf'>): void {
  assert.equal(actual.count, expected.count);
  assert.equal(actual.min, expected.min);
  assert.equal(actual.max, expected.max);
  const scale = Math.max(1, Math.abs(expected.max), Math.abs(expected.min));
  assert.ok(Math.abs(actual.mean - expected.mean) <= 1e-9 * scale, `mean ${actual.mean} vs ${expected.mean}`);
  assert.ok(Math.abs(actual.std - expected.std) <= 1e-6 * scale, `std ${actual.std} vs ${expected.std}`);
  assert.deepEqual(actual.histogram, expected.histogram);
  assert.equal(actual.histogramOf, expected.count);
}

describe('rollout statistics', () => {
  it('counts groups, trajectories, exceptions, finish reasons and flags, with a known reward histogram', () => {
    const builder = new RolloutStatisticsBuilder();
    builder.add(summaryOf(groupOfRewards([0, 0.5, 1, 1])));
    builder.add(summaryOf(group([trajectory(0.25, choice('cut off', 'length'))], { exceptions: [{ type: 'E', message: 'm' }] })));
    const statistics = builder.snapshot();
    assert.equal(statistics.groups, 2);
    assert.equal(statistics.trajectories, 5);
    assert.equal(statistics.exceptions, 1);
    assert.deepEqual({ ...statistics.finishReasons }, { stop: 4, length: 1 });
    assert.deepEqual(statistics.flags, { noSignal: 1, highVariance: 1, exceptions: 1, truncated: 1, emptyOrRepetitive: 0, doNothingSibling: 0 });
    // Rewards 0, 0.5, 1, 1, 0.25 in 20 bins of 0.05 from 0 to 1: 0 in bin 0, 0.25 in bin 5, 0.5 in bin 10, 1 in the last.
    const expected = new Array<number>(histogramBins).fill(0);
    expected[0] = 1;
    expected[5] = 1;
    expected[10] = 1;
    expected[19] = 2;
    assert.deepEqual(statistics.reward.histogram, { min: 0, max: 1, counts: expected });
    assert.equal(statistics.reward.mean, 2.75 / 5);
    // A boolean metric counts as 1 or 0: its mean is the rate at which it held.
    assert.deepEqual(Object.keys(statistics.metrics).sort(), ['correct', 'passed', 'turns']);
    assert.equal(statistics.metrics.correct!.mean, 4 / 5);
  });

  it('keeps at most maxSeriesKeys finish reasons and metric keys, folding the rest', () => {
    const builder = new RolloutStatisticsBuilder();
    // Groups of 20 trajectories, each with a finish reason and a metric key of its own.
    for (let first = 0; first < maxSeriesKeys + 5; first += 20) {
      const many = Array.from({ length: 20 }, (_, offset) => ({ ...trajectory(first + offset, choice('text', `reason${first + offset}`)), metrics: { [`m${first + offset}`]: first + offset } }));
      builder.add(summaryOf(group(many)));
    }
    const statistics = builder.snapshot();
    assert.equal(Object.keys(statistics.metrics).length, maxSeriesKeys);
    assert.equal(Object.keys(statistics.finishReasons).length, maxSeriesKeys + 1);
    assert.equal(statistics.finishReasons[otherKey], 80 - maxSeriesKeys);
  });

  it('gives the same figures group by group as a batch computation over every prefix', () => {
    // `+ 0` turns -0 into 0: a reward of -0 is 0 to anyone, and Math.min (the reference) would keep its sign.
    const reward = fc.oneof(
      fc.integer({ min: -5, max: 5 }),
      fc.double({ min: -100, max: 100, noNaN: true, noDefaultInfinity: true }).map((value) => value + 0),
    );
    const trajectoryArbitrary = fc.record({
      reward,
      text: fc.string({ maxLength: 30 }),
      finish: fc.constantFrom('stop', 'length', 'tool_calls'),
      score: fc.option(
        fc.double({ min: 0, max: 1, noNaN: true }).map((value) => value + 0),
        { nil: undefined },
      ),
    });
    const groupsArbitrary = fc.array(fc.array(trajectoryArbitrary, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 12 });
    fc.assert(
      fc.property(groupsArbitrary, fc.integer({ min: 0, max: 12 }), (groups, cut) => {
        const summaries = groups.map((items, index) =>
          summaryOf(group(items.map((item) => ({ ...trajectory(item.reward, choice(item.text, item.finish)), metrics: item.score === undefined ? {} : { score: item.score } }))), index),
        );
        const builder = new RolloutStatisticsBuilder();
        const prefix = summaries.slice(0, cut);
        for (const summary of prefix) builder.add(summary);
        const early = builder.snapshot();
        for (const summary of summaries.slice(cut)) builder.add(summary);
        const whole = builder.snapshot();
        for (const [statistics, included, source] of [
          [early, prefix, groups.slice(0, cut)],
          [whole, summaries, groups],
        ] as const) {
          const trajectories = source.flat();
          assert.equal(statistics.groups, included.length);
          assert.equal(statistics.trajectories, trajectories.length);
          assertSeriesEqual(statistics.reward, batchSeries(trajectories.map((item) => item.reward)));
          assertSeriesEqual(statistics.completionLength, batchSeries(trajectories.map((item) => item.text.length)));
          const scores = trajectories.flatMap((item) => (item.score === undefined ? [] : [item.score]));
          if (scores.length > 0) assertSeriesEqual(statistics.metrics.score!, batchSeries(scores));
          else assert.equal(statistics.metrics.score, undefined);
          const reasons: Record<string, number> = {};
          for (const item of trajectories) reasons[item.finish] = (reasons[item.finish] ?? 0) + 1;
          assert.deepEqual({ ...statistics.finishReasons }, reasons);
          for (const flag of Object.keys(statistics.flags) as (keyof typeof statistics.flags)[]) {
            assert.equal(statistics.flags[flag], included.filter((summary) => summary.flags.includes(flag)).length);
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});
