import * as assert from 'node:assert/strict';
import { RolloutCollection } from '../../../src/rollouts/model/rolloutCollection';
import { inspectRollouts, readRolloutRecords } from '../../../src/rollouts/model/rolloutReader';
import { chunksOf, collect, groupOfRewards } from './rolloutFixtures';

const lines = [groupOfRewards([0, 1]), groupOfRewards([1, 1]), groupOfRewards([0.25, 0.75]), groupOfRewards([1, 0, 1])].map((item) => JSON.stringify(item));

/** Reads `text` (the file as written so far) on from where the collection stopped, as an editor following it would. */
async function readOn(collection: RolloutCollection, text: string): Promise<void> {
  const bytes = Buffer.from(text, 'utf8');
  async function* from(offset: number): AsyncGenerator<Uint8Array> {
    for (let start = offset; start < bytes.length; start += 11) yield bytes.subarray(start, Math.min(bytes.length, start + 11));
  }
  await inspectRollouts(from(collection.next.offset), 'jsonl', {}, collection);
}

describe('rollout collection', () => {
  it('follows a file that grows, part lines included, to the same groups, statistics and positions as one reading of the whole', async () => {
    const whole = `${lines[0]}\n${lines[1]}\n\nnot json\n${lines[2]}\n${lines[3]}\n`;
    const once = await inspectRollouts(chunksOf(whole, 64), 'jsonl');
    const following = new RolloutCollection();
    // The writer's flushes: cut anywhere, in the middle of lines too.
    for (const cut of [10, lines[0]!.length + 1, lines[0]!.length + 30, whole.indexOf('not json') + 3, whole.indexOf('not json') + 9, whole.length - 5, whole.length]) {
      await readOn(following, whole.slice(0, cut));
      // An unfinished last line is never a problem, and reading goes on from its start.
      const snapshot = following.snapshot();
      assert.ok(snapshot.problems.every((problem) => problem.message.startsWith('not valid JSON (') && problem.line === 3));
      if (snapshot.incomplete) assert.equal(snapshot.incomplete.offset, whole.slice(0, cut).lastIndexOf('\n') + 1);
    }
    assert.deepEqual(following.snapshot(), once.snapshot());
    assert.deepEqual(
      following.groups.map((summary) => [summary.index, summary.line, summary.offset, summary.bytes]),
      once.groups.map((summary) => [summary.index, summary.line, summary.offset, summary.bytes]),
    );
    assert.deepEqual(
      once.groups.map((summary) => summary.line),
      [0, 1, 4, 5],
    );
    assert.deepEqual(once.next, { line: 6, offset: Buffer.byteLength(whole), index: 4 });
    assert.equal(once.snapshot().incomplete, undefined);
  });

  it('keeps an unfinished last line out of the problems and says where it is', async () => {
    const written = `${lines[0]}\n${lines[1]!.slice(0, 25)}`;
    const collection = await inspectRollouts(chunksOf(written, 7), 'jsonl');
    const snapshot = collection.snapshot();
    assert.deepEqual(snapshot.problems, []);
    assert.deepEqual(snapshot.incomplete, { line: 1, offset: lines[0]!.length + 1, bytes: 25 });
    assert.deepEqual(snapshot.next, { line: 1, offset: lines[0]!.length + 1, index: 1 });
  });

  it('keeps at most maxGroups summaries and maxProblems problems, counting the rest, with every group in the statistics', async () => {
    const text = ['x', 'y', 'z', ...lines].join('\n');
    const collection = new RolloutCollection({ maxGroups: 2, maxProblems: 1 });
    for (const record of await collect(readRolloutRecords(chunksOf(text, 5), 'jsonl'))) collection.add(record);
    const snapshot = collection.snapshot();
    assert.equal(collection.groups.length, 2);
    assert.equal(snapshot.groupsNotKept, 2);
    assert.equal(snapshot.groupsRead, 4);
    assert.equal(snapshot.statistics.groups, 4);
    assert.equal(snapshot.statistics.trajectories, 9);
    assert.deepEqual(
      snapshot.problems.map((problem) => problem.line),
      [0],
    );
    assert.equal(snapshot.problemsNotListed, 2);
    // The last group has no newline after it: reading goes on at the end of its line.
    assert.deepEqual(snapshot.next, { line: 6, offset: Buffer.byteLength(text), index: 4 });
  });
});
