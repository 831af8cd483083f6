import * as assert from 'node:assert/strict';
import { defaultPollPolicy, pollDelay } from '../../../src/core/pollPolicy';
import { PollScheduler, type PollOutcome } from '../../../src/core/pollScheduler';
import { FakeClock, settle } from './fakeClock';

const policy = defaultPollPolicy(1000);
const active = { visible: true, focused: true };

describe('poll delay', () => {
  it('polls at the base interval while visible and focused', () => {
    assert.equal(pollDelay(policy, active, 0), 1000);
  });

  it('slows down when the window loses focus, more when the view is hidden', () => {
    assert.equal(pollDelay(policy, { visible: true, focused: false }, 0), 5000);
    assert.equal(pollDelay(policy, { visible: false, focused: true }, 0), 15000);
    assert.equal(pollDelay(policy, { visible: false, focused: false }, 0), 15000);
  });

  it('doubles after each consecutive failure, up to the cap', () => {
    const delays = [1, 2, 3, 4, 5, 6, 7, 20].map((failures) => pollDelay(policy, active, failures));
    assert.deepEqual(delays, [2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000]);
    assert.ok(pollDelay(policy, active, 2, 0.99) > pollDelay(policy, active, 2, 0));
  });
});

describe('poll scheduler', () => {
  function harness(answer: (id: string, call: number) => Promise<PollOutcome>) {
    const clock = new FakeClock();
    const calls: string[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const perJob = new Map<string, number>();
    const scheduler = new PollScheduler({
      policy,
      clock,
      random: () => 0,
      poll: async (id) => {
        calls.push(id);
        const running = (perJob.get(id) ?? 0) + 1;
        perJob.set(id, running);
        assert.equal(running, 1, `two polls in flight for ${id}`);
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        try {
          return await answer(id, calls.filter((call) => call === id).length);
        } finally {
          inFlight--;
          perJob.set(id, running - 1);
        }
      },
    });
    return { clock, calls, scheduler, maxInFlight: () => maxInFlight };
  }

  it('polls at once, then every interval, and stops at a terminal answer', async () => {
    const { clock, calls, scheduler } = harness(async (_id, call) => (call >= 3 ? 'done' : 'continue'));
    scheduler.follow('a');
    await settle();
    assert.equal(calls.length, 1);
    await clock.advance(999);
    assert.equal(calls.length, 1);
    await clock.advance(1);
    assert.equal(calls.length, 2);
    await clock.advance(1000);
    assert.equal(calls.length, 3);
    assert.equal(scheduler.isFollowing('a'), false);
    await clock.advance(10_000);
    assert.equal(calls.length, 3);
    assert.equal(clock.pending(), 0);
  });

  it('never has two polls of one job in flight, even when woken during a slow poll', async () => {
    let release: (() => void) | undefined;
    const { clock, calls, scheduler } = harness(() => new Promise<PollOutcome>((resolve) => { release = () => resolve('continue'); }));
    scheduler.follow('a');
    await settle();
    scheduler.wake('a');
    scheduler.follow('a');
    await clock.advance(5000);
    assert.equal(calls.length, 1);
    assert.equal(scheduler.inFlight(), 1);
    release!();
    await settle();
    // The wake-ups that arrived meanwhile give exactly one more poll, right away.
    assert.equal(calls.length, 2);
    release!();
    await settle();
    assert.equal(calls.length, 2);
    assert.deepEqual(clock.delays(), [1000]);
  });

  it('backs off after failures and resumes the normal interval after a success', async () => {
    const failing = new Set([2, 3, 4]);
    const { clock, calls, scheduler } = harness(async (_id, call) => {
      if (failing.has(call)) throw new Error('connection refused');
      return 'continue';
    });
    scheduler.follow('a');
    await settle();
    await clock.advance(1000); // call 2 fails
    assert.deepEqual(clock.delays(), [2000]);
    await clock.advance(2000); // call 3 fails
    assert.deepEqual(clock.delays(), [4000]);
    await clock.advance(4000); // call 4 fails
    assert.deepEqual(clock.delays(), [8000]);
    await clock.advance(8000); // call 5 succeeds
    assert.equal(calls.length, 5);
    assert.deepEqual(clock.delays(), [1000]);
  });

  it('waits longer while hidden and pulls waiting polls forward when visible again', async () => {
    const { clock, calls, scheduler } = harness(async () => 'continue');
    scheduler.setActivity({ visible: false, focused: true });
    scheduler.follow('a');
    scheduler.follow('b');
    await settle();
    assert.deepEqual(clock.delays(), [15000, 15000]);
    await clock.advance(3000);
    assert.equal(calls.length, 2);
    scheduler.setActivity(active);
    assert.deepEqual(clock.delays(), [1000, 1000]);
    await clock.advance(1000);
    assert.equal(calls.length, 4);
  });

  it('stops a job on request, aborting its poll, and forgets everything on dispose', async () => {
    let seenSignal: AbortSignal | undefined;
    const clock = new FakeClock();
    const scheduler = new PollScheduler({
      policy,
      clock,
      poll: (_id, signal) => {
        seenSignal = signal;
        return new Promise<PollOutcome>(() => undefined);
      },
    });
    scheduler.follow('a');
    scheduler.follow('b');
    scheduler.stop('a');
    assert.equal(seenSignal?.aborted, false, 'the signal seen last belongs to b');
    assert.deepEqual(scheduler.following(), ['b']);
    scheduler.dispose();
    assert.equal(seenSignal?.aborted, true);
    assert.deepEqual(scheduler.following(), []);
    scheduler.follow('c');
    assert.deepEqual(scheduler.following(), []);
  });

  it('keeps one in flight per job with many jobs at once', async () => {
    const { clock, scheduler, maxInFlight } = harness(async (_id, call) => {
      await new Promise((resolve) => setImmediate(resolve));
      return call > 4 ? 'done' : 'continue';
    });
    for (let index = 0; index < 50; index++) scheduler.follow(`job-${index}`);
    await clock.advance(10_000);
    assert.ok(maxInFlight() <= 50);
    assert.equal(scheduler.following().length, 0);
    assert.equal(clock.pending(), 0);
  });
});
