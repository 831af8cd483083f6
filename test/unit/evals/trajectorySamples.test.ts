import * as assert from 'node:assert/strict';
import { samplesFromParquetLog, samplesFromTrajectoryGroups } from '../../../src/evals/model/trajectorySamples';
import { parquetBytesSource } from '../../../src/platform/parquet/parquetFile';
import { artParquetBytes } from '../../support/artParquet';

const choice = (content: string | null): unknown => ({ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } });
const trajectory = (reward: unknown, ...items: unknown[]): unknown => ({ reward, messages_and_choices: items });
const prompt = [
  { role: 'system', content: 'You are terse.' },
  { role: 'user', content: 'Capital of France?' },
];

describe('samples from trajectory groups', () => {
  it("takes the best trajectory's prompt and its first choice's text as the reference", () => {
    const group = {
      trajectories: [
        trajectory(0.2, ...prompt, choice('Lyon')),
        trajectory(0.9, ...prompt, choice('Paris'), { role: 'user', content: 'and Spain?' }, choice('Madrid')),
        trajectory(0.9, ...prompt, choice('paris')),
      ],
      metadata: { task: 'geo' },
    };
    const { samples, problems } = samplesFromTrajectoryGroups(`${JSON.stringify(group)}\n`, 'jsonl');
    assert.deepEqual(problems, []);
    assert.equal(samples.length, 1);
    assert.deepEqual(samples[0]!.messages, prompt);
    assert.equal(samples[0]!.reference, 'Paris');
    assert.deepEqual(samples[0]!.metadata, { task: 'geo' });
    assert.equal(samples[0]!.line, 0);
  });

  it('reads a .json array of groups with each group’s line', () => {
    const groups = [{ trajectories: [trajectory(1, prompt[1], choice('Paris'))] }, { trajectories: [trajectory(1, { role: 'user', content: 'Spain?' }, choice('Madrid'))] }];
    const text = `[\n${groups.map((group) => JSON.stringify(group)).join(',\n')}\n]`;
    const { samples, problems } = samplesFromTrajectoryGroups(text, 'json');
    assert.deepEqual(problems, []);
    assert.deepEqual(
      samples.map((sample) => [sample.line, sample.reference]),
      [
        [1, 'Paris'],
        [2, 'Madrid'],
      ],
    );
  });

  it('gives a problem for groups with no usable best trajectory, and goes on', () => {
    const lines = [
      JSON.stringify({ trajectories: [] }),
      JSON.stringify({ trajectories: [trajectory('high', prompt[1], choice('x'))] }),
      JSON.stringify({ trajectories: [trajectory(1, choice('x'))] }),
      JSON.stringify({ trajectories: [trajectory(1, prompt[1])] }),
      '{oops',
      JSON.stringify({ trajectories: [trajectory(1, prompt[1], choice('fine'))] }),
    ];
    const { samples, problems } = samplesFromTrajectoryGroups(lines.join('\n'), 'jsonl');
    assert.equal(samples.length, 1);
    assert.equal(samples[0]!.line, 5);
    assert.deepEqual(
      problems.map((problem) => problem.line),
      [0, 1, 2, 3, 4],
    );
    assert.match(problems[2]!.message, /no prompt before it/);
    assert.match(problems[3]!.message, /has no choice/);
    assert.match(problems[4]!.message, /the group is not JSON/);
  });

  it('leaves the reference out when the best choice has no text (a tool call)', () => {
    const group = { trajectories: [trajectory(1, prompt[1], { finish_reason: 'tool_calls', message: { role: 'assistant', content: null, tool_calls: [] } })] };
    const { samples } = samplesFromTrajectoryGroups(JSON.stringify(group), 'jsonl');
    assert.equal(samples[0]!.reference, undefined);
  });

  it("reads the official client's Parquet log: a sample per group, placed at the group's first row, its trainable message the reference", async () => {
    const groups = [
      { trajectories: [trajectory(0.1, ...prompt, choice('Lyon')), trajectory(0.8, ...prompt, choice('Paris'))], metadata: { task: 'geo' } },
      { trajectories: [trajectory(1, { role: 'user', content: 'Spain?' }, choice('Madrid'))] },
      { trajectories: [trajectory(1, choice('no prompt'))] },
    ];
    const { samples, problems } = await samplesFromParquetLog(parquetBytesSource(await artParquetBytes(groups)));
    assert.deepEqual(
      samples.map((sample) => [sample.line, sample.reference]),
      [
        [0, 'Paris'],
        [2, 'Madrid'],
      ],
    );
    assert.deepEqual(samples[0]!.messages, prompt);
    assert.deepEqual(samples[0]!.metadata, { task: 'geo' });
    assert.equal(problems.length, 1);
    assert.equal(problems[0]!.line, 3);
    assert.match(problems[0]!.message, /^row 4: the best trajectory starts with a choice/);
  });

  it('says why a Parquet file gives no samples when it is not a trajectory log', async () => {
    const { samples, problems } = await samplesFromParquetLog(parquetBytesSource(new TextEncoder().encode('not parquet at all')));
    assert.equal(samples.length, 0);
    assert.match(problems[0]!.message, /not Parquet/);
  });
});
