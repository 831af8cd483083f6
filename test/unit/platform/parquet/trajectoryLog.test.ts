import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetBytesSource, parquetFileSource } from '../../../../src/platform/parquet/parquetFile';
import { maxTrajectoriesPerGroup, openTrajectoryLog, readLoggedGroupAt, readLoggedGroups, TrajectoryLogError, type LoggedGroup } from '../../../../src/platform/parquet/trajectoryLog';
import { validateTrajectoryGroup } from '../../../../src/platform/kit/trajectoryShape';
import { summarizeGroup } from '../../../../src/rollouts/model/groupSummary';
import { artParquetBytes, artParquetBytesOfRows, artRows, loggable, pythonJsonDumps, writeArtParquet } from '../../../support/artParquet';

const fixtureGroups = JSON.parse(readFileSync(join(__dirname, '../../../../../test/fixtures/art/trajectories.json'), 'utf8')) as Record<string, any>[];
/** The fixture groups as the client can log them (pyarrow writes no list-of-parts content). */
const groups = loggable(fixtureGroups) as Record<string, any>[];

async function readAll(bytes: Uint8Array, batchRows?: number): Promise<LoggedGroup[]> {
  const log = await openTrajectoryLog(parquetBytesSource(bytes));
  const read: LoggedGroup[] = [];
  for await (const logged of readLoggedGroups(log, batchRows === undefined ? {} : { batchRows })) read.push(logged);
  return read;
}

describe("the official client's Parquet trajectory log", () => {
  it('cannot hold a list-of-parts content, as pyarrow refuses to write one', () => {
    assert.throws(() => artRows(fixtureGroups), /not a string/);
  });

  it('is written as the client writes it: Python JSON text, empty values as null, trainable choices', () => {
    assert.equal(pythonJsonDumps({ a: [1, 'é'], b: null }), '{"a": [1, "\\u00e9"], "b": null}');
    const rows = artRows(groups);
    assert.equal(
      rows.length,
      groups.reduce((sum, group) => sum + group.trajectories.length, 0),
    );
    assert.equal(rows[0]!.tools, null, 'a trajectory without tools writes null');
    const messages = rows[0]!.messages as Record<string, unknown>[];
    assert.ok(messages.some((message) => message.trainable === true));
    assert.ok(messages.every((message) => 'tool_call_id' in message));
  });

  it('reads back every fixture group: its trajectories, rewards, metrics, tools and trained choices', async () => {
    const read = await readAll(await artParquetBytes(groups));
    assert.equal(read.length, groups.length);
    read.forEach((logged, index) => {
      const original = groups[index]!;
      assert.equal(logged.groupIndex, index);
      const trajectories = logged.group.trajectories as Record<string, any>[];
      assert.deepEqual(
        trajectories.map((trajectory) => trajectory.reward),
        original.trajectories.map((trajectory: any) => trajectory.reward),
      );
      trajectories.forEach((trajectory, at) => {
        const source = original.trajectories[at];
        assert.deepEqual(trajectory.metrics, source.metrics ?? {});
        assert.equal(trajectory.tools === undefined, !source.tools?.length, 'tools come back when the trajectory had some');
        const choices = trajectory.messages_and_choices.filter((item: any) => 'finish_reason' in item).length;
        assert.equal(choices, source.messages_and_choices.filter((item: any) => 'finish_reason' in item).length, 'each trained choice is a choice again');
      });
      assert.deepEqual(logged.problems, []);
      assert.deepEqual(validateTrajectoryGroup(logged.group), [], `group ${index} passes the shape check`);
      const summary = summarizeGroup(logged.group, { index, line: logged.rowStart, offset: logged.rowStart, bytes: logged.rowCount });
      assert.ok(summary.summary, 'the inspector summarises it');
      assert.equal(summary.summary.trajectoryCount, original.trajectories.length);
    });
  });

  it('gives the same groups whatever the batch, the row groups and whether pages are indexed', async () => {
    const many = Array.from({ length: 7 }, (_, index) => groups[index % groups.length]);
    const expected = await readAll(await artParquetBytes(many));
    for (const options of [{ rowGroupSize: 2 }, { rowGroupSize: 5, offsetIndex: false }, { rowGroupSize: 1000 }]) {
      for (const batchRows of [1, 3, 64]) {
        const read = await readAll(await artParquetBytes(many, options), batchRows);
        assert.deepEqual(
          read.map((logged) => [logged.groupIndex, logged.rowStart, logged.rowCount]),
          expected.map((logged) => [logged.groupIndex, logged.rowStart, logged.rowCount]),
          `${JSON.stringify(options)}, ${batchRows} rows a batch`,
        );
        assert.deepEqual(read.at(-1)!.group, expected.at(-1)!.group);
      }
    }
  });

  it('reads one group again from its rows', async () => {
    const bytes = await artParquetBytes(groups, { rowGroupSize: 2 });
    const all = await readAll(bytes);
    const log = await openTrajectoryLog(parquetBytesSource(bytes));
    const again = await readLoggedGroupAt(log, all[1]!.rowStart, all[1]!.rowCount);
    assert.deepEqual(again?.group, all[1]!.group);
  });

  it('reads a file on disk slice by slice', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'rl-parquet-')), '0003.parquet');
    await writeArtParquet(path, groups);
    const source = await parquetFileSource(path);
    try {
      const log = await openTrajectoryLog(source);
      assert.equal(log.rowCount, artRows(groups).length);
    } finally {
      await source.close();
    }
  });

  it('keeps rows of one group index that are apart as separate groups, and says so', async () => {
    const rows = artRows(groups.slice(0, 2));
    rows.push({ ...rows[0]!, group_index: 0n });
    const read = await readAll(await artParquetBytesOfRows(rows));
    assert.equal(read.length, 3);
    assert.match(read[2]!.problems[0]!, /group_index 0 are not all together/);
  });

  it(`keeps at most ${maxTrajectoriesPerGroup} trajectories of one group`, async () => {
    const row = artRows(groups.slice(0, 1))[0]!;
    const rows = Array.from({ length: maxTrajectoriesPerGroup + 5 }, () => row);
    const [only] = await readAll(await artParquetBytesOfRows(rows));
    assert.equal((only!.group.trajectories as unknown[]).length, maxTrajectoriesPerGroup);
    assert.equal(only!.rowCount, maxTrajectoriesPerGroup + 5);
    assert.match(only!.problems[0]!, /more than 4,096 trajectories/);
  });

  it('turns away what is not a trajectory log, saying why', async () => {
    await assert.rejects(
      openTrajectoryLog(parquetBytesSource(new TextEncoder().encode('{"trajectories": []}\n'))),
      (error: unknown) => error instanceof TrajectoryLogError && /not Parquet/.test(error.message),
    );
    const bytes = await artParquetBytes(groups);
    const lying = bytes.slice();
    new DataView(lying.buffer).setUint32(lying.length - 8, 0xfffffff0, true);
    await assert.rejects(openTrajectoryLog(parquetBytesSource(lying)), /footer claims/);
    const path = join(mkdtempSync(join(tmpdir(), 'rl-parquet-')), 'other.parquet');
    writeFileSync(path, bytes.subarray(0, 20));
    const source = await parquetFileSource(path);
    await assert.rejects(openTrajectoryLog(source), TrajectoryLogError);
    await source.close();
  });
});
