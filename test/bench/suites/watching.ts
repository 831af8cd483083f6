/**
 * Watching training while the person works elsewhere: 20 followed jobs polled with no view of them
 * visible, each ending at its own time, and the 10 models they train charted as their checkpoints
 * arrive. Measured on the real JobTracker, CheckpointPages and PlatformClient against a raw HTTP
 * server on 127.0.0.1:
 * - how long after its terminal event each job's end is told (the notice rules of the
 *   notifications), against the poll interval that applies (the goal: within one);
 * - the requests a minute the 20 jobs cost, against one request per job per interval; and with the
 *   10 models, against one per job per interval plus one per model per `liveRefreshIntervalMs`
 *   (a model's newest checkpoints are read again when one of its jobs reports a step, at most that
 *   often, as its training timeline does);
 * - the heap the extension holds after 12 simulated minutes, against the same events and
 *   checkpoints kept as plain arrays with nothing around them.
 * Time is SIMULATED (polling.ts explains how), so the request figures do not depend on the machine.
 */
import { JobTracker } from '../../../src/training/model/jobTracker';
import { JobNoticeRules } from '../../../src/training/model/jobNotices';
import { defaultPollPolicy, pollDelay } from '../../../src/training/model/pollPolicy';
import { CheckpointTimeline } from '../../../src/training/model/modelTimeline';
import { maxCheckpointsCharted } from '../../../src/training/protocol';
import { CheckpointPages, liveRefreshIntervalMs, type CheckpointSource } from '../../../src/training/host/models/checkpointPages';
import { modelWithNewCheckpoints } from '../../../src/training/host/jobs/checkpointChanges';
import type { Services } from '../../../src/platform/host/services';
import { SimulatedClock } from '../../fault/support/pollingClock';
import { clientFor, PollingServer, sourceFor, timeline, type CheckpointsBehaviour, type EventsBehaviour, type WireCheckpoint, type WireEvent } from '../../fault/support/pollingServers';
import { collector, held, settled } from '../heldMemory';
import type { BenchFigure, BenchSuite } from '../report';
import { worst } from '../stats';

const minute = 60_000;
const jobs = 20;
const models = 10;
const simulatedMinutes = 12;
/** A gradient step every 5 s of simulated time; job k ends after 2 + k/2 minutes and a few seconds (so ends fall anywhere between two polls). */
const stepMs = 5_000;
const endsAt = (index: number) => 2 * minute + index * 30_000 + ((index * 3_700) % 15_000);
const indexOf = (jobId: string) => Number(jobId.slice('job-'.length));
/** Job k trains model k mod 10: two jobs per model, each step saving a checkpoint. */
const modelOf = (jobIndex: number) => `model-${jobIndex % models}`;
const jobIds = Array.from({ length: jobs }, (_, index) => `job-${index}`);
const modelIds = Array.from({ length: models }, (_, index) => `model-${index}`);

/** The platform as it stands `elapsed` ms after the start: each job's events, each model's checkpoints. */
class Platform {
  constructor(private readonly elapsed: () => number) {}

  /** A start, a step every 5 s, then the end at the job's time. */
  events(jobId: string): WireEvent[] {
    const elapsed = this.elapsed();
    const end = endsAt(indexOf(jobId));
    const steps = Math.floor(Math.min(elapsed, end) / stepMs);
    const all = Array.from({ length: steps + 1 }, (_, index) => timeline(jobId, index, 1000));
    if (elapsed >= end) all.push({ id: `${jobId}-end`, type: 'training_ended', data: {} });
    return all;
  }

  /** Newest first: one checkpoint per gradient step of the model's jobs, numbered in the order they were saved. */
  checkpoints(modelId: string): WireCheckpoint[] {
    const elapsed = this.elapsed();
    const saved: { at: number; job: number }[] = [];
    for (let job = 0; job < jobs; job++) {
      if (modelOf(job) !== modelId) continue;
      const steps = Math.floor(Math.min(elapsed, endsAt(job)) / stepMs);
      for (let step = 1; step <= steps; step++) saved.push({ at: step * stepMs, job });
    }
    saved.sort((a, b) => a.at - b.at || a.job - b.job);
    return saved.map((_, index) => ({ id: `${modelId}-c${index + 1}`, step: index + 1, metrics: { reward: Math.log(index + 2), loss: 1 / (index + 1) } })).reverse();
  }

