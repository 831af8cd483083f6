import * as assert from 'node:assert/strict';
import { trajectoriesOf } from '../../../src/rollouts/groupSummary';
import { inspectRollouts, readRolloutRecords, rolloutFormatOf } from '../../../src/rollouts/rolloutReader';
import { choice, chunksOf, collect, group, groupOfRewards, trajectory } from './rolloutFixtures';

/** A group as ART writes it: system and user messages, a tool call and its result, choices with logprobs. */
const artGroup = group(
  [
    {
      ...trajectory(1),
      messages_and_choices: [
        { role: 'system', content: 'You answer questions about the weather.' },
        { role: 'user', content: 'Is it raining in Paris?' },
        choice(null, 'tool_calls', [{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } }]),
        { role: 'tool', tool_call_id: 'call_1', content: '{"rain":true}' },
        choice('Yes, it is raining in Paris.'),
      ],
      tools: [{ type: 'function', function: { name: 'weather', parameters: { type: 'object' } } }],
    },
    trajectory(0, choice('I cannot know that.')),
  ],
  { metadata: { scenario_id: 'paris-7' } },
);

const jsonl = [JSON.stringify(artGroup), '{"trajectories": [ broken', '', JSON.stringify(groupOfRewards([1, 1])), JSON.stringify({ trajectories: 'none' })].join('\n');

