/**
 * The rollout inspector on the official client's Parquet trajectory log: 100,000 trajectories
 * (12,500 groups of 8, each trajectory five messages with long contents and a tool call), about
 * 200 MB uncompressed, written as `model.log()` would with the Parquet writer's own row groups
 * (1,000 rows, then the rest) and an offset index. The same rows written as pyarrow writes a file
 * this size (one row group, no offset index) are timed too, as a second line. The logs are written
 * once, in a child process, into the temp folder, and kept for later runs.
 *
 * Figures, each against a peer measured in the same run:
 * - first screen: from opening (the InspectedFile made and reading) to the first announced state
 *   with 60 groups and its 60 rows ready; peer: the Parquet library alone reading the footer and
 *   the first 60 groups' rows (480), every column.
 * - all statistics: the whole log read into the collection (summaries, flags, statistics); peer:
 *   the Parquet library alone reading the same columns of every row, row group by row group.
 * - memory: the growth of heap plus array buffers from a collected baseline to the highest sample
 *   while the whole log is read, against twice its uncompressed size; and what is left once the
 *   InspectedFile is disposed, dropped and collected.
 *
 * Both sides run as the extension ships them, bundled (shippedModules.ts).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as Hyparquet from 'hyparquet';
import type * as Compressors from 'hyparquet-compressors';
import type * as Inspected from '../../../src/rollouts/model/inspectedFile';
import type * as Inspector from '../../../src/rollouts/model/inspectorModel';
import type * as ParquetFile from '../../../src/platform/parquet/parquetFile';
import type * as FileSource from '../../../src/rollouts/model/fileSource';
import type * as TrajectoryLog from '../../../src/platform/parquet/trajectoryLog';
import { logGroups, logGroupSize } from '../parquetLogWriter';
import type { BenchFigure, BenchSuite } from '../report';
import { loadAsShipped } from '../shippedModules';
import { median } from '../stats';
import { collector, held, settled } from '../heldMemory';

/** Bump when the generated content changes, so a kept log of the old shape is not reused. */
const fileVersion = 2;
const rounds = 5;
const firstScreenGroups = 60;
const MB = 1e6;

type Shipped = Pick<typeof Inspected, 'InspectedFile'> &
  Pick<typeof Inspector, 'defaultQuery'> &
  Pick<typeof ParquetFile, 'parquetFileSource'> &
  Pick<typeof FileSource, 'fileSource'> &
  Pick<typeof TrajectoryLog, 'trajectoryLogColumns'> &
  Pick<typeof Hyparquet, 'parquetReadObjects' | 'parquetMetadataAsync'> &
  Pick<typeof Compressors, 'compressors'>;
let shipped: Shipped;

interface LogFile {
  path: string;
  label: string;
}

/** A log written by the child process, or kept from an earlier run. */
function logFile(kind: 'writer' | 'pyarrow'): LogFile {
  const directory = join(tmpdir(), 'rl-studio-bench');
  const path = join(directory, `trajectory-log-v${fileVersion}-${kind}-${logGroups}x${logGroupSize}.parquet`);
  if (!existsSync(path)) {
    mkdirSync(directory, { recursive: true });
    const writer = join(__dirname, '..', 'parquetLogWriter.js');
    const args = kind === 'writer' ? [path, 'default', 'true'] : [path, String(logGroups * logGroupSize), 'false'];
    execFileSync(process.execPath, ['--max-old-space-size=8192', writer, ...args], { stdio: 'inherit' });
  }
  return { path, label: kind === 'writer' ? "the Parquet writer's row groups (1,000 rows, then the rest), offset index" : 'as pyarrow writes it: one row group, no offset index' };
}

function open(path: string): InstanceType<Shipped['InspectedFile']> {
  return new shipped.InspectedFile({ fileName: 'step.parquet', format: 'parquet', source: shipped.fileSource(path), openParquet: () => shipped.parquetFileSource(path) });
}

