/**
 * Polling against training APIs that break the paging rules, or against a flood of jobs: the real
 * JobTracker, PollScheduler and HealthMonitor over the real PlatformClient, with raw HTTP servers on
 * 127.0.0.1. Time is simulated (test/fault/support/pollingClock.ts): ten minutes of polling take a
 * second or two, and every request is real.
 */
import { strict as assert } from 'node:assert';
import { request } from 'node:http';
import type { PlatformClient } from '../../src/platform/client';
import { describeFailure } from '../../src/platform/client/describeFailure';
import { summarizeHealth } from '../../src/platform/health/health';
import { HealthMonitor, notChecked } from '../../src/platform/health/healthMonitor';
import { JobTracker } from '../../src/training/model/jobTracker';
import { defaultPollPolicy, minPollIntervalMs } from '../../src/training/model/pollPolicy';
import { measure } from './support/measure';
import { SimulatedClock, until } from './support/pollingClock';
import { alternatingCursors, clientFor, ignoresAfter, PollingServer, sourceFor, wellBehaved, type PollingServerOptions, type RecordedRequest } from './support/pollingServers';

const minute = 60_000;

/** The tracker as the extension builds it (pages of 100, default bounds), on simulated time. */
function trackerFor(client: PlatformClient, clock: SimulatedClock, baseMs = 1000): JobTracker {
  return new JobTracker({ source: sourceFor(client), policy: defaultPollPolicy(baseMs), clock, pageSize: 100 });
}

/** Events requests in [from, to) of simulated time. */
function eventsBetween(requests: RecordedRequest[], from: number, to: number): RecordedRequest[] {
  return requests.filter((entry) => entry.kind === 'events' && entry.at >= from && entry.at < to);
}

/** Requests grouped by the simulated instant they arrived at: the pages of one poll share it. */
function pagesPerPoll(requests: RecordedRequest[]): number[] {
  const groups = new Map<number, number>();
  for (const entry of requests) if (entry.kind === 'events') groups.set(entry.at, (groups.get(entry.at) ?? 0) + 1);
  return [...groups.values()];
}

/** A request from outside the client: once the server counted it, it had nothing else queued. */
async function marker(server: PollingServer): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const call = request(`${server.url}/marker`, (response) => {
      response.resume();
      response.on('end', resolve);
    });
    call.on('error', reject);
    call.end();
  });
}

