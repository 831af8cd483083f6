/**
 * Writes a server-sent event stream. The training API ends lines with CRLF and the inference API
 * with LF, so that clients meet both.
 */
import type { ServerResponse } from 'node:http';

export class SseWriter {
  constructor(
    private readonly res: ServerResponse,
    private readonly lineEnd: '\r\n' | '\n',
  ) {}

  start(): void {
    this.res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    this.res.flushHeaders();
  }

  get gone(): boolean {
    return this.res.destroyed || this.res.writableEnded;
  }

  /** `flushed`: resolve only once the bytes reached the socket (before cutting the connection on purpose). */
  data(payload: string, flushed = false): Promise<void> {
    return this.write(`data: ${payload}${this.lineEnd}${this.lineEnd}`, flushed);
  }

  comment(text: string): Promise<void> {
    return this.write(`: ${text}${this.lineEnd}${this.lineEnd}`);
  }

  end(): void {
    if (!this.gone) this.res.end();
  }

  /** Writes and waits for the socket to drain when its buffer is full, so a slow reader slows us down. */
  private write(text: string, flushed = false): Promise<void> {
    if (this.gone) return Promise.resolve();
    if (flushed) return new Promise((resolve) => this.res.write(text, () => resolve()));
    if (this.res.write(text)) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.res.off('drain', done);
        this.res.off('close', done);
        resolve();
      };
      this.res.on('drain', done);
      this.res.on('close', done);
    });
  }
}
