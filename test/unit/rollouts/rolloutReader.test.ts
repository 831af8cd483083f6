import * as assert from 'node:assert/strict';
import { trajectoriesOf } from '../../../src/rollouts/model/groupSummaryShape';
import { jsonArrayElements } from '../../../src/platform/kit/jsonArrayElements';
import { inspectRollouts, readRolloutRecords } from '../../../src/rollouts/model/rolloutReader';
import { formatForFileName } from '../../../src/platform/kit/trajectoryFile';
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
      records.map((record) => (record.kind === 'group' ? ['group', record.summary.index, record.summary.line] : record.kind === 'problem' ? ['problem', record.problem.line] : ['incomplete'])),
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
    assert.equal(notGroup.problem.message, 'trajectories: "trajectories" must be an array, not the string "none"');
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
      records.map((record) => [record.kind, record.kind === 'group' ? record.summary.line : record.kind === 'problem' ? record.problem.line : -1]),
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
    assert.deepEqual(await messages('[1 2]'), ['a trajectory group must be an object with "trajectories", not the number 1', 'not valid JSON: expected "," or "]" after a trajectory group']);
    assert.deepEqual(await messages('[,]'), ['not valid JSON: a value is missing in the array of trajectory groups']);
    assert.deepEqual(await messages('[] x'), ['not valid JSON: text after the end of the array']);
    assert.deepEqual(await messages('[]'), []);
  });

  it('skips a group over the size cap in either format and reads on', async () => {
    const big = JSON.stringify(groupOfRewards([0, 1, 0, 1, 0, 1]));
    const small = JSON.stringify({ trajectories: [{ messages_and_choices: [choice('ok')], reward: 1 }] });
    for (const [format, text] of [
      ['jsonl', `${big}\n${small}`],
      ['json', `[${big},${small}]`],
    ] as const) {
      const records = await collect(readRolloutRecords(chunksOf(text, 10), format, { maxGroupBytes: 400 }));
      assert.deepEqual(
        records.map((record) => (record.kind === 'problem' ? record.problem.message : record.kind)),
        [`this group is ${big.length} bytes, more than the 400 read: it was skipped`, 'group'],
        format,
      );
    }
  });

  it('keeps at most maxProblems problems and maxGroups summaries, counting the rest', async () => {
    const lines = [...Array.from({ length: 5 }, () => 'not json'), ...Array.from({ length: 4 }, () => JSON.stringify(groupOfRewards([0, 1])))];
    const progress: number[] = [];
    const collection = await inspectRollouts(chunksOf(`${lines.join('\n')}\n`, 50), 'jsonl', {
      maxProblems: 2,
      maxGroups: 3,
      progressEvery: 2,
      onProgress: (snapshot) => progress.push(snapshot.statistics.groups),
    });
    const snapshot = collection.snapshot();
    assert.deepEqual(
      snapshot.problems.map((problem) => problem.line),
      [0, 1],
    );
    assert.equal(snapshot.problemsNotListed, 3);
    assert.equal(collection.groups.length, 3);
    assert.equal(snapshot.groupsNotKept, 1);
    assert.equal(snapshot.statistics.groups, 4);
    assert.deepEqual(snapshot.next, { line: 9, offset: Buffer.byteLength(`${lines.join('\n')}\n`), index: 4 });
    // Progress comes after the chunk that reaches the count: at least every 2 groups, in order, ending at 4.
    assert.ok(progress.length >= 2 && progress.every((groups, position) => position === 0 || groups > progress[position - 1]!) && progress.at(-1) === 4, String(progress));
  });

  it('reads .jsonl by its name and anything else as a JSON array', () => {
    assert.equal(formatForFileName('runs/step-3.JSONL'), 'jsonl');
    assert.equal(formatForFileName('runs/step-3.json'), 'json');
  });
});

