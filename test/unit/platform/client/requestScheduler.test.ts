import * as assert from 'node:assert/strict';
import { PlatformError } from '../../../../src/platform/client/errors';
import { evalLimits } from '../../../../src/evals/model/evalModel';
import { failureClass, runEvaluations, type SchedulerOptions, type SchedulerProgress, type SchedulerSummary } from '../../../../src/platform/client/requestScheduler';
import { FakeClock, settle } from '../../support/fakeClock';

interface Call {
  item: number;
  signal: AbortSignal;
  resolve(value: string): void;
  reject(error: unknown): void;
}

const httpError = (status: number, retryAfterMs?: number): PlatformError =>
  new PlatformError({ kind: 'http', status, retryAfterMs, message: `HTTP ${status}`, api: 'training', method: 'POST', path: '/v1/chat/completions' });

/** A run whose requests the test settles by hand, on a fake clock. */
function harness(count: number, options: Partial<SchedulerOptions<number, string>> = {}) {
  const clock = new FakeClock();
  const calls: Call[] = [];
  const open = new Set<Call>();
  let maxInFlight = 0;
  const results: { item: number; ok: boolean; attempts: number; error?: unknown }[] = [];
  const progress: SchedulerProgress[] = [];
  const done = runEvaluations<number, string>({
    items: Array.from({ length: count }, (_, at) => at),
    concurrency: 3,
    clock,
    random: () => 0.5,
    ask: (item, signal) =>
      new Promise<string>((resolve, reject) => {
        const call: Call = {
          item,
          signal,
          resolve: (value) => {
            open.delete(call);
            resolve(value);
          },
          reject: (error) => {
            open.delete(call);
            reject(error);
          },
        };
        calls.push(call);
        open.add(call);
        maxInFlight = Math.max(maxInFlight, open.size);
      }),
    onResult: (item, outcome) => results.push({ item, ok: outcome.ok, attempts: outcome.attempts, error: outcome.ok ? undefined : outcome.error }),
    onProgress: (value) => progress.push(value),
    ...options,
  });
  let summary: SchedulerSummary | undefined;
  void done.then((value) => (summary = value));
  return {
    clock,
    calls,
    open,
    results,
    progress,
    maxInFlight: () => maxInFlight,
    summary: () => summary,
    /** The oldest open call. */
    first: (): Call => [...open][0]!,
  };
}

