import * as assert from 'node:assert/strict';
import { summarizeGroup } from '../../../src/rollouts/model/groupSummary';
import { maxMetadataKeys, maxMetadataValueChars, trajectoriesOf, type GroupSummary } from '../../../src/rollouts/model/groupSummaryShape';
import { choice, group, groupOfRewards, trajectory } from './rolloutFixtures';

const place = { index: 0, line: 4, offset: 100, bytes: 321 };

function summaryOf(value: unknown): GroupSummary {
  const { summary } = summarizeGroup(value, place);
  if (!summary) throw new Error('no summary');
  return summary;
}

function near(actual: number, expected: number): void {
  assert.ok(Math.abs(actual - expected) < 1e-12, `${actual} is not ${expected}`);
}

describe('group summary', () => {
  it('gives mean, population std, min, max and each advantage (hand-computed)', () => {
    const summary = summaryOf(groupOfRewards([0.2, 0.4, 0.6]));
    assert.equal(summary.trajectoryCount, 3);
    assert.equal(summary.line, 4);
    assert.equal(summary.offset, 100);
    assert.equal(summary.bytes, 321);
    near(summary.reward.mean, 0.4);
    // Deviations −0.2, 0, 0.2: variance (0.04 + 0 + 0.04) / 3.
    near(summary.reward.std, Math.sqrt(0.08 / 3));
    assert.equal(summary.reward.min, 0.2);
    assert.equal(summary.reward.max, 0.6);
    const advantages = trajectoriesOf(summary).map((item) => item.advantage);
    [-0.2, 0, 0.2].forEach((expected, position) => near(advantages[position]!, expected));
    const normalized = trajectoriesOf(summary).map((item) => item.normalizedAdvantage);
    [-Math.sqrt(1.5), 0, Math.sqrt(1.5)].forEach((expected, position) => near(normalized[position]!, expected));
    assert.deepEqual(summary.flags, []);
  });

  it('flags a group whose rewards are all equal as noSignal, with advantages of 0', () => {
    const summary = summaryOf(groupOfRewards([1, 1, 1, 1]));
    assert.deepEqual(summary.flags, ['noSignal']);
    assert.equal(summary.reward.std, 0);
    assert.deepEqual(
      trajectoriesOf(summary).map((item) => [item.advantage, item.normalizedAdvantage]),
      [
        [0, 0],
        [0, 0],
        [0, 0],
        [0, 0],
      ],
    );
  });

  it('flags highVariance above a std of 0.4 and not below it', () => {
    // Rewards 0, 1, 0, 1: mean 0.5, std 0.5, normalised advantages ±1.
    const split = summaryOf(groupOfRewards([0, 1, 0, 1]));
    assert.deepEqual(split.flags, ['highVariance']);
    assert.deepEqual(
      trajectoriesOf(split).map((item) => item.normalizedAdvantage),
      [-1, 1, -1, 1],
    );
    // Rewards 0 and 0.75: std 0.375; 0 and 0.875: std 0.4375 (both exact in binary).
    assert.equal(summaryOf(groupOfRewards([0, 0.75])).reward.std, 0.375);
    assert.deepEqual(summaryOf(groupOfRewards([0, 0.75])).flags, []);
    assert.deepEqual(summaryOf(groupOfRewards([0, 0.875])).flags, ['highVariance']);
  });

  it('flags exceptions and counts them', () => {
    const summary = summaryOf(groupOfRewards([0.2, 0.3], { exceptions: [{ type: 'TimeoutError', message: 'rollout timed out' }] }));
    assert.equal(summary.exceptionCount, 1);
    assert.deepEqual(summary.flags, ['exceptions']);
  });

  it('flags truncated when a choice stopped at the length limit, and lists finish reasons', () => {
    const summary = summaryOf(group([trajectory(0.2, choice('A full answer that was cut', 'length')), trajectory(0.3, choice('A full answer, finished.'))]));
    assert.deepEqual(summary.flags, ['truncated']);
    assert.deepEqual(
      trajectoriesOf(summary).map((item) => item.finishReasons),
      [['length'], ['stop']],
    );
  });

  it('flags emptyOrRepetitive for an empty choice and for a looping one, not for a tool call without text', () => {
    const empty = summaryOf(group([trajectory(0.2, choice('   ')), trajectory(0.3, choice('A fine answer.'))]));
    assert.deepEqual(empty.flags, ['emptyOrRepetitive']);
    const looping = summaryOf(group([trajectory(0.2, choice('Let me think again. '.repeat(30))), trajectory(0.3, choice('A fine answer.'))]));
    assert.deepEqual(looping.flags, ['emptyOrRepetitive']);
    assert.ok(trajectoriesOf(looping)[0]!.repetition > 0.9);
    const toolCall = [{ id: 'c1', type: 'function', function: { name: 'search', arguments: '{"q":"weather"}' } }];
    const calling = summaryOf(group([trajectory(0.2, choice(null, 'tool_calls', toolCall)), trajectory(0.3, choice('A fine answer.'))]));
    assert.deepEqual(calling.flags, []);
    // The name and arguments count as completion characters.
    assert.equal(trajectoriesOf(calling)[0]!.completionLength, 'search'.length + '{"q":"weather"}'.length);
  });

  it('flags doNothingSibling for a trivial answer with a positive advantage only', () => {
    const rewarded = summaryOf(group([trajectory(1, choice(' ... ')), trajectory(0, choice('Four, since two plus two is four.'))]));
    assert.deepEqual(rewarded.flags, ['highVariance', 'doNothingSibling']);
    const penalised = summaryOf(group([trajectory(0, choice('...')), trajectory(0.5, choice('Four, since two plus two is four.'))]));
    assert.deepEqual(penalised.flags, []);
    const noChoice = summaryOf(group([trajectory(0.3), trajectory(0.2, choice('Four, since two plus two is four.'))]));
    assert.deepEqual(noChoice.flags, ['doNothingSibling']);
  });

  it('takes a short answer such as 42 as an answer, and a short text among siblings that call tools as doing nothing', () => {
    const answered = summaryOf(group([trajectory(1, choice('42')), trajectory(0, choice('It is probably 41, since the question is about something else.'))]));
    assert.ok(!answered.flags.includes('doNothingSibling'), answered.flags.join(', '));
    const toolCall = [{ id: 'c1', type: 'function', function: { name: 'search', arguments: '{"q":"weather"}' } }];
    const idle = summaryOf(group([trajectory(1, choice('ok')), trajectory(0, choice(null, 'tool_calls', toolCall))]));
    assert.ok(idle.flags.includes('doNothingSibling'), idle.flags.join(', '));
  });

  it('takes a difference from the mean that is only rounding as no advantage', () => {
    const summary = summaryOf(group([trajectory(0.1, choice('a')), trajectory(0.2, choice('b')), trajectory(0.3, choice('c'))]));
    const advantages = trajectoriesOf(summary).map((entry) => entry.advantage);
    assert.equal(advantages[1], 0, `not ${advantages[1]}`);
    assert.ok(advantages[0]! < 0 && advantages[2]! > 0);
  });

  it('counts the characters of trained choices only, not plain assistant messages', () => {
    const value = group([
      { ...trajectory(0.5, choice('12345')), messages_and_choices: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'not trained, not counted' }, choice('12345'), choice('678')] },
    ]);
    const summary = summaryOf(value);
    assert.equal(trajectoriesOf(summary)[0]!.completionLength, 8);
    assert.equal(trajectoriesOf(summary)[0]!.choices, 2);
  });

  it('keeps numeric metrics, booleans as 1 and 0, and a small copy of the metadata', () => {
    const metadata: Record<string, unknown> = { long: 'z'.repeat(500), nested: { a: [1, 2] }, ['__proto__']: 'kept as a key' };
    for (let index = 0; index < 30; index++) metadata[`k${index}`] = index;
    const summary = summaryOf(groupOfRewards([0.1, 0.2], { metadata: JSON.parse(JSON.stringify(metadata)) }));
    assert.equal(Object.keys(summary.metadata).length, maxMetadataKeys);
    assert.equal((summary.metadata.long as string).length, maxMetadataValueChars);
    assert.equal(summary.metadata.nested, '{"a":[1,2]}');
    assert.equal(Object.getOwnPropertyDescriptor(summary.metadata, '__proto__')?.value, 'kept as a key');
    assert.deepEqual({ ...trajectoriesOf(summary)[1]!.metrics }, { correct: 1, passed: 1, turns: 1 });
  });

  it('gives each trajectory only the metrics it has, in the columns of its group', () => {
    const summary = summaryOf(
      group([
        { ...trajectory(0.5), metrics: { score: 0.25, passed: true } },
        { ...trajectory(0.5), metrics: { steps: 3, score: 1 } },
        { ...trajectory(0.5), metrics: 'none' },
      ]),
    );
    assert.deepEqual(summary.metricKeys, ['score', 'passed', 'steps']);
    assert.deepEqual(
      trajectoriesOf(summary).map((item) => ({ ...item.metrics })),
      [{ score: 0.25, passed: 1 }, { steps: 3, score: 1 }, {}],
    );
  });

  it('gives no summary for a value with no trajectory to read, and says it is not well-formed', () => {
    for (const value of [[1, 2], { trajectories: {} }, { trajectories: [] }, { trajectories: [{ reward: 'high' }, 3] }]) {
      assert.deepEqual(summarizeGroup(value, place), { summary: undefined, wellFormed: false }, JSON.stringify(value));
    }
  });

  it('summarises the trajectories with a numeric reward of a group whose others are broken', () => {
    const result = summarizeGroup(group([trajectory(1, choice('A full answer.')), { reward: 'high' }, 'not a trajectory', trajectory(0, choice('Another answer.'))]), place);
    assert.equal(result.wellFormed, false);
    const summary = result.summary;
    assert.ok(summary);
    assert.equal(summary.trajectoryCount, 2);
    assert.deepEqual(
      trajectoriesOf(summary).map((item) => item.reward),
      [1, 0],
    );
    assert.equal(summary.reward.mean, 0.5);
  });

  it('says a group as ART writes it is well-formed', () => {
    assert.equal(summarizeGroup(groupOfRewards([0, 1]), place).wellFormed, true);
  });
});