describe('rollout reader', () => {
  it('summarises ART-shaped groups of a .jsonl file and goes on past a bad line in the middle', async () => {
    const records = await collect(readRolloutRecords(chunksOf(jsonl, 13), 'jsonl'));
    assert.deepEqual(
      records.map((record) => (record.kind === 'group' ? ['group', record.summary.index, record.summary.line] : ['problem', record.problem.line])),
      [
        ['group', 0, 0],
        ['problem', 1],
        ['group', 1, 3],
        ['problem', 4],
      ],
    );
    const [first, bad, second, notGroup] = records;
    assert.ok(first?.kind === 'group' && second?.kind === 'group' && bad?.kind === 'problem' && notGroup?.kind === 'problem');
    assert.match(bad.problem.message, /^not valid JSON \(/);
    assert.equal(bad.problem.offset, JSON.stringify(artGroup).length + 1);
    assert.equal(notGroup.problem.message, 'not a trajectory group: "trajectories" is missing or not an array');
    const art = first.summary;
    assert.deepEqual({ ...art.metadata }, { scenario_id: 'paris-7' });
    assert.deepEqual(
      trajectoriesOf(art).map((item) => [item.reward, item.advantage, item.normalizedAdvantage, item.finishReasons, item.choices]),
      [
        [1, 0.5, 1, ['tool_calls', 'stop'], 2],
        [0, -0.5, -1, ['stop'], 1],
      ],
    );
    assert.equal(trajectoriesOf(art)[0]!.completionLength, 'weather'.length + '{"city":"Paris"}'.length + 'Yes, it is raining in Paris.'.length);
    assert.deepEqual(art.flags, ['highVariance']);
    assert.deepEqual(second.summary.flags, ['noSignal']);
  });

  it('reads a .json array of groups element by element, with the same summaries and their lines', async () => {
    const groups = [artGroup, groupOfRewards([0.5, 0.25]), { trajectories: [{ reward: 1, messages_and_choices: [choice('brackets ] } and "quotes\\" [ {')] }] }];
    const text = `\uFEFF[\n${groups.map((item) => `  ${JSON.stringify(item)}`).join(',\n')}\n]\n`;
    for (const size of [3, 64, 4096]) {
      const fromArray = await collect(readRolloutRecords(chunksOf(text, size), 'json'));
      const fromLines = await collect(readRolloutRecords(chunksOf(groups.map((item) => JSON.stringify(item)).join('\n'), size), 'jsonl'));
      assert.equal(fromArray.length, 3);
      fromArray.forEach((record, position) => {
        const line = fromLines[position]!;
        assert.ok(record.kind === 'group' && line.kind === 'group');
        assert.equal(record.summary.line, position + 1);
        assert.deepEqual({ ...record.summary, line: 0, offset: 0 }, { ...line.summary, line: 0, offset: 0 });
      });
      assert.ok(fromArray[0]!.kind === 'group' && fromArray[0]!.summary.offset === 3 + 1 + 1 + 2);
    }
  });

  it('reports a bad element of a .json array and reads the next', async () => {
    const text = `[${JSON.stringify(groupOfRewards([0, 1]))},\n{"trajectories": [1, }, \n${JSON.stringify(groupOfRewards([1, 1]))}]`;
    const records = await collect(readRolloutRecords(chunksOf(text, 16), 'json'));
    assert.deepEqual(
      records.map((record) => [record.kind, record.kind === 'group' ? record.summary.line : record.problem.line]),
      [
        ['group', 0],
        ['problem', 1],
        ['group', 2],
      ],
    );
  });

  it('reports a .json file that is not an array, is empty, or ends inside the array', async () => {
    const messages = async (text: string) => (await collect(readRolloutRecords(chunksOf(text, 4), 'json'))).map((record) => (record.kind === 'problem' ? record.problem.message : 'group'));
    assert.deepEqual(await messages('{"trajectories": []}'), ['a .json rollout file must be an array of trajectory groups (use .jsonl for one group per line)']);
    assert.deepEqual(await messages('  '), ['an empty file: a .json rollout file holds an array of trajectory groups']);
    assert.deepEqual(await messages(`[${JSON.stringify(groupOfRewards([0, 1]))}, {"trajectories": [`), ['group', 'not valid JSON: the file ends before the array of trajectory groups is closed']);
    assert.deepEqual(await messages('[1 2]'), ['not a trajectory group: expected an object with "trajectories"', 'not valid JSON: expected "," or "]" after a trajectory group']);
    assert.deepEqual(await messages('[,]'), ['not valid JSON: a value is missing in the array of trajectory groups']);
    assert.deepEqual(await messages('[] x'), ['not valid JSON: text after the end of the array']);
    assert.deepEqual(await messages('[]'), []);
  });

  it('skips a group over the size cap in either format and reads on', async () => {
    const big = JSON.stringify(groupOfRewards([0, 1, 0, 1, 0, 1]));
    const small = JSON.stringify({ trajectories: [{ reward: 1 }] });
    for (const [format, text] of [
      ['jsonl', `${big}\n${small}`],
      ['json', `[${big},${small}]`],
    ] as const) {
      const records = await collect(readRolloutRecords(chunksOf(text, 10), format, { maxGroupBytes: 100 }));
      assert.deepEqual(
        records.map((record) => (record.kind === 'problem' ? record.problem.message : 'group')),
        [`this group is ${big.length} bytes, more than the 100 read: it was skipped`, 'group'],
        format,
      );
    }
  });

  it('keeps at most maxProblems problems and maxGroups summaries, counting the rest', async () => {
    const lines = [...Array.from({ length: 5 }, () => 'not json'), ...Array.from({ length: 4 }, () => JSON.stringify(groupOfRewards([0, 1])))];
    const progress: number[] = [];
    const inspection = await inspectRollouts(chunksOf(lines.join('\n'), 50), 'jsonl', {
      maxProblems: 2,
      maxGroups: 3,
      progressEvery: 2,
      onProgress: (statistics, read) => progress.push(statistics.groups, read),
    });
    assert.deepEqual(
      inspection.problems.map((problem) => problem.line),
      [0, 1],
    );
    assert.equal(inspection.problemsNotListed, 3);
    assert.equal(inspection.groups.length, 3);
    assert.equal(inspection.groupsNotKept, 1);
    assert.equal(inspection.statistics.groups, 4);
    assert.deepEqual(progress, [2, 2, 4, 4]);
  });

  it('reads .jsonl by its name and anything else as a JSON array', () => {
    assert.equal(rolloutFormatOf('runs/step-3.JSONL'), 'jsonl');
    assert.equal(rolloutFormatOf('runs/step-3.json'), 'json');
  });
});
