/**
 * The connection pools of one client: an undici Agent (one keep-alive pool per origin, so the
 * training and inference APIs each reuse their sockets), created on the first request. undici is
 * bundled into dist/network.js, which the extension loads on first use.
 */
import type { Dispatcher } from 'undici';
import { Agent } from './undiciAgent';

export interface TransportOptions {
  connectTimeoutMs: number;
  /** How long an idle socket is kept for the next request. */
  keepAliveTimeoutMs?: number;
  /** Open sockets per origin at most; more requests wait for a free one. Default 16. */
  connectionsPerOrigin?: number;
}

export type TransportRequest = Dispatcher.RequestOptions<null> & { origin: string };
export type TransportResponse = Dispatcher.ResponseData<null>;

export class Transport {
  private dispatcher: Dispatcher | undefined;
  private destroyed = false;

  constructor(private readonly options: TransportOptions) {}

  request(request: TransportRequest): Promise<TransportResponse> {
    if (this.destroyed) return Promise.reject(new Error('the client was shut down'));
    return this.agent().request(request);
  }

  /**
   * Aborts every request in flight, closes every socket at once and refuses later requests (a retry
   * included): for shutting down, where close() would wait for slow answers.
   */
  async destroy(): Promise<void> {
    this.destroyed = true;
    const dispatcher = this.dispatcher;
    this.dispatcher = undefined;
    if (dispatcher) await dispatcher.destroy();
  }

  /** Closes every pool; a later request opens new ones. */
  async close(): Promise<void> {
    const dispatcher = this.dispatcher;
    this.dispatcher = undefined;
    if (dispatcher) await dispatcher.close();
  }

  private agent(): Dispatcher {
    if (!this.dispatcher) {
      this.dispatcher = new Agent({
        connect: { timeout: this.options.connectTimeoutMs },
        keepAliveTimeout: this.options.keepAliveTimeoutMs ?? 10_000,
        // Without a cap, a burst of calls (a view refreshing many nodes, a retry storm) opens one
        // socket per request. 16 keeps a chat stream, polling and a view's loads going in parallel.
        connections: this.options.connectionsPerOrigin ?? 16,
        // No pipelining: a slow answer (a stream) must not hold up the requests queued behind it
        // on the same socket, and a non-idempotent POST must never be replayed after a reset.
        pipelining: 1,
      });
    }
    return this.dispatcher;
  }
}
