/**
 * The run view's first chart, for a model's `trajectories/train` folder of 500 step files as the
 * official client's `model.log()` writes them (ZSTD Parquet; 16 groups of 8 trajectories a step):
 * from the moment the view lists the split until the first batch of step figures (mean reward and
 * flag counts, made with the rollout inspector's own group summaries) is ready to be drawn. Then
 * the time until every step's figures are in.
 *
 * Peer: the Parquet library alone reading the same 500 files' `reward` column, one file after the
 * other: the least any reader pays to draw a reward curve over the whole run. Each side runs three
 * times, alternately; the figures are medians. The folder is generated once into the temp folder
 * and kept for later runs.
 */
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { diskFiles } from '../../../src/localRuns/host/diskFiles';
import { discoveryBounds } from '../../../src/localRuns/model/artLayout';
import { listSteps } from '../../../src/localRuns/model/discovery';
import { parquetStepReader, readRunSteps } from '../../../src/localRuns/model/runReading';
import { parquetFileSource } from '../../../src/platform/parquet/parquetFile';
import { summarizeGroup } from '../../../src/rollouts/model/groupSummary';
import { groupFlags } from '../../../src/rollouts/model/groupSummaryShape';
import { writeArtParquet } from '../../support/artParquet';
import type { BenchFigure, BenchSuite } from '../report';
import { median } from '../stats';

const stepCount = 500;
const groupsPerStep = 16;
const groupSize = 8;
const rounds = 3;
/** Bump when the generated content changes, so a kept folder of the old shape is not reused. */
const folderVersion = 1;

function groupAt(step: number, group: number): Record<string, unknown> {
  return {
    trajectories: Array.from({ length: groupSize }, (_, position) => ({
      messages_and_choices: [
        { role: 'system', content: 'You play tic-tac-toe. Answer with the square you take.' },
        { role: 'user', content: `Board ${step}-${group}: X.O/...//..X. Your move.` },
        { finish_reason: 'stop', index: 0, message: { role: 'assistant', content: `I take square ${(step + group + position) % 9}, which blocks the diagonal.` } },
      ],
      reward: ((step * 7 + group * 3 + position) % 10) / 10,
      metrics: { win: position % 2 === 0, moves: 3 + (position % 4) },
      metadata: { game: `${step}-${group}` },
      logs: [],
    })),
    exceptions: [],
    metadata: { opponent: 'minimax' },
    metrics: {},
    logs: [],
  };
}

/** The split folder, written once as the official client writes it. */
async function runFolder(): Promise<string> {
  const split = join(tmpdir(), `rl-studio-bench-run-v${folderVersion}`, 'models', 'agent', 'trajectories', 'train');
  if (existsSync(split)) return split;
  const building = `${split}.building`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  for (let step = 0; step < stepCount; step++) {
    const groups = Array.from({ length: groupsPerStep }, (_, group) => groupAt(step, group));
    await writeArtParquet(join(building, `${String(step).padStart(4, '0')}.parquet`), groups);
  }
  renameSync(building, split);
  return split;
}

const read = parquetStepReader((group, index, rowStart) => summarizeGroup(group, { index, line: rowStart, offset: 0, bytes: 0 }).summary, groupFlags);

/** The run view's reading: the split listed, then its steps read until the first batch (or all) are in. */
async function runChart(split: string, until: 'first' | 'all'): Promise<number> {
  const started = performance.now();
  const controller = new AbortController();
  const { steps } = await listSteps(split, diskFiles, discoveryBounds.runSteps, true);
  let first: number | undefined;
  await readRunSteps(steps, {
    read,
    signal: controller.signal,
    onBatch: () => {
      first ??= performance.now() - started;
      if (until === 'first') controller.abort();
    },
  });
  return until === 'first' ? first! : performance.now() - started;
}

/** The library alone: every file's reward column. */
async function rewardColumns(split: string): Promise<number> {
  const started = performance.now();
  let rows = 0;
  for (let step = 0; step < stepCount; step++) {
    const source = await parquetFileSource(join(split, `${String(step).padStart(4, '0')}.parquet`));
    try {
      rows += (await parquetReadObjects({ file: source, columns: ['reward'], compressors })).length;
    } finally {
      await source.close();
    }
  }
  if (rows !== stepCount * groupsPerStep * groupSize) throw new Error(`read ${rows} rewards`);
  return performance.now() - started;
}

export const suite: BenchSuite = {
  name: 'localRunsChart: the run view of a 500-step trajectories folder',
  async run(): Promise<BenchFigure[]> {
    const split = await runFolder();
    const first: number[] = [];
    const all: number[] = [];
    const peer: number[] = [];
    for (let round = 0; round < rounds; round++) {
      first.push(await runChart(split, 'first'));
      peer.push(await rewardColumns(split));
      all.push(await runChart(split, 'all'));
    }
    const peerName = "hyparquet alone reading the 500 files' reward column";
    return [
      {
        name: 'first chart data (listing + first batch of step figures)',
        value: median(first),
        unit: 'ms',
        peer: { name: peerName, value: median(peer) },
        better: 'lower',
        goal: { kind: 'absolute', atMost: 1000 },
      },
      {
        name: "every step's figures (groups summarised, flags counted)",
        value: median(all),
        unit: 'ms',
        peer: { name: peerName, value: median(peer) },
        better: 'lower',
        note: 'every column read and every group summarised, against one column alone',
      },
    ];
  },
};
