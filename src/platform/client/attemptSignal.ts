/**
 * The signal of one attempt of a call: aborted when the caller's signal is (Stop, a closed view),
 * or when the attempt's deadline passes.
 *
 * The deadline is one timer on the whole attempt, from sending the request to the last byte of the
 * answer. undici's own headersTimeout and bodyTimeout only measure the gaps between reads, so a
 * server that drips one byte every 250 ms would never trip a 1 s timeout with them alone.
 *
 * The signal handed to undici is an AttemptAbort, an EventEmitter, not an AbortSignal: undici takes
 * either, and a new AbortSignal with undici's listener on it costs several microseconds per attempt
 * (a call to a nearby server takes a few hundred in all), an EventEmitter a fraction of one.
 */
import { EventEmitter } from 'node:events';

/** What undici reads of an abort signal: `aborted`, `reason`, and one 'abort' event. */
export class AttemptAbort extends EventEmitter {
  aborted = false;
  reason: unknown = undefined;

  /** Aborts once: later calls keep the first reason. */
  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.emit('abort');
  }
}

export class AttemptSignal {
  private readonly abort = new AttemptAbort();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private expired = false;
  private listening = false;

  constructor(
    private readonly callerSignal: AbortSignal | undefined,
    deadlineMs: number,
  ) {
    if (callerSignal?.aborted) this.onCallerAbort();
    else if (callerSignal) {
      callerSignal.addEventListener('abort', this.onCallerAbort, { once: true });
      this.listening = true;
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.expired = true;
      this.abort.abort(new AttemptDeadlineError(deadlineMs));
    }, deadlineMs);
  }

  /** For undici's `signal` option. */
  get signal(): AttemptAbort {
    return this.abort;
  }

  /** The deadline passed (and aborted the attempt) before release. */
  get timedOut(): boolean {
    return this.expired;
  }

  /** Ends the deadline and lets go of the caller's signal: call once the attempt is over. */
  release(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.listening) this.callerSignal?.removeEventListener('abort', this.onCallerAbort);
    this.listening = false;
  }

  private readonly onCallerAbort = (): void => {
    this.listening = false;
    this.abort.abort(this.callerSignal?.reason);
  };
}

/** The reason an attempt's signal carries when its deadline aborted it. */
export class AttemptDeadlineError extends Error {
  constructor(readonly deadlineMs: number) {
    super(`the attempt did not finish within ${deadlineMs} ms`);
    this.name = 'AttemptDeadlineError';
  }
}
