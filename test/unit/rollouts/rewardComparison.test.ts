import * as assert from 'node:assert/strict';
import { advantagesOf, compareGroup, ComparisonBuilder, hasSignal, type ComparedTrajectory } from '../../../src/rollouts/model/rewardComparison';

/** Trajectories of a group from their old and new rewards. */
function trajectories(before: (number | null)[], after: (number | null)[]): ComparedTrajectory[] {
  return before.map((reward, at) => ({
    answer: `answer ${at}`,
    omittedChars: 0,
    before: reward,
    after: after[at]!,
    ...(after[at] === null ? { error: 'the sample has no reference to compare with' } : {}),
  }));
}

const close = (actual: number | null, expected: number): void => assert.ok(actual !== null && Math.abs(actual - expected) < 1e-9, `${actual} is not ${expected}`);

describe('reward comparison', () => {
  it('gives advantages as reward minus the group mean, and divided by its standard deviation as GRPO does', () => {
    const { centered, normalized } = advantagesOf([1, 0, 0, 1]);
    assert.deepEqual(centered, [0.5, -0.5, -0.5, 0.5]);
    // The population standard deviation of [1, 0, 0, 1] is 0.5.
    assert.deepEqual(normalized, [1, -1, -1, 1]);
    assert.deepEqual(advantagesOf([0.3, 0.3, 0.3]).normalized, [0, 0, 0]);
    assert.equal(hasSignal([0.3, 0.3, 0.3]), false);
    assert.equal(hasSignal([0.3, 0.30000001]), true);
  });

  it('tells a group that gains its signal and one that loses it', () => {
    const gains = compareGroup(0, 0, trajectories([0.5, 0.5, 0.5, 0.5], [1, 0, 1, 0]));
    assert.equal(gains.signalBefore, false);
    assert.equal(gains.signalAfter, true);
    // Every advantage moves from 0 to ±1: a disagreement of 1.
    close(gains.disagreement, 1);
    assert.deepEqual(
      gains.kept.map((trajectory) => [trajectory.advantageBefore, trajectory.advantageAfter]),
      [
        [0, 1],
        [0, -1],
        [0, 1],
        [0, -1],
      ],
    );
    assert.equal(gains.rankCorrelation, null);
    const loses = compareGroup(1, 3, trajectories([0.9, 0.1], [1, 1]));
    assert.equal(loses.signalBefore, true);
    assert.equal(loses.signalAfter, false);
    close(loses.spreadBefore, 0.8);
    assert.equal(loses.spreadAfter, 0);
  });

  it('finds no disagreement where the new reward orders the group as the old one did, whatever its scale', () => {
    const agreeing = compareGroup(0, 0, trajectories([0.2, 0.8, 0.2, 0.8], [0, 10, 0, 10]));
    close(agreeing.disagreement, 0);
    close(agreeing.rankCorrelation, 1);
    const reversed = compareGroup(0, 0, trajectories([0.2, 0.8, 0.2, 0.8], [1, 0, 1, 0]));
    // Each normalized advantage flips from ±1 to ∓1.
    close(reversed.disagreement, 2);
    close(reversed.rankCorrelation, -1);
  });

  it('compares only trajectories with both rewards, and counts the others', () => {
    const builder = new ComparisonBuilder();
    builder.add(0, 0, trajectories([1, 0, null], [1, 0, 1]));
    builder.add(1, 1, trajectories([1, 0, 1], [null, null, 1]));
    const { totals, groups } = builder.result();
    assert.equal(totals.trajectories, 6);
    assert.equal(totals.compared, 3);
    assert.equal(totals.withoutOldReward, 1);
    assert.equal(totals.notScored, 2);
    assert.deepEqual(totals.scoreErrors, [{ message: 'the sample has no reference to compare with', count: 2 }]);
    // The second group has one compared trajectory: no signal can be told for it.
    assert.equal(totals.groupsCompared, 1);
    assert.equal(groups.find((group) => group.index === 1)!.kept[0]!.advantageBefore, null);
  });

  it('gives the overall figures: signal shares, means and the correlation of old and new', () => {
    const builder = new ComparisonBuilder();
    builder.add(0, 0, trajectories([1, 0], [1, 0]));
    builder.add(1, 1, trajectories([0.5, 0.5], [1, 0]));
    builder.add(2, 2, trajectories([1, 0], [0, 0]));
    const { totals } = builder.result();
    assert.equal(totals.groupsCompared, 3);
    assert.equal(totals.signalBefore, 2);
    assert.equal(totals.signalAfter, 2);
    assert.equal(totals.gainedSignal, 1);
    assert.equal(totals.lostSignal, 1);
    close(totals.meanBefore, 0.5);
    close(totals.meanAfter, 1 / 3);
    // Old [1, 0, .5, .5, 1, 0] against new [1, 0, 1, 0, 0, 0].
    close(totals.correlation, pearsonOf([1, 0, 0.5, 0.5, 1, 0], [1, 0, 1, 0, 0, 0]));
  });

  it('keeps the groups that disagree most, most first and in file order among equals, within its bound', () => {
    const builder = new ComparisonBuilder(3);
    const agree = trajectories([1, 0], [1, 0]);
    const flip = trajectories([1, 0], [0, 1]);
    const gain = trajectories([0, 0], [1, 0]);
    const cases = [agree, flip, agree, gain, flip, agree, gain, agree, agree, agree];
    cases.forEach((group, index) => builder.add(index, index, group));
    const { groups, groupsNotKept } = builder.result();
    // Flips move by 2, gains by 1, agreements by 0.
    assert.deepEqual(
      groups.map((group) => group.index),
      [1, 4, 3],
    );
    assert.equal(groupsNotKept, 7);
  });
});

function pearsonOf(xs: number[], ys: number[]): number {
  const mean = (values: number[]): number => values.reduce((sum, value) => sum + value, 0) / values.length;
  const mx = mean(xs);
  const my = mean(ys);
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let at = 0; at < xs.length; at++) {
    sxy += (xs[at]! - mx) * (ys[at]! - my);
    sxx += (xs[at]! - mx) ** 2;
    syy += (ys[at]! - my) ** 2;
  }
  return sxy / Math.sqrt(sxx * syy);
}