describe('evaluation scheduler', () => {
  it('keeps exactly `concurrency` requests in flight while work remains, never more', async () => {
    const run = harness(10);
    await settle();
    for (let remaining = 10; remaining > 0; remaining--) {
      assert.equal(run.open.size, Math.min(3, remaining));
      run.first().resolve(`answer`);
      await settle();
    }
    assert.equal(run.maxInFlight(), 3);
    assert.deepEqual(run.summary(), { done: 10, failed: 0, cancelled: 0, attempts: 10 });
    assert.deepEqual(
      run.results.map((result) => result.item),
      [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    );
    assert.deepEqual(run.progress.at(-1), { done: 10, failed: 0, total: 10, inFlight: 0 });
  });

  it('a 429 stops new starts for everyone until its Retry-After, then asks the item again', async () => {
    const run = harness(6);
    await settle();
    const start = run.clock.now();
    run.calls[0]!.reject(httpError(429, 5_000));
    await settle();
    assert.equal(run.open.size, 2);
    assert.equal(run.progress.at(-1)!.rateLimitedUntil, start + 5_000);
    // The others finish during the pause: nothing new starts.
    run.calls[1]!.resolve('b');
    run.calls[2]!.resolve('c');
    await settle();
    assert.equal(run.open.size, 0);
    assert.equal(run.calls.length, 3);
    await run.clock.advance(4_999);
    assert.equal(run.calls.length, 3);
    await run.clock.advance(1);
    // Slots fill again; the item that met the 429 is asked first.
    assert.equal(run.open.size, 3);
    assert.deepEqual(
      run.calls.slice(3).map((call) => call.item),
      [0, 3, 4],
    );
    for (const call of [...run.open]) call.resolve('x');
    await settle();
    run.first().resolve('x');
    await settle();
    assert.deepEqual(run.summary(), { done: 6, failed: 0, cancelled: 0, attempts: 7 });
    assert.equal(run.results.find((result) => result.item === 0)!.attempts, 2);
  });

  it('a 429 without Retry-After backs off exponentially with jitter', async () => {
    const run = harness(1, { backoff: { baseDelayMs: 1_000, maxDelayMs: 60_000 }, random: () => 0.5 });
    await settle();
    const waits: number[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      const before = run.clock.now();
      run.first().reject(httpError(429));
      await settle();
      waits.push(run.clock.delays()[0]!);
      await run.clock.advance(run.clock.delays()[0]!);
      assert.ok(run.clock.now() > before);
    }
    // Full jitter at 0.5 of a ceiling of 1 s, 2 s, 4 s.
    assert.deepEqual(waits, [500, 1_000, 2_000]);
  });

  it('the kind "rate-limited" is taken as a 429 too; 5xx, lost connections and timeouts as passing; 4xx as final', () => {
    assert.equal(failureClass({ kind: 'rate-limited', retryAfterMs: 10 }), 'rate-limited');
    assert.equal(failureClass(httpError(429)), 'rate-limited');
    assert.equal(failureClass(httpError(503)), 'retryable');
    assert.equal(failureClass(new PlatformError({ kind: 'network', message: 'reset', api: 'training', method: 'POST', path: '/' })), 'retryable');
    assert.equal(failureClass(new PlatformError({ kind: 'timeout', message: 'slow', api: 'training', method: 'POST', path: '/' })), 'retryable');
    assert.equal(failureClass(httpError(400)), 'final');
    assert.equal(failureClass(new Error('bug')), 'final');
    assert.equal(failureClass('text'), 'final');
  });

  it('a final failure is the item’s outcome at once; a passing one is retried up to maxAttempts', async () => {
    const run = harness(2, { concurrency: 2, maxAttempts: 3 });
    await settle();
    run.calls[0]!.reject(httpError(400));
    for (let attempt = 1; attempt <= 3; attempt++) {
      await settle();
      const call = [...run.open].find((open) => open.item === 1)!;
      call.reject(httpError(502));
      await settle();
      await run.clock.advance(60_000);
    }
    assert.deepEqual(run.summary(), { done: 0, failed: 2, cancelled: 0, attempts: 4 });
    assert.deepEqual(
      run.results.map((result) => [result.item, result.attempts, (result.error as PlatformError).status]),
      [
        [0, 1, 400],
        [1, 3, 502],
      ],
    );
  });

  it('ends after at most items × maxAttempts requests when every answer is a 429 with Retry-After 0', async () => {
    const clock = new FakeClock();
    let asks = 0;
    const summary = await runEvaluations({
      items: [1, 2, 3, 4],
      concurrency: 2,
      clock,
      random: () => 0,
      ask: () => {
        asks++;
        return Promise.reject(httpError(429, 0));
      },
      onResult: () => undefined,
    });
    assert.deepEqual(summary, { done: 0, failed: 4, cancelled: 0, attempts: 20 });
    assert.equal(asks, 20);
  });

  it('a request that throws before returning a promise fails its item, and the run goes on', async () => {
    const clock = new FakeClock();
    const summary = await runEvaluations({
      items: [1, 2],
      clock,
      ask: (item) => {
        if (item === 1) throw new TypeError('bad request');
        return Promise.resolve('ok');
      },
      onResult: () => undefined,
    });
    assert.deepEqual(summary, { done: 1, failed: 1, cancelled: 0, attempts: 2 });
  });

  it('cancelling stops new starts, aborts the requests in flight and settles at once', async () => {
    const controller = new AbortController();
    const run = harness(10, { signal: controller.signal });
    await settle();
    run.calls[0]!.resolve('a');
    await settle();
    const inFlight = [...run.open];
    assert.equal(inFlight.length, 3);
    controller.abort();
    await settle();
    assert.ok(inFlight.every((call) => call.signal.aborted));
    assert.deepEqual(run.summary(), { done: 1, failed: 0, cancelled: 9, attempts: 4 });
    // Late answers are ignored; nothing else starts.
    for (const call of inFlight) call.reject(new Error('aborted'));
    await run.clock.advance(60_000);
    assert.equal(run.calls.length, 4);
    assert.equal(run.results.length, 1);
  });

  it('cancelling during a Retry-After pause clears its timer', async () => {
    const controller = new AbortController();
    const run = harness(4, { signal: controller.signal });
    await settle();
    run.calls[0]!.reject(httpError(429, 30_000));
    await settle();
    assert.equal(run.clock.pending(), 1);
    controller.abort();
    await settle();
    assert.equal(run.clock.pending(), 0);
    assert.equal(run.summary()!.cancelled, 4);
  });

  it('a run cancelled before it starts asks nothing', async () => {
    const summary = await runEvaluations({ items: [1, 2], signal: AbortSignal.abort(), ask: () => assert.fail('asked'), onResult: () => undefined });
    assert.deepEqual(summary, { done: 0, failed: 0, cancelled: 2, attempts: 0 });
  });

  it('clamps the concurrency to [1, maxConcurrency]', async () => {
    const wide = harness(100, { concurrency: 1_000 });
    await settle();
    assert.equal(wide.open.size, evalLimits.maxConcurrency);
    const narrow = harness(5, { concurrency: 0 });
    await settle();
    assert.equal(narrow.open.size, 1);
  });

  it('an empty list settles at once', async () => {
    assert.deepEqual(await runEvaluations({ items: [], ask: () => assert.fail('asked'), onResult: () => undefined }), { done: 0, failed: 0, cancelled: 0, attempts: 0 });
  });
});

describe('evaluation scheduler throughput (fake time)', () => {
  it('answers 1,000 samples × 5 checkpoints at concurrency 8 within 0.9 of the ideal time', async () => {
    const clock = new FakeClock();
    const items = Array.from({ length: 5_000 }, (_, at) => at);
    // Latencies from 50 to 150 ms, spread deterministically.
    const latency = (item: number): number => 50 + ((item * 7919) % 101);
    const ideal = items.reduce((sum, item) => sum + latency(item), 0) / 8;
    let inFlight = 0;
    let peak = 0;
    let results = 0;
    const start = clock.now();
    let finished = false;
    let end = 0;
    const done = runEvaluations({
      items,
      concurrency: 8,
      clock,
      ask: (item) => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        return new Promise<number>((resolve) =>
          clock.setTimeout(() => {
            inFlight--;
            resolve(item);
          }, latency(item)),
        );
      },
      onResult: () => results++,
    }).then((summary) => {
      // The last answer's timer set the clock: this is when the run ended.
      end = clock.now();
      finished = true;
      return summary;
    });
    while (!finished) await clock.advance(1_000);
    const summary = await done;
    assert.equal(summary.done, 5_000);
    assert.equal(results, 5_000);
    assert.equal(peak, 8);
    const elapsed = end - start;
    assert.ok(elapsed >= ideal);
    assert.ok(ideal / elapsed >= 0.9, `ideal ${ideal} ms, took ${elapsed} ms`);
  });
});
