/**
 * The sidebar against the local emulator, through the same pure code the views use (the cursor
 * pager of the Models view and the job tracker of the Training Jobs view) and the real client:
 *  - a model with 10,000 checkpoints: time from the request to the first page of 100, and the heap
 *    growth once every page was loaded through "Load more";
 *  - fifty running jobs followed at once: requests in flight per job (never more than one),
 *    requests per second while they run, and requests once they all finished (none).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { PlatformClient } from '../../../src/platform/client';
import type { Checkpoint, TrajectoryGroup } from '../../../src/platform/client/types';
import { CursorPager } from '../../../src/training/model/cursorPager';
import { JobTracker } from '../../../src/training/model/jobTracker';
import { defaultPollPolicy } from '../../../src/training/model/pollPolicy';
import { startEmulator } from '../../emulator';
import type { Emulator } from '../../emulator/contract';
import type { BenchFigure, BenchSuite } from '../report';
import { median } from '../stats';

const checkpointCount = 10_000;
const firstPageRuns = 15;
const jobCount = 50;
const groupsPerJob = 6;

/** A full collection, when the process allows one (the flag can be set at run time). */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (() => void) | undefined;
  gc?.();
  gc?.();
}

function clientFor(emulator: Emulator): PlatformClient {
  return new PlatformClient({
    trainingUrl: emulator.trainingUrl,
    inferenceUrl: emulator.inferenceUrl,
    credentials: { getApiKey: async () => emulator.apiKey },
  });
}

async function checkpointFigures(emulator: Emulator, client: PlatformClient): Promise<BenchFigure[]> {
  const modelId = await emulator.createModelWithCheckpoints('bench-10k', checkpointCount);
  const pagerOf = () => new CursorPager<Checkpoint>((after, signal) => client.training.listCheckpoints(modelId, { after, limit: 100, order: 'desc' }, { signal }));

  // The first page a user sees, the first time: new connection, cold server path.
  let started = performance.now();
  const coldPager = pagerOf();
  await coldPager.first();
  const cold = performance.now() - started;
  const warm: number[] = [];
  for (let run = 0; run < firstPageRuns; run++) {
    const pager = pagerOf();
    started = performance.now();
    const page = await pager.first();
    warm.push(performance.now() - started);
    if (page.length !== 100 || page[0]!.step !== checkpointCount - 1) throw new Error('the first page is not the newest 100 checkpoints');
  }

  emulator.requests.length = 0;
  collectGarbage();
  const before = process.memoryUsage().heapUsed;
  const pager = pagerOf();
  started = performance.now();
  await pager.first();
  while (pager.hasMore) await pager.loadMore();
  const allMs = performance.now() - started;
  emulator.requests.length = 0;
  collectGarbage();
  const grown = (process.memoryUsage().heapUsed - before) / (1024 * 1024);
  if (pager.items.length !== checkpointCount) throw new Error(`loaded ${pager.items.length} checkpoints, not ${checkpointCount}`);

  return [
    { name: '10k checkpoints: first page of 100 (first request)', value: cold, unit: 'ms', better: 'lower', goal: { kind: 'absolute', atMost: 150 } },
    { name: '10k checkpoints: first page of 100 (median of 15)', value: median(warm), unit: 'ms', better: 'lower', goal: { kind: 'absolute', atMost: 150 } },
    { name: '10k checkpoints: heap growth with all 100 pages loaded', value: grown, unit: 'MB', better: 'lower', goal: { kind: 'absolute', atMost: 30 }, note: `all pages in ${Math.round(allMs)} ms` },
  ];
}

function trajectoryGroups(count: number): TrajectoryGroup[] {
  return Array.from({ length: count }, (_, index) => ({
    trajectories: [
      {
        messages_and_choices: [
          { role: 'user', content: `question ${index}` },
          { index: 0, finish_reason: 'stop', message: { role: 'assistant', content: `answer ${index}` } },
        ],
        reward: index % 2,
      },
    ],
  }));
}

async function followingFigures(emulator: Emulator, client: PlatformClient): Promise<BenchFigure[]> {
  const model = await client.training.createModel({ project: 'bench', name: 'followed', base_model: emulator.seeded?.baseModels[0] ?? 'OpenPipe/Qwen3-14B-Instruct' });
  const ids: string[] = [];
  for (let index = 0; index < jobCount; index++) {
    ids.push((await client.training.createTrainingJob({ model_id: model.id, trajectory_groups: trajectoryGroups(groupsPerJob) })).id);
  }

  const inFlight = new Map<string, number>();
  let maxPerJob = 0;
  let requests = 0;
  let requestsAfterDone = 0;
  let allDone = false;
  const counted = async <T>(jobId: string, call: () => Promise<T>): Promise<T> => {
    const now = (inFlight.get(jobId) ?? 0) + 1;
    inFlight.set(jobId, now);
    maxPerJob = Math.max(maxPerJob, now);
    requests++;
    if (allDone) requestsAfterDone++;
    try {
      return await call();
    } finally {
      inFlight.set(jobId, (inFlight.get(jobId) ?? 1) - 1);
    }
  };
  const tracker = new JobTracker({
    // The extension's default: one second while the view is visible and the window focused.
    policy: defaultPollPolicy(1000),
    pageSize: 100,
    source: {
      events: (jobId, query, signal) => counted(jobId, () => client.training.listTrainingJobEvents(jobId, query, { signal })),
      job: (jobId, signal) => counted(jobId, () => client.training.getTrainingJob(jobId, { signal })),
    },
  });
  tracker.setActivity({ visible: true, focused: true });

  const started = performance.now();
  for (const id of ids) tracker.track(id);
  const deadline = Date.now() + 120_000;
  while (tracker.pollingCount() > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  const elapsed = (performance.now() - started) / 1000;
  const unfinished = tracker.pollingCount();
  const succeeded = ids.filter((id) => tracker.get(id)?.status.phase === 'succeeded').length;
  allDone = true;
  await new Promise((resolve) => setTimeout(resolve, 3000));
  tracker.dispose();

  return [
    { name: `${jobCount} jobs followed: most requests in flight for one job`, value: maxPerJob, unit: 'requests', better: 'lower', goal: { kind: 'absolute', atMost: 1 } },
    {
      name: `${jobCount} jobs followed: request rate until all finished`,
      value: requests / elapsed,
      unit: 'req/s',
      better: 'lower',
      note: `${requests} requests in ${elapsed.toFixed(1)} s; ${succeeded}/${jobCount} succeeded${unfinished ? `, ${unfinished} still running at the deadline` : ''}`,
    },
    { name: `${jobCount} jobs followed: requests in the 3 s after all finished`, value: requestsAfterDone, unit: 'requests', better: 'lower', goal: { kind: 'absolute', atMost: 0 } },
  ];
}

export const suite: BenchSuite = {
  name: 'sidebar (checkpoint paging, job following)',
  async run(): Promise<BenchFigure[]> {
    const emulator = await startEmulator({ apiKey: 'bench-key', secondsPerStep: 0.4 });
    const client = clientFor(emulator);
    try {
      return [...(await checkpointFigures(emulator, client)), ...(await followingFigures(emulator, client))];
    } finally {
      await client.close();
      await emulator.close();
    }
  },
};
