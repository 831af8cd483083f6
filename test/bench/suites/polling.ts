/**
 * Requests a minute that polling one running job costs, against a misbehaving events endpoint (one
 * that ignores `after`; one that alternates cursors with has_more for ever), with a well-behaved
 * endpoint for a running job as the peer, measured in the same run. The real JobTracker and
 * PlatformClient against raw HTTP servers on 127.0.0.1; time is SIMULATED (the scheduler takes a
 * clock), so ten minutes of polling take about a second and the counts do not depend on the machine.
 */
import { JobTracker } from '../../../src/training/model/jobTracker';
import { defaultPollPolicy } from '../../../src/training/model/pollPolicy';
import { SimulatedClock } from '../../fault/support/pollingClock';
import { alternatingCursors, clientFor, ignoresAfter, PollingServer, sourceFor, wellBehaved, type EventsBehaviour } from '../../fault/support/pollingServers';
import type { BenchFigure, BenchSuite } from '../report';
import { worst } from '../stats';

const minute = 60_000;
const simulatedMinutes = 10;
/** The steady state: the last minutes of the run, after any back-off has settled. */
const steadyMinutes = 5;

interface Rate {
  /** Requests a minute over the whole run. */
  overall: number;
  /** Requests a minute over the last `steadyMinutes`. */
  steady: number;
  /** Events kept at the end, and the most pages one poll read. */
  kept: number;
  maxPagesPerPoll: number;
}

/** A job that gains one event a second of simulated time, served by `behaviour`; polled at the default 1 s. */
async function requestsPerMinute(behaviour: (count: (jobId: string) => number) => EventsBehaviour): Promise<Rate> {
  const clock = new SimulatedClock();
  const t0 = clock.now();
  const count = () => 1 + Math.floor((clock.now() - t0) / 1000);
  const server = await new PollingServer({ events: behaviour(count), now: () => clock.now() }).start();
  const client = clientFor(server);
  const tracker = new JobTracker({ source: sourceFor(client), policy: defaultPollPolicy(1000), clock, pageSize: 100 });
  try {
    tracker.track('job-1');
    await clock.run(simulatedMinutes * minute, () => tracker.inFlight() === 0);
    const events = server.requests.filter((entry) => entry.kind === 'events');
    const steadyFrom = t0 + (simulatedMinutes - steadyMinutes) * minute;
    const perPoll = new Map<number, number>();
    for (const entry of events) perPoll.set(entry.at, (perPoll.get(entry.at) ?? 0) + 1);
    return {
      overall: events.length / simulatedMinutes,
      steady: events.filter((entry) => entry.at >= steadyFrom).length / steadyMinutes,
      kept: tracker.get('job-1')?.events.length ?? 0,
      maxPagesPerPoll: worst([...perPoll.values()]),
    };
  } finally {
    tracker.dispose();
    await client.close();
    await server.close();
  }
}

export const suite: BenchSuite = {
  name: 'polling cost per job',
  async run(): Promise<BenchFigure[]> {
    const peer = await requestsPerMinute((count) => wellBehaved(count, 100_000));
    const ignoring = await requestsPerMinute((count) => ignoresAfter(count, 100_000));
    const alternating = await requestsPerMinute(() => alternatingCursors());
    const peerFigure = { name: 'well-behaved endpoint, running job', value: peer.steady };
    const simulated = `simulated time, ${simulatedMinutes} min, steady state = last ${steadyMinutes} min`;
    return [
      {
        name: 'requests/min per job, well-behaved endpoint (the cadence a running job keeps)',
        value: peer.steady,
        unit: 'req/min',
        better: 'higher',
        goal: { kind: 'absolute', atLeast: 50 },
        note: `${simulated}; ${peer.overall.toFixed(1)} req/min over the whole run, ${peer.kept} events kept`,
      },
      {
        name: 'requests/min per job, events endpoint that ignores `after`',
        value: ignoring.steady,
        unit: 'req/min',
        peer: peerFigure,
        better: 'lower',
        goal: { kind: 'absolute', atMost: 6 },
        note: `${simulated}; ${ignoring.overall.toFixed(1)} req/min over the whole run, ${ignoring.kept} events kept (the server shows 100 at most), pages a poll at most: ${ignoring.maxPagesPerPoll}`,
      },
      {
        name: 'requests/min per job, cursors alternating with has_more for ever',
        value: alternating.steady,
        unit: 'req/min',
        peer: peerFigure,
        better: 'lower',
        goal: { kind: 'absolute', atMost: 6 },
        note: `${simulated}; ${alternating.overall.toFixed(1)} req/min over the whole run, pages a poll at most: ${alternating.maxPagesPerPoll}, ${alternating.kept} events kept`,
      },
    ];
  },
};
