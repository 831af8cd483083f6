import * as assert from 'node:assert/strict';
import { describeRolloutsForAgent } from '../../../src/rollouts/model/rolloutReport';
import { inspectRollouts } from '../../../src/rollouts/model/rolloutReader';
import { chunksOf, choice, group, groupOfRewards, trajectory } from './rolloutFixtures';

async function snapshotOf(text: string, options: { maxGroups?: number } = {}) {
  return (await inspectRollouts(chunksOf(text, 64), 'jsonl', options)).snapshot();
}

const flaggedFile = [
  JSON.stringify(groupOfRewards([0, 1, 1, 0.5])),
  JSON.stringify(groupOfRewards([1, 1])),
  'not json',
  JSON.stringify(group([trajectory(0.25, choice('cut off', 'length')), trajectory(0.75, choice(''))], { exceptions: [{ type: 'E', message: 'm' }] })),
].join('\n');

describe('rollout report for a language model', () => {
  it('describes groups, rewards with a 5-bin histogram, lengths, finish reasons, flags with their meaning, and problems', async () => {
    const text = describeRolloutsForAgent('rollouts.jsonl', await snapshotOf(`${flaggedFile}\n{"trajectories": [`));
    assert.equal(
      text,
      [
        'Rollout file: "rollouts.jsonl"',
        'Groups: 3 · trajectories: 8 (2.67 per group on average) · exceptions: 1',
        'The last line (line 5) is unfinished: perhaps still being written; it is not counted.',
        // Rewards 0, 1, 1, 0.5 | 1, 1 | 0.25, 0.75.
        'Reward: mean 0.688, std 0.37, min 0, max 1 (8 values)',
        'Reward histogram (5 equal bins):',
        '  0 to 0.2   | ##### 1',
        '  0.2 to 0.4 | ##### 1',
        '  0.4 to 0.6 | ##### 1',
        '  0.6 to 0.8 | ##### 1',
        '  0.8 to 1   | #################### 4',
        'Completion length (characters of the trained turns): mean 43.6, std 23.2, min 0, max 57 (8 values)',
        'Finish reasons: stop 7 · length 1',
        'Trajectory metrics: correct mean 0.875 (8 values) · passed true in 87.5% (8 values) · turns mean 1 (8 values)',
        'Flagged groups:',
        '- no signal: 1 of 3 (33.3%) · every trajectory got the same reward, so the group teaches nothing',
        '- high variance: 1 of 3 (33.3%) · rewards within the group spread widely',
        '- exceptions: 1 of 3 (33.3%) · the rollout recorded exceptions',
        '- truncated: 1 of 3 (33.3%) · a trained turn stopped at its length limit',
        '- empty or repetitive: 1 of 3 (33.3%) · a trained turn is empty or repeats itself',
        '- do-nothing sibling: 1 of 3 (33.3%) · a trajectory that does almost nothing has a positive advantage',
        'Problems: 1:',
        `- line 3 (error): not valid JSON (Unexpected token 'o', "not json" is not valid JSON)`,
      ].join('\n'),
    );
  });

  it('lists the first 5 problems of 8, and says how many groups were counted but not kept', async () => {
    const lines = [...Array.from({ length: 8 }, (_, index) => `bad ${index}`), JSON.stringify(groupOfRewards([0.5, 0.5])), JSON.stringify(groupOfRewards([0, 1]))];
    const text = describeRolloutsForAgent('r.jsonl', await snapshotOf(lines.join('\n'), { maxGroups: 1 }));
    const tail = text.split('\n').slice(-7);
    assert.deepEqual(
      tail.map((line) => line.replace(/ \(Unexpected.*$/, '')),
      [
        'Problems: 8, the first 5:',
        '- line 1 (error): not valid JSON',
        '- line 2 (error): not valid JSON',
        '- line 3 (error): not valid JSON',
        '- line 4 (error): not valid JSON',
        '- line 5 (error): not valid JSON',
        'Groups not kept: 1 (counted in the figures above; the inspector keeps the first 1 to list).',
      ],
    );
    // Every group is in the figures, the one not kept too: rewards 0.5, 0.5 and 0, 1.
    assert.ok(
      text.includes('\nReward histogram (5 equal bins):\n  0 to 0.2   | ########## 1\n  0.2 to 0.4 | 0\n  0.4 to 0.6 | #################### 2\n  0.6 to 0.8 | 0\n  0.8 to 1   | ########## 1\n'),
      text,
    );
  });

  it('says so when there is nothing to read, and when every reward is the same', async () => {
    assert.equal(
      describeRolloutsForAgent('empty.jsonl', await snapshotOf('')),
      ['Rollout file: "empty.jsonl"', 'Groups: 0 · trajectories: 0 · exceptions: 0', 'No group could be read, so there are no figures.', 'Problems: none.'].join('\n'),
    );
    const same = describeRolloutsForAgent('same.jsonl', await snapshotOf(JSON.stringify(groupOfRewards([1, 1, 1]))));
    assert.ok(same.includes('\nReward histogram: all 3 values are 1.\n'), same);
  });

  it('caps the text at the size asked, says how many lines it left out, and masks secrets in it', async () => {
    const secret = 'sk-live-0123456789abcdef';
    const text = describeRolloutsForAgent(`run-${secret}.jsonl`, await snapshotOf(flaggedFile), { maxChars: 300, secrets: [secret] });
    assert.equal(text.includes(secret), false);
    assert.match(text, /^Rollout file: "\S*\[redacted\]\.jsonl"\n/);
    const lines = text.split('\n');
    assert.match(lines.at(-1)!, /^… \d+ more lines$/);
    const whole = describeRolloutsForAgent('run-x.jsonl', await snapshotOf(flaggedFile));
    assert.equal(Number(/\d+/.exec(lines.at(-1)!)![0]) + lines.length - 1, whole.split('\n').length);
  });
});
