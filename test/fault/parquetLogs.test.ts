/**
 * Hostile Parquet files against the real inspector core (InspectedFile reading a file from disk
 * slice by slice, as the editor does) and the check run before a log is sent: a footer that claims
 * 4 GB, one group of a million rows, a column chunk that claims to be 3 GB, and garbage where the
 * pages are. Each must end in a message a person can read, never an exception, with the heap and
 * the event loop within their bounds.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetMetadata, type FileMetaData } from 'hyparquet';
import { ByteWriter } from 'hyparquet-writer';
import { writeMetadata } from 'hyparquet-writer/src/metadata.js';
import { fileSource } from '../../src/rollouts/model/fileSource';
import { InspectedFile } from '../../src/rollouts/model/inspectedFile';
import { parquetBytesSource, parquetFileSource } from '../../src/platform/parquet/parquetFile';
import { parquetTrajectoryGroups } from '../../src/platform/parquet/trajectoryGroups';
import { maxTrajectoriesPerGroup } from '../../src/platform/parquet/trajectoryLog';
import { artParquetBytes, artParquetBytesOfRows, artRows } from '../support/artParquet';
import { measure } from './support/measure';

const jobGroups = readFileSync(join(__dirname, '../../../test/fixtures/jobs/groups.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line) as unknown);

/** The bytes of a Parquet file with its footer replaced by `metadata` (serialised as the writer does). */
function withFooter(bytes: Uint8Array, metadata: FileMetaData): Uint8Array {
  const footerLength = new DataView(bytes.buffer, bytes.byteOffset + bytes.length - 8, 4).getUint32(0, true);
  const body = bytes.subarray(0, bytes.length - 8 - footerLength);
  const writer = new ByteWriter();
  // The writer carries its own copy of the reader's types: the same shape.
  writeMetadata(writer, metadata as never);
  const footer = new Uint8Array(writer.getBuffer());
  const tail = new Uint8Array(8);
  new DataView(tail.buffer).setUint32(0, footer.length, true);
  tail.set([0x50, 0x41, 0x52, 0x31], 4);
  const whole = new Uint8Array(body.length + footer.length + 8);
  whole.set(body, 0);
  whole.set(footer, body.length);
  whole.set(tail, body.length + footer.length);
  return whole;
}

function metadataOf(bytes: Uint8Array): FileMetaData {
  return parquetMetadata(bytes.slice().buffer);
}