  readonly eventsBehaviour: EventsBehaviour = (jobId, after, limit) => {
    const all = this.events(jobId);
    const start = after ? all.findIndex((event) => event.id === after) + 1 : 0;
    const data = all.slice(start, start + limit);
    return { data, has_more: start + data.length < all.length, ...(data.length ? { last_id: data[data.length - 1]!.id } : {}) };
  };

  readonly checkpointsBehaviour: CheckpointsBehaviour = (modelId, after, limit) => {
    const all = this.checkpoints(modelId);
    const start = after ? all.findIndex((checkpoint) => checkpoint.id === after) + 1 : 0;
    const data = all.slice(start, start + limit);
    return { data, has_more: start + data.length < all.length };
  };
}

interface Followed {
  latencies: number[];
  told: number;
  interval: number;
  /** Event polls in the second minute, while every job runs. */
  busyEventPolls: number;
  /** Checkpoint reads in the second minute. */
  busyModelReads: number;
  requests: number;
  modelReads: number;
  eventsKept: number;
  checkpointsCharted: number;
  heldBytes: number;
}

/**
 * Follows the 20 jobs and the 10 models for 12 simulated minutes, as the extension does, and
 * measures what it holds at the end (everything it built is released when this returns).
 */
async function followAll(server: PollingServer, clock: SimulatedClock, t0: number, collect: () => void, minutes = simulatedMinutes): Promise<Followed> {
  await settled(collect);
  const before = held();
  const client = clientFor(server);
  const policy = defaultPollPolicy(1000);
  const activity = { visible: false, focused: false };
  const tracker = new JobTracker({ source: sourceFor(client), policy, clock, pageSize: 100 });
  tracker.setActivity(activity);
  const rules = new JobNoticeRules({ now: () => clock.now() });
  const toldAt = new Map<string, number>();
  // Each job was started here for its model, as the extension remembers it.
  const services = { remembered: { jobs: { get: (jobId: string) => ({ id: jobId, modelId: modelOf(indexOf(jobId)) }) } } } as unknown as Services;
  let reading = 0;
  const source: CheckpointSource = async (modelId, query, signal) => {
    reading++;
    try {
      return await client.training.listCheckpoints(modelId, query, { signal });
    } finally {
      reading--;
    }
  };
  const pages = new CheckpointPages(source, clock);
  const timelines = new Map(modelIds.map((id) => [id, new CheckpointTimeline(maxCheckpointsCharted)]));
  tracker.onDidChange((change) => {
    for (const notice of rules.observe(change.record, change.newEvents)) if (notice.kind === 'finished') toldAt.set(notice.jobId, clock.now());
    const modelId = modelWithNewCheckpoints(services, change);
    if (modelId) pages.newCheckpointsExpected(modelId, () => timelines.get(modelId)?.add(pages.of(modelId).items));
  });
  try {
    // The models' charts are open: each reads its newest checkpoints once, then as its jobs report steps.
    await Promise.all(modelIds.map(async (id) => timelines.get(id)!.add(await pages.of(id).first())));
    for (const jobId of jobIds) tracker.track(jobId);
    await clock.run(minutes * minute, () => tracker.inFlight() === 0 && reading === 0);
    const inSecondMinute = (at: number) => at - t0 >= minute && at - t0 < 2 * minute;
    const figures = {
      latencies: jobIds.map((jobId, index) => (toldAt.get(jobId) ?? Infinity) - (t0 + endsAt(index))),
      told: toldAt.size,
      interval: pollDelay(policy, activity, 0),
      busyEventPolls: server.requests.filter((request) => inSecondMinute(request.at) && request.kind === 'events').length,
      busyModelReads: server.requests.filter((request) => inSecondMinute(request.at) && request.kind === 'checkpoints').length,
      requests: server.requests.filter((request) => request.kind === 'events' || request.kind === 'job' || request.kind === 'checkpoints').length,
      modelReads: server.requests.filter((request) => request.kind === 'checkpoints').length,
      eventsKept: jobIds.reduce((sum, jobId) => sum + (tracker.get(jobId)?.events.length ?? 0), 0),
      checkpointsCharted: [...timelines.values()].reduce((sum, each) => sum + each.size, 0),
      heldBytes: 0,
    };
    // The server's record of requests is the test's, not the extension's.
    server.requests.length = 0;
    await settled(collect);
    figures.heldBytes = held() - before;
    return figures;
  } finally {
    tracker.dispose();
    pages.resetAll();
  }
}

