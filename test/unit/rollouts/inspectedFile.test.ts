import * as assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileSource } from '../../../src/rollouts/model/fileSource';
import { InspectedFile } from '../../../src/rollouts/model/inspectedFile';
import { defaultQuery, type GroupQuery, type RolloutFileState } from '../../../src/rollouts/model/inspectorModel';

const fixture = join(__dirname, '../../../../test/fixtures/rollouts/flags.trajectories.jsonl');

function group(answer: string, rewards: number[], metadata: Record<string, unknown> = {}): string {
  return JSON.stringify({
    trajectories: rewards.map((reward) => ({
      messages_and_choices: [
        { role: 'user', content: 'What is 6 x 7?' },
        { index: 0, finish_reason: 'stop', message: { role: 'assistant', content: answer } },
      ],
      reward,
    })),
    metadata,
  });
}

const withFlag = (flag: 'noSignal' | 'truncated' | 'exceptions'): GroupQuery => ({ ...defaultQuery, filter: { ...defaultQuery.filter, flags: [flag] } });
const withText = (text: string): GroupQuery => ({ ...defaultQuery, filter: { ...defaultQuery.filter, text } });

describe('InspectedFile: a rollout file as the inspector holds it', () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'rl-studio-inspected-'));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  function inspect(name: string, text: string, options: { firstScreenGroups?: number; announceEveryMs?: number } = {}): { file: InspectedFile; path: string; states: RolloutFileState[] } {
    const path = join(folder, name);
    writeFileSync(path, text);
    const file = new InspectedFile({ fileName: name, format: name.endsWith('.jsonl') ? 'jsonl' : 'json', source: fileSource(path), ...options });
    const states: RolloutFileState[] = [];
    file.onDidChange((state) => states.push(state));
    return { file, path, states };
  }

  it('reads a file with its flags and its problems (with their lines), and keeps what can be read', async () => {
    const { file } = inspect('flags.trajectories.jsonl', readFileSync(fixture, 'utf8'));
    await file.open();
    const state = file.state();
    assert.equal(state.reading, undefined);
    assert.equal(state.statistics.groups, 7, 'the group of the wrong shape is listed with its one readable trajectory');
    assert.equal(state.statistics.trajectories, 13);
    assert.deepEqual([...new Set(state.problems.map((problem) => problem.line))], [6, 7]);
    const truncated = await file.rows(withFlag('truncated'), 0, 10);
    assert.deepEqual(
      truncated.rows.map((row) => row.metadata.case),
      ['truncated'],
    );
    assert.equal(truncated.total, 1);
  });

  it('says in words that a file is no longer there, and marks it unreadable; reading it again once it is back clears both', async () => {
    const { file, path } = inspect('gone.trajectories.jsonl', `${group('42', [1, 0])}\n`);
    rmSync(path);
    await file.open();
    const gone = file.state();
    assert.equal(gone.error, 'This file is no longer there: it was moved or deleted. Close this tab, or open the file where it is now.');
    assert.equal(gone.unreadable, true);
    writeFileSync(path, `${group('42', [1, 0])}\n`);
    await file.changed();
    const back = file.state();
    assert.equal(back.error, undefined);
    assert.equal(back.unreadable, undefined);
    assert.equal(back.statistics.groups, 1);
  });

  it('announces a first screen of groups before the file is read whole', async () => {
    const lines = Array.from({ length: 2_000 }, (_, index) => group(`answer ${index}`, [index % 2, 1], { index }));
    const { file, states } = inspect('many.jsonl', `${lines.join('\n')}\n`, { firstScreenGroups: 60, announceEveryMs: 60_000 });
    await file.open();
    const early = states.find((state) => state.reading && state.statistics.groups >= 60);
    assert.ok(early, 'a state with the first screen of groups came while the file was still read');
    assert.ok(early.statistics.groups < 2_000);
    assert.equal(states.at(-1)!.statistics.groups, 2_000);
    assert.equal(states.at(-1)!.reading, undefined);
    assert.ok(
      states.every((state, at) => at === 0 || state.version > states[at - 1]!.version),
      'every announcement is a new version',
    );
  });

  it('reads only what was appended to a .jsonl, and waits for a line still being written', async () => {
    const { file, path } = inspect('growing.jsonl', `${group('42', [1, 0])}\n{"not json\n`);
    await file.open();
    assert.equal(file.state().statistics.groups, 1);
    assert.equal(file.state().problems.length, 1);
    const half = group('41', [0, 0], { appended: true });
    appendFileSync(path, half.slice(0, 20));
    await file.changed();
    assert.equal(file.state().statistics.groups, 1, 'half a line is not a group yet');
    assert.equal(file.state().problems.length, 1, 'nor a problem');
    appendFileSync(path, `${half.slice(20)}\n`);
    await file.changed();
    const state = file.state();
    assert.equal(state.statistics.groups, 2);
    assert.equal(state.problems.length, 1, 'the problem read before is not counted twice');
    const appended = await file.rows(withFlag('noSignal'), 0, 10);
    assert.deepEqual(
      appended.rows.map((row) => row.line),
      [2],
    );
  });

  it('reads a rewritten file again from the start', async () => {
    const { file, path } = inspect('rewritten.jsonl', `${group('42', [1, 0])}\n${group('43', [1, 1])}\n`);
    await file.open();
    assert.equal(file.state().statistics.groups, 2);
    writeFileSync(path, `${group('7', [0.5, 0.5, 0.5])}\n`);
    await file.changed();
    assert.equal(file.state().statistics.groups, 1);
    assert.equal(file.state().statistics.trajectories, 3);
  });

  it('opens a group whole, and gives null for a group no longer where it was read', async () => {
    const { file, path } = inspect('detail.jsonl', `${group('42', [1, 0], { case: 'a' })}\n${group('The answer is 42.', [0.2, 0.9, 0.5])}\n`);
    await file.open();
    const detail = await file.group(1);
    assert.ok(detail);
    assert.deepEqual(
      detail.trajectories.map((trajectory) => trajectory.reward),
      [0.9, 0.5, 0.2],
      'siblings best first',
    );
    writeFileSync(path, `${group('a much longer answer that moves every byte after it', [1, 0])}\n`);
    assert.equal(await file.group(1), null);
    await file.settled();
    assert.equal(file.state().statistics.groups, 1, 'the changed file was read again');
  });

  it('searches the messages of every group for a text', async () => {
    const { file } = inspect('search.jsonl', `${group('The answer is 42.', [1, 0])}\n${group('I do not know', [0, 0], { note: 'answer' })}\n${group('ANSWER: 42', [1, 1])}\n`);
    await file.open();
    const found = await file.rows(withText('answer'), 0, 10);
    assert.deepEqual(
      found.rows.map((row) => row.index),
      [0, 2],
      'a match in the metadata only is not a match in the messages',
    );
  });
});
