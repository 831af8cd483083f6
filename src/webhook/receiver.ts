import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signatureHeader, verifySignature } from './signature';

/** Whether a received request's X-Service-Signature matches the secret the receiver was given. */
export type SignatureVerdict = 'valid' | 'invalid' | 'missing' | 'not-checked';

export interface ReceivedRequest {
  /** 1, 2, 3... in arrival order. */
  sequence: number;
  receivedAt: number;
  method: string;
  path: string;
  headers: Record<string, string | string[]>;
  body: Uint8Array;
  /** The body decoded as UTF-8. */
  bodyText: string;
  signature: SignatureVerdict;
  /** The body exceeded the limit and was cut; the signature is then not checked. */
  truncated: boolean;
}

export interface ReceiverOptions {
  /** Port on 127.0.0.1; 0 (default) picks a free one. */
  port?: number;
  /** The secret signatures are checked against; without one, they are not checked. */
  secret?: string;
  /** Largest body kept, in bytes (default 5 MB). */
  maxBodyBytes?: number;
  /** How many requests are remembered, newest kept (default 200). */
  keep?: number;
}

export interface LocalReceiver {
  /** http://127.0.0.1:<port>/ */
  readonly url: string;
  readonly port: number;
  /** Requests received so far, oldest first. */
  readonly requests: readonly ReceivedRequest[];
  setSecret(secret: string | undefined): void;
  /** Calls the listener for every request; returns a function that stops calling it. */
  onRequest(listener: (request: ReceivedRequest) => void): () => void;
  close(): Promise<void>;
}

/**
 * A webhook endpoint on this machine, so a payload can be tested end to end without any outside
 * service: it records each request and answers 200 with the signature verdict.
 */
export async function startReceiver(options: ReceiverOptions = {}): Promise<LocalReceiver> {
  let secret = options.secret;
  const maxBodyBytes = options.maxBodyBytes ?? 5 * 1024 * 1024;
  const keep = options.keep ?? 200;
  const requests: ReceivedRequest[] = [];
  const listeners = new Set<(request: ReceivedRequest) => void>();
  let sequence = 0;

  const handle = async (incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> => {
    const { body, truncated } = await readBody(incoming, maxBodyBytes);
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(incoming.headers)) if (value !== undefined) headers[name] = value;
    const given = incoming.headers[signatureHeader.toLowerCase()];
    let signature: SignatureVerdict = 'not-checked';
    if (secret !== undefined && secret !== '' && !truncated) {
      if (typeof given !== 'string' || given === '') signature = 'missing';
      else signature = verifySignature(secret, body, given) ? 'valid' : 'invalid';
    }
    const request: ReceivedRequest = {
      sequence: ++sequence,
      receivedAt: Date.now(),
      method: incoming.method ?? 'GET',
      path: incoming.url ?? '/',
      headers,
      body,
      bodyText: new TextDecoder('utf-8', { fatal: false }).decode(body),
      signature,
      truncated,
    };
    requests.push(request);
    if (requests.length > keep) requests.splice(0, requests.length - keep);
    for (const listener of listeners) {
      try {
        listener(request);
      } catch {
        // A display problem must not break the endpoint.
      }
    }
    const answer = JSON.stringify({ received: true, sequence: request.sequence, signature, bytes: body.byteLength });
    outgoing.writeHead(truncated ? 413 : 200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(answer) });
    outgoing.end(answer);
  };

  const server: Server = createServer((incoming, outgoing) => {
    handle(incoming, outgoing).catch(() => {
      if (!outgoing.headersSent) outgoing.writeHead(400);
      outgoing.end();
    });
  });
  // Keep-alive sockets from the sender would otherwise hold close() open.
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    requests,
    setSecret: (value) => {
      secret = value;
    },
    onRequest: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: () =>
      new Promise<void>((resolve) => {
        listeners.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function readBody(incoming: IncomingMessage, limit: number): Promise<{ body: Uint8Array; truncated: boolean }> {
  const parts: Buffer[] = [];
  let total = 0;
  let truncated = false;
  for await (const chunk of incoming as AsyncIterable<Buffer>) {
    if (truncated) continue;
    const room = limit - total;
    if (chunk.byteLength > room) {
      parts.push(chunk.subarray(0, room));
      total += room;
      truncated = true;
      continue;
    }
    parts.push(chunk);
    total += chunk.byteLength;
  }
  return { body: Buffer.concat(parts, total), truncated };
}