/** Open to the first announced state with a first screen of groups, and its rows ready; the read is then stopped. */
async function firstScreen(path: string): Promise<number> {
  const started = performance.now();
  const file = open(path);
  const ready = new Promise<number>((resolve, reject) => {
    const stop = file.onDidChange((state) => {
      if (state.error) reject(new Error(state.error));
      if (state.statistics.groups < firstScreenGroups) return;
      stop();
      file.rows(shipped.defaultQuery, 0, firstScreenGroups).then((page) => {
        if (page.rows.length < firstScreenGroups) reject(new Error('no first screen of rows'));
        else resolve(performance.now() - started);
      }, reject);
    });
  });
  const reading = file.open();
  const elapsed = await ready;
  file.dispose();
  await reading;
  return elapsed;
}

/** The library alone: the footer, then the first screen's rows, every column. */
async function firstRowsAlone(path: string): Promise<number> {
  const started = performance.now();
  const source = await shipped.parquetFileSource(path);
  try {
    const metadata = await shipped.parquetMetadataAsync(source);
    const rows = await shipped.parquetReadObjects({
      file: source,
      metadata,
      columns: [...shipped.trajectoryLogColumns],
      rowStart: 0,
      rowEnd: firstScreenGroups * logGroupSize,
      compressors: shipped.compressors,
      useOffsetIndex: true,
    });
    if (rows.length !== firstScreenGroups * logGroupSize) throw new Error(`read ${rows.length} rows`);
  } finally {
    await source.close();
  }
  return performance.now() - started;
}

async function readWhole(path: string, sample?: () => void): Promise<void> {
  const file = open(path);
  if (sample) file.onDidChange(sample);
  await file.open();
  const state = file.state();
  file.dispose();
  if (state.statistics.trajectories !== logGroups * logGroupSize || state.problems.length > 0 || state.error)
    throw new Error(`read ${state.statistics.trajectories} trajectories, ${state.problems.length} problems${state.error ? `: ${state.error}` : ''}`);
}

/** The library alone: every row of the same columns, row group by row group (its rows dropped after each). */
async function readAlone(path: string): Promise<void> {
  const source = await shipped.parquetFileSource(path);
  let rows = 0;
  try {
    const metadata = await shipped.parquetMetadataAsync(source);
    let start = 0;
    for (const rowGroup of metadata.row_groups) {
      const end = start + Number(rowGroup.num_rows);
      rows += (await shipped.parquetReadObjects({ file: source, metadata, columns: [...shipped.trajectoryLogColumns], rowStart: start, rowEnd: end, compressors: shipped.compressors })).length;
      start = end;
    }
  } finally {
    await source.close();
  }
  if (rows !== logGroups * logGroupSize) throw new Error(`read ${rows} rows`);
}