describe('fault suite: polling', function () {
  this.timeout(30_000);
  let server: PollingServer | undefined;
  let client: PlatformClient | undefined;
  let tracker: JobTracker | undefined;

  async function serve(options: PollingServerOptions): Promise<{ server: PollingServer; client: PlatformClient }> {
    server = await new PollingServer(options).start();
    client = clientFor(server);
    return { server, client };
  }

  afterEach(async () => {
    tracker?.dispose();
    tracker = undefined;
    await client?.close();
    client = undefined;
    await server?.close();
    server = undefined;
  });

  it('events endpoint that ignores `after`: kept events stay at the real count, a couple of requests a minute', async () => {
    const clock = new SimulatedClock();
    const t0 = clock.now();
    // 40 events at first, one more every 5 s, up to 100: the old client kept 59,500 after 10 minutes.
    const real = () => Math.min(100, 40 + Math.floor((clock.now() - t0) / 5000));
    const { server, client } = await serve({ events: ignoresAfter(real, 99), now: () => clock.now() });
    tracker = trackerFor(client, clock);
    const polls = tracker;
    polls.track('job-1');
    await clock.run(10 * minute, () => polls.inFlight() === 0);

    const record = polls.get('job-1')!;
    assert.equal(record.events.length, 100, 'every real event, once');
    assert.equal(new Set(record.events.map((event) => event.id)).size, 100);
    assert.equal(record.status.step, 99);
    assert.equal(record.status.eventCount, 100);
    const total = eventsBetween(server.requests, t0, t0 + 10 * minute).length;
    const lastFive = eventsBetween(server.requests, t0 + 5 * minute, t0 + 10 * minute).length;
    assert.ok(total <= 30, `${total} requests in 10 minutes (the old client: 600)`);
    assert.ok(lastFive / 5 <= 2, `${lastFive / 5} requests a minute once backed off`);
    assert.ok(polls.isPolling('job-1'), 'the job is still followed');
  });

  it('cursors that alternate with has_more for ever: at most ten pages a poll, stop at the repeated cursor, a few requests a minute', async () => {
    const clock = new SimulatedClock();
    const t0 = clock.now();
    const { server, client } = await serve({ events: alternatingCursors(), now: () => clock.now() });
    tracker = trackerFor(client, clock);
    const polls = tracker;
    polls.track('job-1');
    await clock.run(10 * minute, () => polls.inFlight() === 0);

    const perPoll = pagesPerPoll(server.requests);
    assert.ok(Math.max(...perPoll) <= 10, `a poll read ${Math.max(...perPoll)} pages`);
    assert.equal(perPoll[0], 3, 'A, B, then A again: the poll stops');
    const total = eventsBetween(server.requests, t0, t0 + 10 * minute).length;
    const lastFive = eventsBetween(server.requests, t0 + 5 * minute, t0 + 10 * minute).length;
    assert.ok(total <= 25, `${total} requests in 10 minutes (the old client: 51 a second)`);
    assert.ok(lastFive / 5 <= 2, `${lastFive / 5} requests a minute once backed off`);
    assert.ok(polls.get('job-1')!.events.length <= 5_000, 'events kept stay bounded');
  });

  it('500 remembered jobs of 10,000 events each at start: never more than 4 requests at once, first polls spread, heap bounded', async () => {
    const clock = new SimulatedClock();
    const t0 = clock.now();
    const { server, client } = await serve({ events: wellBehaved(() => 10_000, 9_999), now: () => clock.now(), keepRequests: 200_000, answerDelayMs: 1 });
    tracker = trackerFor(client, clock);
    const polls = tracker;
    let maxInFlight = 0;
    let maxQueued = 0;
    const { measurement } = await measure(async () => {
      for (let index = 0; index < 500; index++) polls.track(`job-${index}`);
      // Time runs on whether or not answers came, so polls pile up as they would on a slow network.
      // Reading all 5,000,000 events takes 50,000 requests: a couple of thousand show the shape.
      const started = Date.now();
      while (server.received < 2000 && Date.now() - started < 6000) {
        await clock.sweep(250, 25);
        maxInFlight = Math.max(maxInFlight, polls.inFlight());
        maxQueued = Math.max(maxQueued, polls.queuedPolls());
      }
    });
    polls.dispose();
    await until(() => server.open === 0, 'the last requests to end');

    assert.ok(server.received >= 200, `${server.received} requests served`);
    assert.ok(server.maxOpen <= 4, `${server.maxOpen} requests open at once`);
    assert.ok(server.maxOpen >= 2, 'the polls did overlap (the cap was exercised)');
    assert.ok(maxInFlight <= 4 && maxQueued > 100, `${maxInFlight} polls in flight while up to ${maxQueued} waited for a slot`);
    const firstAsk = new Map<string, number>();
    for (const entry of server.requests) if (entry.kind === 'events' && !firstAsk.has(entry.jobId!)) firstAsk.set(entry.jobId!, entry.at);
    const inFirstSecond = [...firstAsk.values()].filter((at) => at < t0 + 1000).length;
    assert.ok(inFirstSecond <= 45, `${inFirstSecond} jobs first polled within the first second`);
    let kept = 0;
    let loaded = 0;
    for (const id of polls.ids()) {
      kept += polls.get(id)!.events.length;
      if (polls.get(id)!.loaded) loaded++;
    }
    assert.ok(loaded >= 10, `${loaded} jobs loaded`);
    assert.ok(kept <= 100_000, `${kept} events kept across 500 jobs`);
    assert.ok(kept <= loaded * 200, 'each job keeps its share of the budget (100,000 / 500)');
    assert.ok(measurement.peakHeapGrowthMiB < 100, `heap grew ${measurement.peakHeapGrowthMiB.toFixed(1)} MiB`);
    console.log(
      `      500 jobs: ${server.received} requests, at most ${server.maxOpen} open, ${loaded} loaded, ${kept} events kept, heap +${measurement.peakHeapGrowthMiB.toFixed(1)} MiB, longest stall ${measurement.maxEventLoopDelayMs.toFixed(0)} ms`,
    );
  });

  it('polling interval of 0.001 s given to the core, and a Refresh every 10 ms: never more often than every 0.5 s', async () => {
    const clock = new SimulatedClock();
    const t0 = clock.now();
    const { server, client } = await serve({ events: wellBehaved(() => 1 + Math.floor((clock.now() - t0) / 100), 100_000), now: () => clock.now() });
    tracker = trackerFor(client, clock, 0.001 * 1000);
    const polls = tracker;
    polls.track('job-1');
    for (let tick = 0; tick < 3000; tick++) {
      polls.refresh('job-1');
      await clock.run(10, () => polls.inFlight() === 0);
    }
    const starts = [...new Set(eventsBetween(server.requests, t0, t0 + 30_000).map((entry) => entry.at))].sort((a, b) => a - b);
    for (let index = 1; index < starts.length; index++) assert.ok(starts[index]! - starts[index - 1]! >= minPollIntervalMs, `polls ${starts[index]! - starts[index - 1]!} ms apart`);
    assert.ok(starts.length <= 30_000 / minPollIntervalMs + 1, `${starts.length} polls in 30 s`);
    assert.ok(starts.length >= 30_000 / minPollIntervalMs - 2, 'the floor, not something slower, set the pace');
  });

  it('tracker disposed mid-poll: requests abandoned, no timer left, the server sees nothing after', async () => {
    const clock = new SimulatedClock();
    const { server, client } = await serve({ now: () => clock.now(), hold: (entry) => entry.kind === 'events' });
    tracker = trackerFor(client, clock);
    const polls = tracker;
    for (let index = 0; index < 6; index++) polls.track(`job-${index}`);
    await until(() => server.open === 4, 'four polls to reach the server');
    assert.ok(polls.armedTimers() > 0, 'a staggered first poll is waiting');
    polls.dispose();
    assert.equal(polls.armedTimers(), 0);
    assert.equal(clock.pending(), 0);
    await until(() => server.abandoned === 4, 'the client to abandon the four requests');
    await until(() => polls.inFlight() === 0, 'the polls to settle');
    const before = server.received;
    await clock.run(60 * minute);
    assert.equal(clock.pending(), 0, 'nothing re-armed');
    await marker(server);
    assert.equal(server.received, before + 1, 'only the marker arrived after dispose');
  });

  it('health monitor disposed mid-check: the system check is abandoned, nothing re-arms, no request follows', async () => {
    const clock = new SimulatedClock();
    const { server, client } = await serve({ now: () => clock.now(), hold: (entry) => entry.kind === 'system-check' });
    const monitor = new HealthMonitor({
      clock,
      firstCheckDelayMs: 1500,
      recheckMs: 5 * minute,
      probe: async (signal) => {
        const started = Date.now();
        try {
          const value = await client.training.systemCheck({ signal });
          return summarizeHealth({ state: 'ok', value, ms: Date.now() - started }, { state: 'skipped', reason: 'not configured' });
        } catch (error) {
          return summarizeHealth({ state: 'error', failure: describeFailure(error) }, { state: 'skipped', reason: 'not configured' });
        }
      },
    });
    monitor.start();
    await clock.run(1500);
    await until(() => server.open === 1, 'the system check to reach the server');
    const shared = monitor.check();
    assert.equal(monitor.checking, true);
    monitor.dispose();
    assert.equal(monitor.armed, false);
    assert.equal(clock.pending(), 0);
    await until(() => server.abandoned === 1, 'the client to abandon the system check');
    assert.equal(await shared, notChecked, 'the stale answer is not reported');
    assert.equal(monitor.armed, false, 'the check that ended after dispose armed nothing');
    const before = server.received;
    await clock.run(60 * minute);
    assert.equal(clock.pending(), 0);
    await marker(server);
    assert.equal(server.received, before + 1, 'only the marker arrived after dispose');
  });
});
