/**
 * The signal of one attempt of a call: aborted when the caller's signal is (Stop, a closed view),
 * or when the attempt's deadline passes.
 *
 * The deadline is one timer on the whole attempt, from sending the request to the last byte of the
 * answer. undici's own headersTimeout and bodyTimeout only measure the gaps between reads, so a
 * server that drips one byte every 250 ms would never trip a 1 s timeout with them alone.
 */
export class AttemptSignal {
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private expired = false;
  private readonly onCallerAbort = () => this.controller.abort(this.callerSignal?.reason);

  constructor(
    private readonly callerSignal: AbortSignal | undefined,
    deadlineMs: number,
  ) {
    if (callerSignal?.aborted) this.onCallerAbort();
    else callerSignal?.addEventListener('abort', this.onCallerAbort, { once: true });
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.expired = true;
      this.controller.abort(new AttemptDeadlineError(deadlineMs));
    }, deadlineMs);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The deadline passed (and aborted the attempt) before release. */
  get timedOut(): boolean {
    return this.expired;
  }

  /** Ends the deadline and lets go of the caller's signal: call once the attempt is over. */
  release(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.callerSignal?.removeEventListener('abort', this.onCallerAbort);
  }
}

/** The reason an attempt's signal carries when its deadline aborted it. */
export class AttemptDeadlineError extends Error {
  constructor(readonly deadlineMs: number) {
    super(`the attempt did not finish within ${deadlineMs} ms`);
    this.name = 'AttemptDeadlineError';
  }
}