async function uncompressedSize(path: string): Promise<number> {
  const source = await shipped.parquetFileSource(path);
  try {
    const metadata = await shipped.parquetMetadataAsync(source);
    return metadata.row_groups.reduce((sum, rowGroup) => sum + rowGroup.columns.reduce((columns, chunk) => columns + Number(chunk.meta_data?.total_uncompressed_size ?? 0), 0), 0);
  } finally {
    await source.close();
  }
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/** Rounds of ours and the peer's, alternating which goes first; their medians. */
async function alternate(ours: () => Promise<number>, peer: () => Promise<number>): Promise<{ ours: number; peer: number }> {
  const mine: number[] = [];
  const theirs: number[] = [];
  for (let round = 0; round < rounds; round++) {
    if (round % 2 === 0) {
      mine.push(await ours());
      theirs.push(await peer());
    } else {
      theirs.push(await peer());
      mine.push(await ours());
    }
  }
  return { ours: median(mine), peer: median(theirs) };
}

/** The highest growth of heap plus array buffers while the log is read whole (sampled at each announcement and every 20 ms), and what is left once it is disposed and collected. */
async function memoryGrowth(path: string): Promise<{ peak: number; afterClose: number }> {
  const collect = collector();
  await settled(collect);
  const baseline = held();
  let peak = baseline;
  const sample = (): void => {
    peak = Math.max(peak, held());
  };
  const timer = setInterval(sample, 20);
  try {
    await readWhole(path, sample);
  } finally {
    clearInterval(timer);
  }
  sample();
  await settled(collect);
  return { peak: peak - baseline, afterClose: held() - baseline };
}

async function figuresOf(log: LogFile, withMemory: boolean): Promise<BenchFigure[]> {
  const uncompressed = await uncompressedSize(log.path);
  const about = `${(uncompressed / MB).toFixed(0)} MB uncompressed, ${(statSync(log.path).size / MB).toFixed(0)} MB on disk; ${log.label}`;
  // One untimed call of each (which also checks the counts).
  await readWhole(log.path);
  await readAlone(log.path);
  const screen = await alternate(
    () => firstScreen(log.path),
    () => firstRowsAlone(log.path),
  );
  const whole = await alternate(
    () => timed(() => readWhole(log.path)),
    () => timed(() => readAlone(log.path)),
  );
  const figures: BenchFigure[] = [
    {
      name: `Parquet log (${log.label.startsWith('as pyarrow') ? 'pyarrow' : 'writer'} layout): open to first screen (${firstScreenGroups} groups announced, rows ready)`,
      value: screen.ours,
      unit: 'ms',
      peer: { name: `the Parquet library alone: footer and the first ${firstScreenGroups * logGroupSize} rows`, value: screen.peer },
      better: 'lower',
      goal: { kind: 'absolute', atMost: 500 },
      note: `${about}; median of ${rounds} alternating runs`,
    },
    {
      name: `Parquet log (${log.label.startsWith('as pyarrow') ? 'pyarrow' : 'writer'} layout): all summaries, flags and statistics`,
      value: whole.ours,
      unit: 'ms',
      peer: { name: 'the Parquet library alone reading the same columns, row group by row group', value: whole.peer },
      better: 'lower',
      goal: { kind: 'ratio', atMost: 1.5 },
      note: `median of ${rounds} alternating runs`,
    },
  ];
  if (withMemory) {
    const growth = await memoryGrowth(log.path);
    figures.push(
      {
        name: 'Parquet log: peak heap + array buffers growth while read whole',
        value: growth.peak / MB,
        unit: 'MB',
        peer: { name: 'twice the uncompressed size', value: (2 * uncompressed) / MB },
        better: 'lower',
        goal: { kind: 'ratio', atMost: 1 },
        note: 'sampled at each announcement and every 20 ms, from a collected baseline; summaries of every group are kept; batches of 8,192 rows peak as high: the peak is garbage of decoded batches between collections, not what is held',
      },
      {
        name: 'Parquet log: heap + array buffers left after the InspectedFile is disposed and collected',
        value: growth.afterClose / MB,
        unit: 'MB',
        peer: { name: 'the peak growth while reading', value: growth.peak / MB },
        better: 'lower',
        goal: { kind: 'absolute', atMost: 2 },
        note: 'against the same collected baseline as the peak; closing the log must give its memory back',
      },
    );
  }
  return figures;
}

export const suite: BenchSuite = {
  name: "rolloutsParquet: the official client's 200 MB Parquet trajectory log in the inspector",
  async run(): Promise<BenchFigure[]> {
    shipped = await loadAsShipped<Shipped>({
      'src/rollouts/model/inspectedFile.ts': ['InspectedFile'],
      'src/rollouts/model/inspectorModel.ts': ['defaultQuery'],
      'src/rollouts/model/fileSource.ts': ['fileSource'],
      'src/platform/parquet/parquetFile.ts': ['parquetFileSource'],
      'src/platform/parquet/trajectoryLog.ts': ['trajectoryLogColumns'],
      'node_modules/hyparquet/src/index.js': ['parquetReadObjects', 'parquetMetadataAsync'],
      'node_modules/hyparquet-compressors/src/index.js': ['compressors'],
    });
    const writer = logFile('writer');
    const pyarrow = logFile('pyarrow');
    return [...(await figuresOf(writer, true)), ...(await figuresOf(pyarrow, false))];
  },
};
