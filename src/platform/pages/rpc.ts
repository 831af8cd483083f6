import { parseWireMessage, ProtocolError, type MethodMap, type WireMessage } from './wire';
import { errorMessage } from '../client/errorMessage';

export type Handlers<M extends MethodMap> = {
  [K in keyof M]: (params: unknown) => Promise<M[K]['result']> | M[K]['result'];
};

export interface RpcEndpointOptions<Incoming extends MethodMap, InEvent> {
  post(message: WireMessage): void;
  handlers: Handlers<Incoming>;
  onEvent?(event: InEvent): void;
  /** Default limit for outgoing requests without their own; undefined waits forever. */
  timeoutMs?: number;
  /** Reports messages that were not understood (a bug on the other side, or hostile input). */
  onProtocolError?(problem: string): void;
  /**
   * Incoming requests handled at once; more are answered at once with a 'too-many-requests' error.
   * Bounds the work a flood of requests can start (default 32: a person never has that many going).
   */
  maxConcurrentIncoming?: number;
}

export class RpcError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer?: ReturnType<typeof setTimeout>;
}

/**
 * One side of the request/reply channel. Outgoing requests get increasing ids and are settled by
 * the reply with the same id, or rejected when the reply is an error, when they time out, or when
 * the endpoint is disposed (the webview went away). Incoming requests are dispatched to the handler
 * of that name (own properties only, so '__proto__' or 'constructor' never resolve to anything) and
 * always answered, with the handler's error message when it throws; only so many are handled at
 * once, the rest refused with an error reply.
 */
export class RpcEndpoint<Outgoing extends MethodMap, Incoming extends MethodMap, OutEvent, InEvent> {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private disposed = false;
  private incoming = 0;

  constructor(private readonly options: RpcEndpointOptions<Incoming, InEvent>) {}

  request<K extends keyof Outgoing & string>(method: K, params: Outgoing[K]['params'], timeoutMs = this.options.timeoutMs): Promise<Outgoing[K]['result']> {
    if (this.disposed) return Promise.reject(new RpcError('the channel is closed', 'closed'));
    const id = this.nextId++;
    return new Promise<Outgoing[K]['result']>((resolve, reject) => {
      const entry: Pending = { resolve: resolve as (value: unknown) => void, reject };
      if (timeoutMs !== undefined) {
        entry.timer = setTimeout(() => {
          this.pending.delete(id);
          reject(new RpcError(`${method} got no reply within ${timeoutMs} ms`, 'timeout'));
        }, timeoutMs);
      }
      this.pending.set(id, entry);
      try {
        this.options.post({ kind: 'request', id, method, params });
      } catch (error) {
        this.settle(id);
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }

  emit(event: OutEvent): void {
    if (this.disposed) return;
    this.options.post({ kind: 'event', event });
  }

  /** Feeds one message from the other side. */
  receive(raw: unknown): void {
    if (this.disposed) return;
    const message = parseWireMessage(raw);
    if (!message) {
      this.options.onProtocolError?.('a message that is not part of the protocol was ignored');
      return;
    }
    if (message.kind === 'event') {
      this.options.onEvent?.(message.event as InEvent);
      return;
    }
    if (message.kind === 'reply') {
      const entry = this.settle(message.id);
      if (!entry) {
        this.options.onProtocolError?.(`a reply to unknown request ${message.id} was ignored`);
        return;
      }
      if (message.ok) entry.resolve(message.result);
      else entry.reject(new RpcError(message.error.message, message.error.code));
      return;
    }
    void this.answer(message.id, message.method, message.params);
  }

  /** Rejects every request still waiting: their replies can no longer come. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const [id, entry] of [...this.pending]) {
      this.settle(id);
      entry.reject(new RpcError('the channel closed before the reply came', 'closed'));
    }
  }

  get pendingCount(): number {
    return this.pending.size;
  }

  private settle(id: number): Pending | undefined {
    const entry = this.pending.get(id);
    if (!entry) return undefined;
    this.pending.delete(id);
    if (entry.timer !== undefined) clearTimeout(entry.timer);
    return entry;
  }

  private async answer(id: number, method: string, params: unknown): Promise<void> {
    const handlers = this.options.handlers as Record<string, (params: unknown) => unknown>;
    if (!Object.prototype.hasOwnProperty.call(handlers, method) || typeof handlers[method] !== 'function') {
      this.reply({ kind: 'reply', id, ok: false, error: { message: `unknown method ${JSON.stringify(method.slice(0, 60))}`, code: 'unknown-method' } });
      return;
    }
    if (this.incoming >= (this.options.maxConcurrentIncoming ?? 32)) {
      this.reply({ kind: 'reply', id, ok: false, error: { message: 'too many requests at once: try again when the others are done', code: 'too-many-requests' } });
      return;
    }
    this.incoming++;
    try {
      const result = await handlers[method]!(params);
      this.reply({ kind: 'reply', id, ok: true, result: result === undefined ? null : result });
    } catch (error) {
      const code = error instanceof ProtocolError || error instanceof RpcError ? error.code : undefined;
      const message = errorMessage(error);
      this.reply({ kind: 'reply', id, ok: false, error: code ? { message, code } : { message } });
    } finally {
      this.incoming--;
    }
  }

  private reply(message: WireMessage): void {
    if (this.disposed) return;
    this.options.post(message);
  }
}
