/**
 * Runs regular expressions where a runaway one can be stopped. A pattern like `(a+)+$` takes
 * exponential time on a 30-character answer, and no cap on the answer's length prevents that; on
 * the extension host it would freeze every extension. So tests run on a worker thread, a batch at a
 * time, and a batch that takes longer than `timeoutMs` ends the worker (V8 interrupts a running
 * regular expression) and scores as an error. The worker is started on first use and again after
 * one was ended; `dispose` ends it.
 */
import { Worker } from 'node:worker_threads';

export interface RegexTest {
  pattern: string;
  flags: string;
  text: string;
}

export const defaultRegexTimeoutMs = 2_000;
/** Tests in one batch (a schema with many patterns over many strings is refused past it). */
export const maxRegexTests = 1_000;

// Plain JavaScript, run with `eval`, so the worker needs no bundle of its own.
const workerSource = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', ({ id, tests }) => {
  try {
    parentPort.postMessage({ id, results: tests.map((test) => new RegExp(test.pattern, test.flags).test(test.text)) });
  } catch (error) {
    parentPort.postMessage({ id, error: String((error && error.message) || error) });
  }
});`;

interface Pending {
  id: number;
  resolve: (outcome: boolean[] | { error: string }) => void;
  timer: ReturnType<typeof setTimeout>;
}

export class RegexMatcher {
  private worker: Worker | undefined;
  private nextId = 1;
  private pending: Pending | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly timeoutMs = defaultRegexTimeoutMs) {}

  /** Whether each test matches, in order; or why not (a batch too long, too slow, a broken pattern). One batch runs at a time. */
  test(tests: readonly RegexTest[]): Promise<boolean[] | { error: string }> {
    if (tests.length === 0) return Promise.resolve([]);
    if (tests.length > maxRegexTests) return Promise.resolve({ error: `scoring needs ${tests.length} pattern tests, more than the ${maxRegexTests} run for one answer` });
    const run = this.queue.then(() => this.run(tests));
    this.queue = run.catch(() => undefined);
    return run;
  }

  dispose(): void {
    this.stop();
  }

  private run(tests: readonly RegexTest[]): Promise<boolean[] | { error: string }> {
    const worker = this.start();
    const id = this.nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.settle({ error: `the regular expression took longer than ${this.timeoutMs / 1000} s on this answer and was stopped` });
        this.stop();
      }, this.timeoutMs);
      this.pending = { id, resolve, timer };
      worker.postMessage({ id, tests });
    });
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(workerSource, { eval: true });
    worker.unref();
    worker.on('message', (message: { id: number; results?: boolean[]; error?: string }) => {
      const pending = this.pending;
      if (!pending || pending.id !== message.id) return;
      this.settle(message.results ?? { error: `the regular expression failed: ${message.error ?? 'unknown error'}` });
    });
    // A worker ended on purpose (`stop`) is no longer `this.worker`: its exit says nothing about the batch that runs now.
    worker.on('error', (error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.settle({ error: `the regular expression could not run: ${error.message}` });
    });
    worker.on('exit', () => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.settle({ error: 'the regular expression could not run: its worker stopped' });
    });
    this.worker = worker;
    return worker;
  }

  private settle(outcome: boolean[] | { error: string }): void {
    const pending = this.pending;
    if (!pending) return;
    this.pending = undefined;
    clearTimeout(pending.timer);
    pending.resolve(outcome);
  }

  private stop(): void {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) void worker.terminate();
  }
}