describe('rollout reader: bytes, shape problems and reading on', () => {
  it("gives each group's byte length, so a positioned read at its offset gives back its text (CRLF, multi-byte UTF-8, .json elements)", async () => {
    const texts = [JSON.stringify(groupOfRewards([0, 1], { metadata: { note: 'çé€ 😀' } })), JSON.stringify(groupOfRewards([1, 1]))];
    const cases = [
      ['jsonl', `${texts[0]}\r\n${texts[1]}\r\n`],
      ['jsonl', `${texts[0]}\n\n${texts[1]}`],
      ['json', `[\r\n  ${texts[0]},\r\n  ${texts[1]}\r\n]`],
    ] as const;
    for (const [format, text] of cases) {
      const bytes = Buffer.from(text, 'utf8');
      const groups = (await collect(readRolloutRecords(chunksOf(text, 7), format))).flatMap((record) => (record.kind === 'group' ? [record.summary] : []));
      assert.equal(groups.length, 2);
      groups.forEach((summary, position) => {
        assert.equal(bytes.subarray(summary.offset, summary.offset + summary.bytes).toString('utf8'), texts[position], `${format} group ${position}`);
      });
      assert.equal(groups[0]!.bytes, Buffer.byteLength(texts[0]!));
    }
  });

  it('reports shape problems with the path of each value, and still summarises the trajectories with a numeric reward', async () => {
    const broken = group([
      trajectory(1, choice('A full answer.')),
      { ...trajectory(0.5, choice('Another answer.')), reward: 'high' },
      { ...trajectory(0, choice('A third answer.')), messages_and_choices: [{ role: 'narrator', content: 'Once upon a time' }, choice('The end.')] },
    ]);
    const records = await collect(readRolloutRecords(chunksOf(`${JSON.stringify(groupOfRewards([0, 1]))}\n${JSON.stringify(broken)}\n`, 64), 'jsonl'));
    assert.deepEqual(
      records.map((record) =>
        record.kind === 'problem' ? [record.problem.line, record.problem.severity, record.problem.message] : record.kind === 'group' ? ['group', record.summary.index] : [record.kind],
      ),
      [
        ['group', 0],
        [1, 'error', 'trajectories[1].reward: "reward" must be a number, not the string "high"'],
        [1, 'warning', 'trajectories[2].messages_and_choices[0].role: unusual role "narrator": expected system, user, assistant or tool'],
        ['group', 1],
      ],
    );
    const last = records.at(-1);
    assert.ok(last?.kind === 'group');
    assert.equal(last.summary.trajectoryCount, 2);
    const problem = records[1];
    assert.ok(problem?.kind === 'problem');
    assert.equal(problem.problem.bytes, last.summary.bytes);
    assert.equal(problem.problem.offset, last.summary.offset);
  });

  it('lists at most maxProblemsPerGroup shape problems of a group and counts the rest in one more', async () => {
    const many = group(Array.from({ length: 30 }, () => ({ reward: 'none' })));
    const records = await collect(readRolloutRecords(chunksOf(JSON.stringify(many), 100), 'jsonl', { maxProblemsPerGroup: 5 }));
    const messages = records.map((record) => (record.kind === 'problem' ? record.problem.message : record.kind));
    assert.equal(messages.length, 6);
    assert.equal(messages[0], 'trajectories[0]: missing "messages_and_choices"');
    assert.match(messages[5]!, /^\d+ more problems in this group not listed/);
  });

  it('says a last line with no newline that does not read as JSON is incomplete, and reads it again from next once finished', async () => {
    const first = JSON.stringify(groupOfRewards([0, 1]));
    const second = JSON.stringify(groupOfRewards([1, 1]));
    const written = `${first}\n${second.slice(0, 40)}`;
    const records = await collect(readRolloutRecords(chunksOf(written, 16), 'jsonl'));
    assert.deepEqual(
      records.map((record) => record.kind),
      ['group', 'incomplete'],
    );
    const [done, incomplete] = records;
    assert.ok(done?.kind === 'group' && incomplete?.kind === 'incomplete');
    assert.deepEqual(done.next, { line: 1, offset: first.length + 1, index: 1 });
    assert.deepEqual({ ...incomplete }, { kind: 'incomplete', line: 1, offset: first.length + 1, bytes: 40 });
    // The writer finishes the line and adds another: reading on from `next` sees the whole line.
    const whole = `${first}\n${second}\n${first}`;
    const rest = await collect(readRolloutRecords(chunksOf(whole.slice(done.next.offset), 16), 'jsonl', { from: done.next }));
    assert.deepEqual(
      rest.map((record) => (record.kind === 'group' ? [record.summary.index, record.summary.line, record.summary.offset] : [record.kind])),
      [
        [1, 1, first.length + 1],
        // A complete group on the last line is read even without a newline after it.
        [2, 2, first.length + second.length + 2],
      ],
    );
    const last = rest.at(-1);
    assert.ok(last?.kind === 'group');
    assert.deepEqual(last.next, { line: 2, offset: whole.length, index: 3 });
  });

  it('reads a .json array on from after an element', async () => {
    const elements = [groupOfRewards([0, 1]), groupOfRewards([1, 1]), groupOfRewards([0.5, 1])].map((item) => JSON.stringify(item));
    const text = `[\n${elements.join(',\n')}\n]\n`;
    const all = await collect(readRolloutRecords(chunksOf(text, 9), 'json'));
    const first = all[0];
    assert.ok(first?.kind === 'group');
    assert.deepEqual(first.next, { line: 1, offset: 2 + elements[0]!.length, index: 1 });
    const rest = await collect(readRolloutRecords(chunksOf(text.slice(first.next.offset), 9), 'json', { from: first.next }));
    assert.deepEqual(
      rest.map((record) => (record.kind === 'group' ? [record.summary.index, record.summary.line, record.summary.offset] : [record.kind])),
      all.slice(1).map((record) => (record.kind === 'group' ? [record.summary.index, record.summary.line, record.summary.offset] : [record.kind])),
    );
    assert.equal(rest.length, 2);
  });
});

describe('rollout pieces one by one', () => {
  it('gives the elements of a .json array as the reader cuts them, one piece at a time', async () => {
    const elements = [JSON.stringify(groupOfRewards([0, 1])), '{"a": "]}"}'];
    const pieces = await collect(jsonArrayElements(chunksOf(`[${elements.join(', ')}] x`, 5), { maxElementBytes: 10_000 }));
    assert.deepEqual(
      pieces.map((piece) => (piece.kind === 'line' ? piece.text : piece.kind === 'problem' ? piece.message : piece.kind)),
      [...elements, 'not valid JSON: text after the end of the array'],
    );
  });
});