describe('fault: hostile Parquet trajectory logs', function () {
  this.timeout(180_000);
  let folder: string;
  before(() => {
    folder = mkdtempSync(join(tmpdir(), 'rl-studio-fault-parquet-'));
  });
  after(() => rmSync(folder, { recursive: true, force: true }));

  async function inspect(name: string, bytes: Uint8Array): Promise<{ file: InspectedFile; heapMiB: number; stallMs: number }> {
    const path = join(folder, name);
    writeFileSync(path, bytes);
    const file = new InspectedFile({ fileName: name, format: 'parquet', source: fileSource(path), openParquet: () => parquetFileSource(path) });
    const { measurement } = await measure(() => file.open());
    return { file, heapMiB: measurement.peakHeapGrowthMiB, stallMs: measurement.maxEventLoopDelayMs };
  }

  it('a footer that claims 4 GB: not read, and said so', async () => {
    const bytes = new Uint8Array(64);
    new DataView(bytes.buffer).setUint32(56, 0xffffffff, true);
    bytes.set([0x50, 0x41, 0x52, 0x31], 60);
    const { file, heapMiB } = await inspect('claims.parquet', bytes);
    const state = file.state();
    assert.equal(state.unreadable, true);
    assert.equal(state.notTrajectoryLog, true);
    assert.match(state.error!, /footer claims 4,294,967,295 bytes/);
    assert.ok(heapMiB < 16, `heap grew ${heapMiB.toFixed(1)} MiB`);
    const checked = await parquetTrajectoryGroups(parquetBytesSource(bytes));
    assert.equal(checked.ok, false);
    assert.match(checked.problems[0]!.message, /footer claims/);
  });

  it('a column chunk that claims 3 GB: not read, and the reading says where it stopped', async () => {
    const bytes = await artParquetBytes(jobGroups);
    const metadata = metadataOf(bytes);
    const content = metadata.row_groups[0]!.columns.find((chunk) => chunk.meta_data?.path_in_schema.join('.') === 'messages.list.element.content')!;
    content.meta_data!.total_compressed_size = 3_000_000_000n;
    const { file, heapMiB } = await inspect('huge-chunk.parquet', withFooter(bytes, metadata));
    const state = file.state();
    assert.ok(state.error, 'a message, not a crash');
    assert.match(state.error!, /^(Reading stopped at row 1: |This Parquet file is not a trajectory log)/);
    assert.ok(heapMiB < 32, `heap grew ${heapMiB.toFixed(1)} MiB`);
    const checked = await parquetTrajectoryGroups(parquetBytesSource(withFooter(bytes, metadata))).catch((error: unknown) => error);
    assert.ok(checked instanceof Error || (checked as { ok: boolean }).ok === false, 'nothing is sent');
  });

  it('garbage where the pages are: a message, the footer still read, nothing sent', async () => {
    const bytes = await artParquetBytes(jobGroups);
    const metadata = metadataOf(bytes);
    const footerStart = bytes.length - 8 - new DataView(bytes.buffer, bytes.byteOffset + bytes.length - 8, 4).getUint32(0, true);
    let state = 1;
    const garbled = bytes.slice();
    // Every byte of the pages (after the leading magic, before the footer) replaced by noise.
    for (let at = 4; at < footerStart; at++) {
      state = (state * 1103515245 + 12345) >>> 0;
      garbled[at] = state >>> 24;
    }
    assert.equal(metadataOf(garbled).num_rows, metadata.num_rows);
    const { file, heapMiB } = await inspect('garbage.parquet', garbled);
    const read = file.state();
    assert.ok(read.error, 'a message, not a crash');
    assert.match(read.error!, /^Reading stopped at row 1: /);
    assert.equal(read.statistics.groups, 0);
    assert.ok(heapMiB < 64, `heap grew ${heapMiB.toFixed(1)} MiB`);
    const checked = await parquetTrajectoryGroups(parquetBytesSource(garbled)).catch((error: unknown) => error);
    assert.ok(checked instanceof Error || (checked as { ok: boolean }).ok === false, 'nothing is sent');
  });

  it(`one group of a million rows: ${maxTrajectoriesPerGroup.toLocaleString('en-US')} trajectories kept, the rest skipped with a warning, memory bounded`, async () => {
    // The smallest row the client writes: a reward and one trained choice, every other column null.
    const row = {
      ...artRows(jobGroups.slice(0, 1))[0]!,
      group_metadata: null,
      metrics: null,
      metadata: null,
      messages: [{ role: 'assistant', content: 'a', tool_calls: null, tool_call_id: null, trainable: true }],
    };
    const rows = Array.from({ length: 1_000_000 }, () => row);
    const { file, heapMiB, stallMs } = await inspect('million.parquet', await artParquetBytesOfRows(rows));
    const state = file.state();
    assert.equal(state.error, undefined);
    assert.equal(state.statistics.groups, 1);
    assert.equal(state.statistics.trajectories, maxTrajectoriesPerGroup);
    assert.equal(state.problems.length, 1);
    assert.match(state.problems[0]!.message, /more than 4,096 trajectories: the rest were skipped/);
    const detail = await file.group(0);
    assert.ok(detail && detail.trajectories.length <= 64, 'the detail is bounded too');
    assert.ok(heapMiB < 600, `heap grew ${heapMiB.toFixed(1)} MiB`);
    assert.ok(stallMs < 2_000, `the event loop stalled ${stallMs.toFixed(0)} ms`);
  });
});