/**
 * Two simulated minutes on a server of their own first: the code that runs is compiled then, so
 * the figure counts what following holds, not the bytecode of its first run.
 */
async function warmUp(collect: () => void): Promise<void> {
  const clock = new SimulatedClock();
  const t0 = clock.now();
  const platform = new Platform(() => clock.now() - t0);
  const server = await new PollingServer({ events: platform.eventsBehaviour, checkpoints: platform.checkpointsBehaviour, now: () => clock.now(), keepRequests: 100_000 }).start();
  try {
    await followAll(server, clock, t0, collect, 2);
    await plainArraysHeld(platform, collect);
  } finally {
    await server.close();
  }
}

/** The same events and checkpoints as freshly parsed plain arrays, and nothing else: what holding them costs at least. */
async function plainArraysHeld(platform: Platform, collect: () => void): Promise<{ bytes: number; items: number }> {
  await settled(collect);
  const before = held();
  const kept = {
    events: jobIds.map((jobId) => JSON.parse(JSON.stringify(platform.events(jobId))) as WireEvent[]),
    checkpoints: modelIds.map((modelId) => JSON.parse(JSON.stringify(platform.checkpoints(modelId))) as WireCheckpoint[]),
  };
  await settled(collect);
  const bytes = held() - before;
  return { bytes, items: kept.events.reduce((sum, each) => sum + each.length, 0) + kept.checkpoints.reduce((sum, each) => sum + each.length, 0) };
}

export const suite: BenchSuite = {
  name: 'Watching: 20 followed jobs and 10 followed models in the background',
  async run(): Promise<BenchFigure[]> {
    const collect = collector();
    await warmUp(collect);
    const clock = new SimulatedClock();
    const t0 = clock.now();
    const platform = new Platform(() => clock.now() - t0);
    const server = await new PollingServer({ events: platform.eventsBehaviour, checkpoints: platform.checkpointsBehaviour, now: () => clock.now(), keepRequests: 100_000 }).start();
    try {
      const followed = await followAll(server, clock, t0, collect);
      const plain = await plainArraysHeld(platform, collect);
      const jobPeer = (jobs * minute) / followed.interval;
      const modelPeer = (models * minute) / liveRefreshIntervalMs;
      const mb = (bytes: number) => bytes / (1024 * 1024);
      return [
        {
          name: 'A finished job told (worst of 20)',
          value: worst(followed.latencies) / 1000,
          unit: 's',
          peer: { name: 'the poll interval with no view visible', value: followed.interval / 1000 },
          better: 'lower',
          goal: { kind: 'ratio', atMost: 1 },
          note: `${followed.told} of ${jobs} ends told; from the terminal event to the notice, simulated time`,
        },
        {
          name: 'Requests a minute while 20 jobs run',
          value: followed.busyEventPolls,
          unit: 'req/min',
          peer: { name: 'one poll per job per interval', value: jobPeer },
          better: 'lower',
          goal: { kind: 'ratio', atMost: 1.05 },
          note: `event polls in the second minute; finished jobs are no longer polled; ${followed.eventsKept} events kept across the 20 jobs (bounded per job)`,
        },
        {
          name: 'Requests a minute while 20 jobs run and 10 models are charted',
          value: followed.busyEventPolls + followed.busyModelReads,
          unit: 'req/min',
          peer: { name: `one poll per job per interval and one read per model per ${liveRefreshIntervalMs / 1000} s`, value: jobPeer + modelPeer },
          better: 'lower',
          goal: { kind: 'ratio', atMost: 1 },
          note: `second minute: ${followed.busyEventPolls} event polls, ${followed.busyModelReads} checkpoint reads; ${followed.requests} requests in ${simulatedMinutes} simulated minutes in all (${followed.modelReads} checkpoint reads, job records included)`,
        },
        {
          name: `Heap held after ${simulatedMinutes} simulated minutes`,
          value: mb(followed.heldBytes),
          unit: 'MB',
          peer: { name: 'the same events and checkpoints as plain arrays', value: mb(plain.bytes) },
          better: 'lower',
          goal: { kind: 'ratio', atMost: 4 },
          note: `${followed.eventsKept} events and ${followed.checkpointsCharted} checkpoints charted (${plain.items} items in the arrays); tracker, checkpoint lists, timelines and client together; heap and array buffers after full collections`,
        },
      ];
    } finally {
      await server.close();
    }
  },
};
