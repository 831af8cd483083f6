/**
 * Takes every read of a response body as soon as it arrives and hands them out in batches.
 *
 * Why not iterate the body stream directly: when the connection drops, undici destroys the body
 * with an error, and a destroyed Node stream throws away what it had buffered but not yet handed
 * out. A slow reader (a chat view rendering Markdown) would then lose the last chunks the server
 * did send. Keeping the body flowing into this queue means every byte received is kept, and the
 * failure is reported only after them.
 *
 * The queue is bounded: past `highWaterBytes` waiting to be taken, the body is paused (undici then
 * stops reading the socket and TCP slows the server down) until the reader takes them. Only then
 * can a drop lose anything, and only what a reader that far behind had not seen yet.
 *
 * It also keeps the idle timer of a stream: no byte for `idleTimeoutMs` while the reader is waiting
 * for more fails the body. The timer does not run while the body is paused for the reader, since
 * the silence is then the reader's own doing.
 */
import type { Readable } from 'node:stream';
import { abandonBody } from './bodyLimits';

export interface BodyReadsOptions {
  /** Fail when no byte arrives for this long. Absent or 0: no idle limit. */
  idleTimeoutMs?: number;
  /** Pause the body while this many bytes wait to be taken. Default 1 MiB. */
  highWaterBytes?: number;
}

/** The failure of a body that sent nothing for the idle timeout. */
export class BodyIdleTimeoutError extends Error {
  constructor(readonly idleTimeoutMs: number) {
    super(`no byte arrived for ${idleTimeoutMs} ms`);
    this.name = 'BodyIdleTimeoutError';
  }
}

const defaultHighWaterBytes = 2 ** 20;

export class BodyReads {
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  private paused = false;
  private ended = false;
  private failed = false;
  private failure: unknown;
  private wake: (() => void) | undefined;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;
  private readonly highWaterBytes: number;
  private readonly idleTimeoutMs: number;

  constructor(
    private readonly body: Readable,
    options: BodyReadsOptions = {},
  ) {
    this.highWaterBytes = options.highWaterBytes && options.highWaterBytes > 0 ? options.highWaterBytes : defaultHighWaterBytes;
    this.idleTimeoutMs = options.idleTimeoutMs && options.idleTimeoutMs > 0 ? options.idleTimeoutMs : 0;
    this.startIdleTimer();
    body.on('data', (read: Uint8Array) => {
      this.pending.push(read);
      this.pendingBytes += read.byteLength;
      if (this.pendingBytes >= this.highWaterBytes && !this.paused) {
        this.paused = true;
        body.pause();
        this.stopIdleTimer();
      } else {
        this.idleTimer?.refresh();
      }
      this.notify();
    });
    body.once('end', () => {
      this.ended = true;
      this.stop();
      this.notify();
    });
    body.once('error', (error: unknown) => {
      this.fail(error);
    });
    body.once('close', () => {
      if (!this.ended) this.fail(new Error('the response body was closed before its end'));
    });
  }

  /**
   * Every read that arrived since the last call, waiting for at least one; null once the body has
   * ended. Throws the body's failure, but only after every read that came before it was taken.
   */
  async next(): Promise<Uint8Array[] | null> {
    for (;;) {
      if (this.pending.length > 0) {
        const reads = this.pending;
        this.pending = [];
        this.pendingBytes = 0;
        if (this.paused && !this.failed) {
          this.paused = false;
          this.startIdleTimer();
          this.body.resume();
        }
        return reads;
      }
      if (this.failed) throw this.failure;
      if (this.ended) return null;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
  }

  /** Stops the idle timer for good: the reader is done with the body, whatever state it is in. */
  stop(): void {
    this.stopped = true;
    this.stopIdleTimer();
  }

  private startIdleTimer(): void {
    if (this.idleTimeoutMs === 0 || this.stopped || this.idleTimer !== undefined) return;
    const idleTimeoutMs = this.idleTimeoutMs;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      this.fail(new BodyIdleTimeoutError(idleTimeoutMs));
      abandonBody(this.body);
    }, idleTimeoutMs);
  }

  private stopIdleTimer(): void {
    if (this.idleTimer !== undefined) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }

  private fail(error: unknown): void {
    if (this.failed) return;
    this.failed = true;
    this.failure = error;
    this.stop();
    this.notify();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
