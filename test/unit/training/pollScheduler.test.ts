import * as assert from 'node:assert/strict';
import { defaultPollPolicy, minPollIntervalMs, pollDelay } from '../../../src/training/model/pollPolicy';
import { PollScheduler, type PollOutcome } from '../../../src/training/model/pollScheduler';
import { FakeClock, settle } from '../support/fakeClock';

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

  it('never goes below the floor or becomes NaN, whatever the policy holds', () => {
    for (const baseMs of [1, 0.001, 0, -5, Number.NaN, Number.NEGATIVE_INFINITY]) {
      const delay = pollDelay(defaultPollPolicy(baseMs), active, 0);
      assert.equal(delay, minPollIntervalMs, `base ${baseMs}`);
    }
    const broken = { baseMs: 1000, unfocusedFactor: Number.NaN, hiddenFactor: -1, maxMs: Number.POSITIVE_INFINITY };
    assert.equal(pollDelay(broken, { visible: false, focused: false }, 0), 1000);
    assert.equal(pollDelay(broken, active, 40, Number.NaN), 1000 * 2 ** 16);
    assert.ok(pollDelay({ ...policy, baseMs: Number.POSITIVE_INFINITY }, active, 0) >= minPollIntervalMs);
    assert.ok(pollDelay({ ...policy, baseMs: 1e15, maxMs: 1e15 }, active, 3) <= 2 ** 31 - 1, 'within what a timer can wait');
  });
});

describe('poll scheduler', () => {
  function harness(answer: (id: string, call: number) => Promise<PollOutcome>, options: { policy?: typeof policy; maxConcurrent?: number; firstPollStaggerMs?: number } = {}) {
    const clock = new FakeClock();
    const calls: string[] = [];
    const startedAt: number[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const perJob = new Map<string, number>();
    const scheduler = new PollScheduler({
      policy: options.policy ?? policy,
      maxConcurrent: options.maxConcurrent,
      firstPollStaggerMs: options.firstPollStaggerMs,
      clock,
      random: () => 0,
      poll: async (id) => {
        calls.push(id);
        startedAt.push(clock.now());
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
    return { clock, calls, startedAt, scheduler, maxInFlight: () => maxInFlight };
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
    const { clock, calls, scheduler } = harness(
      () =>
        new Promise<PollOutcome>((resolve) => {
          release = () => resolve('continue');
        }),
    );
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

  it('runs at most the cap of polls at once, the others waiting their turn in order', async () => {
    const releases: (() => void)[] = [];
    const { clock, calls, scheduler, maxInFlight } = harness(() => new Promise<PollOutcome>((resolve) => releases.push(() => resolve('done'))), { maxConcurrent: 3 });
    for (let index = 0; index < 20; index++) scheduler.follow(`job-${index}`);
    await clock.advance(60_000);
    assert.equal(calls.length, 3);
    assert.equal(scheduler.inFlight(), 3);
    assert.ok(scheduler.queued() > 0);
    while (releases.length) {
      releases.shift()!();
      await clock.advance(100);
    }
    assert.equal(calls.length, 20);
    assert.equal(maxInFlight(), 3);
    assert.deepEqual(
      calls,
      Array.from({ length: 20 }, (_, index) => `job-${index}`),
      'first come, first served',
    );
  });

  it('spreads the first polls of many jobs followed at once instead of starting them together', async () => {
    const { clock, startedAt, scheduler } = harness(async () => 'continue', { maxConcurrent: 4, firstPollStaggerMs: 25 });
    for (let index = 0; index < 100; index++) scheduler.follow(`job-${index}`);
    const t0 = clock.now();
    await clock.advance(999);
    // Within the first second (the interval) every poll is a first poll.
    const atOnce = startedAt.filter((at) => at === t0).length;
    assert.ok(atOnce <= 5, `${atOnce} first polls at the same instant`);
    const perTick = new Map<number, number>();
    for (const at of startedAt) perTick.set(at, (perTick.get(at) ?? 0) + 1);
    assert.ok(
      [...perTick.entries()].every(([at, count]) => at === t0 || count === 1),
      'after the first ones, one first poll at a time',
    );
    // The four slots and the first job that waited for one, then one every 25 ms.
    assert.equal(startedAt.length, 5 + Math.floor(999 / 25));
    await clock.advance(5000);
    assert.equal(new Set(scheduler.following()).size, 100);
  });

  it('never polls a job more often than the floor, even with a tiny interval and constant wake-ups', async () => {
    const { clock, startedAt, scheduler } = harness(async () => 'continue', { policy: defaultPollPolicy(1) });
    scheduler.follow('a');
    for (let tick = 0; tick < 200; tick++) {
      scheduler.wake('a');
      scheduler.follow('a');
      await clock.advance(10);
    }
    assert.ok(startedAt.length <= 2000 / minPollIntervalMs + 1, `${startedAt.length} polls in 2 s`);
    for (let index = 1; index < startedAt.length; index++) assert.ok(startedAt[index]! - startedAt[index - 1]! >= minPollIntervalMs);
  });

  it('backs off a job whose server misbehaves, and returns to the normal pace when it behaves', async () => {
    let misbehave = true;
    const { clock, calls, scheduler } = harness(async () => (misbehave ? 'suspect' : 'continue'));
    scheduler.follow('a');
    await settle();
    const delays: number[] = [];
    for (let round = 0; round < 8; round++) {
      const [delay] = clock.delays();
      delays.push(delay!);
      await clock.advance(delay!);
    }
    assert.deepEqual(delays, [2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000]);
    misbehave = false;
    await clock.advance(60_000);
    assert.deepEqual(clock.delays(), [1000]);
    assert.equal(calls.length, 10);
  });

  it('leaves no timer armed and starts nothing after dispose, even with polls waiting for a slot', async () => {
    const releases: (() => void)[] = [];
    const { clock, calls, scheduler } = harness(() => new Promise<PollOutcome>((resolve) => releases.push(() => resolve('continue'))), { maxConcurrent: 2 });
    for (let index = 0; index < 10; index++) scheduler.follow(`job-${index}`);
    await settle();
    assert.ok(scheduler.armedTimers() > 0);
    scheduler.dispose();
    assert.equal(scheduler.armedTimers(), 0);
    assert.equal(clock.pending(), 0);
    for (const release of releases.splice(0)) release();
    await clock.advance(120_000);
    assert.equal(calls.length, 2);
    assert.equal(clock.pending(), 0);
    assert.equal(scheduler.inFlight(), 0);
  });
});
