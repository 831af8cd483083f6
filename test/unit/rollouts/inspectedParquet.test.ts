import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { fileSource } from '../../../src/rollouts/model/fileSource';
import { InspectedFile } from '../../../src/rollouts/model/inspectedFile';
import { defaultQuery, type GroupQuery, type RolloutFileState } from '../../../src/rollouts/model/inspectorModel';
import { parquetFileSource } from '../../../src/platform/parquet/parquetFile';
import { artParquetBytes, artParquetBytesOfRows, artRows, loggable } from '../../support/artParquet';

/** The official client's groups (test/fixtures/art), with every list-of-parts content as its text: what the client can log. */
const fixtureGroups = loggable(JSON.parse(readFileSync(join(__dirname, '../../../../test/fixtures/art/trajectories.json'), 'utf8')) as unknown[]);

/**
 * The groups as a Parquet log holds them. A log keeps no exceptions, no logprobs, no additional
 * histories, no policy versions, and no finish reason (a choice read back finished with
 * `tool_calls` when it called tools, else `stop`); a .jsonl of these groups is what the same log
 * must show.
 */
function asLogHoldsThem(groups: readonly unknown[]): unknown[] {
  return (JSON.parse(JSON.stringify(groups)) as Record<string, any>[]).map((group) => {
    group.exceptions = [];
    for (const trajectory of group.trajectories) {
      delete trajectory.additional_histories;
      delete trajectory.initial_policy_version;
      delete trajectory.final_policy_version;
      for (const item of trajectory.messages_and_choices) {
        if (!('finish_reason' in item)) continue;
        delete item.logprobs;
        item.finish_reason = Array.isArray(item.message.tool_calls) && item.message.tool_calls.length > 0 ? 'tool_calls' : 'stop';
      }
    }
    return group;
  });
}

/** Many groups of the fixtures' shapes, so a file spans several batches of rows. */
function manyGroups(count: number): unknown[] {
  return Array.from({ length: count }, (_, index) => {
    const copy = JSON.parse(JSON.stringify(fixtureGroups[index % fixtureGroups.length])) as Record<string, any>;
    copy.metadata = { ...copy.metadata, position: index };
    copy.trajectories.forEach((trajectory: Record<string, any>, at: number) => (trajectory.reward = ((index * 7 + at * 3) % 10) / 10));
    return copy;
  });
}

const withText = (text: string): GroupQuery => ({ ...defaultQuery, filter: { ...defaultQuery.filter, text } });
const withFlag = (flag: 'noSignal' | 'truncated' | 'exceptions'): GroupQuery => ({ ...defaultQuery, filter: { ...defaultQuery.filter, flags: [flag] } });

