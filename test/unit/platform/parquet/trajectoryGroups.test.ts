import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { parquetBytesSource } from '../../../../src/platform/parquet/parquetFile';
import { parquetTrajectoryGroups } from '../../../../src/platform/parquet/trajectoryGroups';
import { parseTrajectoryFile, trajectoryFileLimits } from '../../../../src/platform/kit/trajectoryFile';
import { artParquetBytes, artParquetBytesOfRows, artRows, loggable } from '../../../support/artParquet';

const fixtureGroups = loggable(JSON.parse(readFileSync(join(__dirname, '../../../../../test/fixtures/art/trajectories.json'), 'utf8')) as unknown[]) as Record<string, any>[];
const jobGroups = readFileSync(join(__dirname, '../../../../../test/fixtures/jobs/groups.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line) as Record<string, any>);

describe('a Parquet trajectory log checked as a trajectory file is before it is sent', () => {
  it('gives the groups with no problem, as many as the .jsonl of the same groups', async () => {
    for (const groups of [fixtureGroups, jobGroups]) {
      const parsed = await parquetTrajectoryGroups(parquetBytesSource(await artParquetBytes(groups)));
      assert.deepEqual(parsed.problems, []);
      assert.equal(parsed.ok, true);
      assert.equal(parsed.groups.length, groups.length);
      assert.equal(parseTrajectoryFile(`${groups.map((group) => JSON.stringify(group)).join('\n')}\n`, 'jsonl').groups.length, groups.length);
      assert.deepEqual(
        parsed.groups.map((group) => group.trajectories.map((trajectory) => trajectory.reward)),
        groups.map((group) => group.trajectories.map((trajectory: { reward: number }) => trajectory.reward)),
      );
    }
  });

  it("reads bytes that are a view into a larger buffer (VS Code's file system hands back Node Buffers)", async () => {
    const bytes = await artParquetBytes(jobGroups);
    const view = Buffer.concat([Buffer.from('leading bytes'), bytes, Buffer.from('trailing')]).subarray(13, 13 + bytes.length);
    const parsed = await parquetTrajectoryGroups(parquetBytesSource(view));
    assert.deepEqual(parsed.problems, []);
    assert.equal(parsed.groups.length, jobGroups.length);
  });

  it('places each problem on the row where its group starts, and says "row"', async () => {
    const rows = artRows(jobGroups);
    // A trajectory whose reward is not a number: the client never writes one, a hand-made file may.
    const broken = rows.map((row, at) => (at === 3 ? { ...row, reward: null, messages: [] } : row));
    const parsed = await parquetTrajectoryGroups(parquetBytesSource(await artParquetBytesOfRows(broken)));
    assert.equal(parsed.ok, false);
    const error = parsed.problems.find((problem) => problem.severity === 'error')!;
    assert.equal(error.line, 2, 'the group of row 4 starts at row 3');
    assert.match(error.message, /^row 3: trajectories\[1\]/);
    assert.equal(parsed.groups.length, jobGroups.length - 1, 'the group with an error is not sent');
  });

  it('stops once the groups make more JSON than is sent in one request, and says so', async () => {
    const parsed = await parquetTrajectoryGroups(parquetBytesSource(await artParquetBytes(jobGroups)), { ...trajectoryFileLimits, maxSize: 2_000 });
    assert.equal(parsed.ok, false);
    const last = parsed.problems.at(-1)!;
    assert.match(last.message, /^row \d+: the groups of this log make more than .* of JSON, the most RL Studio sends in one request: rows \d+ onward were not checked and nothing will be sent/);
  });

  it("gives the reader's reason for a file that is not a trajectory log, and none for an empty log", async () => {
    const other = parquetWriteBuffer({ columnData: [{ name: 'city', data: ['Lyon'], type: 'STRING' }] });
    const notALog = await parquetTrajectoryGroups(parquetBytesSource(new Uint8Array(other)));
    assert.equal(notALog.ok, false);
    assert.match(notALog.problems[0]!.message, /no "reward" or "messages" column.*its columns: city/);
    const empty = await parquetTrajectoryGroups(parquetBytesSource(await artParquetBytes([])));
    assert.equal(empty.ok, false);
    assert.equal(empty.problems[0]!.message, 'no trajectory groups in this log');
  });

  it('lists at most the problems asked for, then one that counts the rest', async () => {
    const rows = artRows(jobGroups).map((row) => ({ ...row, reward: null, messages: [] }));
    const parsed = await parquetTrajectoryGroups(parquetBytesSource(await artParquetBytesOfRows(rows)), { ...trajectoryFileLimits, maxProblems: 2 });
    assert.equal(parsed.problems.length, 3);
    assert.ok((parsed.problems[2]!.notListed ?? 0) > 0);
  });
});
