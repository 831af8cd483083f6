/**
 * Takes every read of a response body as soon as it arrives and hands them out in batches.
 *
 * Why not iterate the body stream directly: when the connection drops, undici destroys the body
 * with an error, and a destroyed Node stream throws away what it had buffered but not yet handed
 * out. A slow reader (a chat view rendering Markdown) would then lose the last chunks the server
 * did send. Keeping the body flowing into this queue means every byte received is kept, and the
 * failure is reported only after them. Chat answers are small, so holding them costs little.
 */
import type { Readable } from 'node:stream';

export class BodyReads {
  private pending: Uint8Array[] = [];
  private ended = false;
  private failed = false;
  private failure: unknown;
  private wake: (() => void) | undefined;

  constructor(body: Readable) {
    body.on('data', (read: Uint8Array) => {
      this.pending.push(read);
      this.notify();
    });
    body.once('end', () => {
      this.ended = true;
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
        return reads;
      }
      if (this.failed) throw this.failure;
      if (this.ended) return null;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
  }

  private fail(error: unknown): void {
    if (this.failed) return;
    this.failed = true;
    this.failure = error;
    this.notify();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