describe("InspectedFile: the official client's Parquet trajectory log", () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'rl-studio-parquet-'));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  function inspect(
    name: string,
    bytes: Uint8Array | string,
    options: { firstScreenGroups?: number; announceEveryMs?: number } = {},
  ): { file: InspectedFile; path: string; states: RolloutFileState[] } {
    const path = join(folder, name);
    writeFileSync(path, bytes);
    const parquet = name.endsWith('.parquet');
    const file = new InspectedFile({
      fileName: name,
      format: parquet ? 'parquet' : 'jsonl',
      source: fileSource(path),
      ...(parquet ? { openParquet: () => parquetFileSource(path) } : {}),
      ...options,
    });
    const states: RolloutFileState[] = [];
    file.onDidChange((state) => states.push(state));
    return { file, path, states };
  }

  async function both(groups: readonly unknown[], options: { rowGroupSize?: number; offsetIndex?: boolean } = {}): Promise<{ parquet: InspectedFile; jsonl: InspectedFile }> {
    const parquet = inspect('step.parquet', await artParquetBytes(groups, options)).file;
    const jsonl = inspect(
      'step.jsonl',
      `${asLogHoldsThem(groups)
        .map((group) => JSON.stringify(group))
        .join('\n')}\n`,
    ).file;
    await Promise.all([parquet.open(), jsonl.open()]);
    return { parquet, jsonl };
  }

  it('shows the same groups, statistics and flags as a .jsonl of the same groups', async () => {
    for (const options of [{}, { rowGroupSize: 5, offsetIndex: false }]) {
      const { parquet, jsonl } = await both(manyGroups(40), options);
      const [fromParquet, fromJsonl] = [parquet.state(), jsonl.state()];
      assert.equal(fromParquet.format, 'parquet');
      assert.equal(fromParquet.error, undefined);
      assert.deepEqual(fromParquet.problems, [], 'nothing the client writes is a problem');
      assert.deepEqual(fromParquet.statistics, fromJsonl.statistics);
      assert.deepEqual(fromParquet.metadata, fromJsonl.metadata);
      for (const flag of ['noSignal', 'truncated', 'exceptions'] as const) {
        assert.deepEqual((await parquet.matching(withFlag(flag))).join(), (await jsonl.matching(withFlag(flag))).join(), flag);
      }
      const [rowsOfParquet, rowsOfJsonl] = [await parquet.rows(defaultQuery, 0, 100), await jsonl.rows(defaultQuery, 0, 100)];
      assert.deepEqual(
        rowsOfParquet.rows.map(({ line: _line, ...rest }) => rest),
        rowsOfJsonl.rows.map(({ line: _line, ...rest }) => rest),
      );
      // A group's place is its first row: two trajectories a group, so rows 0, 2, 4…
      assert.deepEqual(
        rowsOfParquet.rows.slice(0, 3).map((row) => row.line),
        [0, 2, 4],
      );
    }
  });

  it('opens a group whole, its trainable messages shown as trained choices, its tool calls and results kept', async () => {
    const { parquet, jsonl } = await both(fixtureGroups);
    const [fromParquet, fromJsonl] = [await parquet.group(1), await jsonl.group(1)];
    assert.ok(fromParquet && fromJsonl);
    assert.equal(fromParquet.line, 2, 'the group starts at its first row');
    assert.deepEqual(fromParquet.problems, []);
    assert.deepEqual({ ...fromParquet, line: 0 }, { ...fromJsonl, line: 0 });
    const messages = fromParquet.trajectories[0]!.messages;
    assert.ok(
      messages.some((message) => message.trained),
      'a trainable message is a trained choice',
    );
    assert.ok(
      messages.some((message) => message.role === 'tool'),
      'a tool result is kept',
    );
    assert.ok(messages.some((message) => (message.toolCalls ?? []).length > 0));
  });

  it('announces the reading in rows, and a first screen before the whole log is read', async () => {
    const { file, states } = inspect('many.parquet', await artParquetBytes(manyGroups(3_000)), { firstScreenGroups: 60, announceEveryMs: 60_000 });
    await file.open();
    const early = states.find((state) => state.reading && state.statistics.groups >= 60);
    assert.ok(early, 'a state with the first screen of groups came while the log was still read');
    assert.ok(early.statistics.groups < 3_000);
    assert.equal(early.reading!.unit, 'rows');
    assert.equal(early.reading!.totalBytes, 6_000, 'the total is the rows of the log');
    assert.equal(states.at(-1)!.statistics.groups, 3_000);
    assert.equal(states.at(-1)!.reading, undefined);
  });

  it('searches the messages of every group, not their metadata', async () => {
    const { parquet, jsonl } = await both(manyGroups(30));
    for (const text of ['apples', 'weather', 'position', 'nothing like this']) {
      assert.deepEqual((await parquet.matching(withText(text))).join(), (await jsonl.matching(withText(text))).join(), text);
    }
    assert.ok((await parquet.matching(withText('apples'))).length > 0);
    assert.equal((await parquet.matching(withText('position'))).length, 0, 'a metadata key is not a message');
  });

  it("gives each group's text as the JSON a .json file would hold, for the actions", async () => {
    const groups = manyGroups(80);
    const { parquet } = await both(groups);
    const texts: { index: number; text: string }[] = [];
    // Many groups are read in one pass, a few one by one: both give the same texts.
    for await (const item of parquet.groupTexts(Array.from({ length: 80 }, (_, index) => index))) texts.push(item);
    assert.equal(texts.length, 80);
    const few: string[] = [];
    for await (const item of parquet.groupTexts([3, 41, 79])) few.push(item.text);
    assert.deepEqual(few, [texts[3]!.text, texts[41]!.text, texts[79]!.text]);
    const read = JSON.parse(texts[41]!.text) as Record<string, any>;
    assert.equal(read.metadata.position, 41);
    assert.deepEqual(
      read.trajectories.map((trajectory: { reward: number }) => trajectory.reward),
      (groups[41] as Record<string, any>).trajectories.map((trajectory: { reward: number }) => trajectory.reward),
    );
  });

  it('reads a rewritten log again whole, and a group no longer where it was read is read again', async () => {
    const { file, path } = inspect('step.parquet', await artParquetBytes(manyGroups(6)));
    await file.open();
    assert.equal(file.state().statistics.groups, 6);
    writeFileSync(path, await artParquetBytes(manyGroups(2)));
    assert.equal(await file.group(4), null);
    await file.settled();
    assert.equal(file.state().statistics.groups, 2, 'the rewritten log was read again');
    writeFileSync(path, await artParquetBytes(manyGroups(9)));
    await file.changed();
    assert.equal(file.state().statistics.groups, 9);
  });

  it("lists the reader's problems at the rows where the group starts", async () => {
    const rows = artRows(manyGroups(3));
    // Group 0's rows apart: the rows of group 1 between them.
    const apart = [rows[0]!, rows[2]!, rows[3]!, rows[1]!, ...rows.slice(4)];
    const { file } = inspect('apart.parquet', await artParquetBytesOfRows(apart));
    await file.open();
    const state = file.state();
    assert.equal(state.statistics.groups, 4);
    assert.equal(state.problems.length, 1);
    assert.equal(state.problems[0]!.line, 3, 'row 4, where the second run of group 0 starts');
    assert.equal(state.problems[0]!.severity, 'warning');
    assert.match(state.problems[0]!.message, /group_index 0 are not all together/);
  });

  it('says why a Parquet file that is not a trajectory log cannot be shown, naming its columns, and offers another editor', async () => {
    const other = parquetWriteBuffer({
      columnData: [
        { name: 'city', data: ['Lyon', 'Oslo'], type: 'STRING' },
        { name: 'population', data: [522_000, 709_000], type: 'INT32' },
      ],
    });
    const { file } = inspect('cities.parquet', new Uint8Array(other));
    await file.open();
    const state = file.state();
    assert.equal(state.unreadable, true);
    assert.equal(state.notTrajectoryLog, true);
    assert.match(state.error!, /^This Parquet file is not a trajectory log RL Studio can show: .*not a trajectory log as the official client writes one \(its columns: city, population\)/);
  });

  it('says a truncated log is not Parquet rather than failing', async () => {
    const bytes = await artParquetBytes(manyGroups(10));
    const { file } = inspect('cut.parquet', bytes.subarray(0, Math.floor(bytes.length / 2)));
    await file.open();
    const state = file.state();
    assert.equal(state.unreadable, true);
    assert.equal(state.notTrajectoryLog, true);
    assert.match(state.error!, /it does not end with "PAR1"/);
  });

  it('reads a log of another scheme through its byte source, and says when it is gone', async () => {
    const path = join(folder, 'remote.parquet');
    writeFileSync(path, await artParquetBytes(manyGroups(5)));
    const file = new InspectedFile({ fileName: 'remote.parquet', format: 'parquet', source: fileSource(path) });
    await file.open();
    assert.equal(file.state().statistics.groups, 5);
    assert.ok(await file.group(4));
    rmSync(path);
    await file.changed();
    assert.match(file.state().error!, /no longer there/);
  });
});
