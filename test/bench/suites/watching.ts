/**
 * Watching training while the person works elsewhere: 20 followed jobs polled with no view of them
 * visible, each ending at its own time. Measured: how long after its terminal event each job's end
 * is told (the notice rules of the notifications, on the real JobTracker and PlatformClient against
 * a raw HTTP server on 127.0.0.1), against the poll interval that applies (the goal: within one);
 * the requests a minute the 20 jobs cost, against one request per job per interval; and the events
 * kept. Time is SIMULATED (polling.ts explains how), so the figures do not depend on the machine.
 * Followed models cost no request until their charts or checkpoints are shown.
 */
import { JobTracker } from '../../../src/training/model/jobTracker';
import { JobNoticeRules } from '../../../src/training/model/jobNotices';
import { defaultPollPolicy, pollDelay } from '../../../src/training/model/pollPolicy';
import { SimulatedClock } from '../../fault/support/pollingClock';
import { clientFor, PollingServer, sourceFor, timeline, type EventsBehaviour } from '../../fault/support/pollingServers';
import type { BenchFigure, BenchSuite } from '../report';
import { worst } from '../stats';

const minute = 60_000;
const jobs = 20;
const simulatedMinutes = 12;
/** A gradient step every 5 s of simulated time; job k ends after 2 + k/2 minutes and a few seconds (so ends fall anywhere between two polls). */
const stepMs = 5_000;
const endsAt = (index: number) => 2 * minute + index * 30_000 + ((index * 3_700) % 15_000);

export const suite: BenchSuite = {
  name: 'Watching: 20 followed jobs in the background',
  async run(): Promise<BenchFigure[]> {
    const clock = new SimulatedClock();
    const t0 = clock.now();
    const indexOf = (jobId: string) => Number(jobId.slice('job-'.length));
    // The events that exist now: a start, a step every 5 s, then the end at the job's time.
    const behaviour: EventsBehaviour = (jobId, after, limit) => {
      const elapsed = clock.now() - t0;
      const end = endsAt(indexOf(jobId));
      const steps = Math.floor(Math.min(elapsed, end) / stepMs);
      const all = Array.from({ length: steps + 1 }, (_, index) => timeline(jobId, index, 1000));
      if (elapsed >= end) all.push({ id: `${jobId}-end`, type: 'training_ended', data: {} });
      const start = after ? all.findIndex((event) => event.id === after) + 1 : 0;
      const data = all.slice(start, start + limit);
      return { data, has_more: start + data.length < all.length, ...(data.length ? { last_id: data[data.length - 1]!.id } : {}) };
    };
    const server = await new PollingServer({ events: behaviour, now: () => clock.now(), keepRequests: 100_000 }).start();
    const policy = defaultPollPolicy(1000);
    const activity = { visible: false, focused: false };
    const tracker = new JobTracker({ source: sourceFor(clientFor(server)), policy, clock, pageSize: 100 });
    tracker.setActivity(activity);
    const rules = new JobNoticeRules({ now: () => clock.now() });
    const toldAt = new Map<string, number>();
    tracker.onDidChange((change) => {
      for (const notice of rules.observe(change.record, change.newEvents)) if (notice.kind === 'finished') toldAt.set(notice.jobId, clock.now());
    });
    try {
      for (let index = 0; index < jobs; index++) tracker.track(`job-${index}`);
      await clock.run(simulatedMinutes * minute, () => tracker.inFlight() === 0);
      const latencies = Array.from({ length: jobs }, (_, index) => (toldAt.get(`job-${index}`) ?? Infinity) - (t0 + endsAt(index)));
      const interval = pollDelay(policy, activity, 0);
      const requests = server.requests.filter((request) => request.kind === 'events' || request.kind === 'job').length;
      const kept = Array.from({ length: jobs }, (_, index) => tracker.get(`job-${index}`)?.events.length ?? 0).reduce((sum, count) => sum + count, 0);
      // While all 20 move (the second minute, after the first reads): event polls, one per job per interval at most.
      const busy = server.requests.filter((request) => request.at - t0 >= minute && request.at - t0 < 2 * minute && request.kind === 'events').length;
      return [
        {
          name: 'A finished job told (worst of 20)',
          value: worst(latencies) / 1000,
          unit: 's',
          peer: { name: 'the poll interval with no view visible', value: interval / 1000 },
          better: 'lower',
          goal: { kind: 'ratio', atMost: 1 },
          note: `${toldAt.size} of ${jobs} ends told; from the terminal event to the notice, simulated time`,
        },
        {
          name: 'Requests a minute while 20 jobs run',
          value: busy,
          unit: 'req/min',
          peer: { name: 'one poll per job per interval', value: (jobs * minute) / interval },
          better: 'lower',
          goal: { kind: 'ratio', atMost: 1.05 },
          note: `event polls in the second minute; ${requests} requests in ${simulatedMinutes} simulated minutes in all (job records included); finished jobs are no longer polled; ${kept} events kept across the 20 jobs (bounded per job)`,
        },
      ];
    } finally {
      tracker.dispose();
      await server.close();
    }
  },
};
