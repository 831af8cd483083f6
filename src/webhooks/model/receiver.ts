import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { hookPrefix, judgeRequest, pathUnderToken, refusalReasons, type RefusalReason } from './receiverRules';
import { signatureHeader, verifySignature } from './signature';

/** Whether a received request's X-Service-Signature matches the secret the receiver was given. */
export type SignatureVerdict = 'valid' | 'invalid' | 'missing' | 'not-checked';

export interface ReceivedRequest {
  /** 1, 2, 3... in arrival order. */
  sequence: number;
  receivedAt: number;
  method: string;
  /** The path after the receiver's own `/hook/<token>` prefix, with its query: `/` at least. */
  path: string;
  headers: Record<string, string | string[]>;
  body: Uint8Array;
  /** The body decoded as UTF-8 (decoded when read, so a kept body is not held twice). */
  readonly bodyText: string;
  signature: SignatureVerdict;
}

export interface Refusal {
  reason: RefusalReason;
  /** The status answered; absent when the connection was closed without an answer. */
  status?: number;
  at: number;
}

/**
 * The limits of the receiver. It listens on the user's machine for a test sender; anything past
 * these numbers is a page or a program trying to use it, not a webhook.
 */
export const receiverLimits = {
  /**
   * Largest request body accepted. Webhook payloads are JSON documents of a few KiB; 1 MiB leaves
   * room for an unusually large one, and no sender can make the receiver hold more per request.
   */
  maxBodyBytes: 1024 * 1024,
  /** Bodies and headers kept for display, all kept requests together; the oldest go first. */
  maxKeptBytes: 16 * 1024 * 1024,
  /** Requests kept for display; the oldest go first. */
  maxKeptRequests: 100,
  /**
   * Open connections at once; more are closed as they arrive. With maxBodyBytes this also bounds
   * the bodies being read at any moment (32 MiB), and a few senders never need more.
   */
  maxConnections: 32,
  /** Time from connecting to the end of the headers: cuts clients that trickle headers (slowloris). */
  headersTimeoutMs: 3_000,
  /** Time for a whole request, body included: cuts clients that trickle a body. */
  requestTimeoutMs: 5_000,
  /** An idle kept-alive connection is closed after this. */
  keepAliveTimeoutMs: 2_000,
  /** Node checks the two timeouts above on this interval (its default, 30 s, would let them overrun). */
  timeoutCheckIntervalMs: 500,
  /**
   * After refusing a request, how long and how much of what the sender already sent is read and
   * discarded while it reads the answer (see refuse in startReceiver).
   */
  lingerMs: 500,
  lingerBytes: 64 * 1024,
  /** Requests one connection may make before it is closed. */
  maxRequestsPerConnection: 100,
} as const;

export interface ReceiverOptions {
  /** Port on 127.0.0.1; 0 (default) picks a free one. */
  port?: number;
  /** The secret signatures are checked against; without one, they are not checked. */
  secret?: string;
  /** Smaller limits for tests; the defaults are receiverLimits. */
  maxBodyBytes?: number;
  maxKeptBytes?: number;
  maxKeptRequests?: number;
}

export interface ReceiverStats {
  /** Requests kept now, and their size (bodies and headers). */
  kept: number;
  keptBytes: number;
  /** Requests dropped from the kept list to stay within its limits, oldest first. */
  dropped: number;
  refused: Record<RefusalReason, number>;
  /** Every byte read from the network so far, headers included, over all connections. */
  bytesRead: number;
  /** Connections open now. */
  openConnections: number;
}

export interface LocalReceiver {
  /** The address to send webhooks to: http://127.0.0.1:<port>/hook/<token>/ */
  readonly url: string;
  readonly port: number;
  /** Requests kept, oldest first (at most maxKeptRequests, at most maxKeptBytes). */
  readonly requests: readonly ReceivedRequest[];
  setSecret(secret: string | undefined): void;
  /** Values a display of this receiver's requests must mask: its path token and its secret. */
  secretsToMask(): string[];
  stats(): ReceiverStats;
  /** Calls the listener for every kept request; returns a function that stops calling it. */
  onRequest(listener: (request: ReceivedRequest) => void): () => void;
  /** Calls the listener for every refused request or connection. */
  onRefused(listener: (refusal: Refusal) => void): () => void;
  /** Stops listening and closes every open connection. */
  close(): Promise<void>;
}

/**
 * A webhook endpoint on this machine, so a payload can be tested end to end without any outside
 * service: it records each request and answers 200 with the signature verdict.
 *
 * Only a program on this machine that knows the URL can use it: it listens on 127.0.0.1, answers
 * only under a random path, only to requests addressed to its own loopback host (a web page that
 * rebinds its DNS name to 127.0.0.1 still sends its own name) and never to a browser (browsers add
 * Origin to every POST; webhook senders do not).
 */
export async function startReceiver(options: ReceiverOptions = {}): Promise<LocalReceiver> {
  let secret = options.secret;
  const maxBodyBytes = options.maxBodyBytes ?? receiverLimits.maxBodyBytes;
  const maxKeptBytes = options.maxKeptBytes ?? receiverLimits.maxKeptBytes;
  const maxKeptRequests = options.maxKeptRequests ?? receiverLimits.maxKeptRequests;
  const token = randomBytes(16).toString('hex');
  const requests: ReceivedRequest[] = [];
  const sizes = new WeakMap<ReceivedRequest, number>();
  const requestListeners = new Set<(request: ReceivedRequest) => void>();
  const refusalListeners = new Set<(refusal: Refusal) => void>();
  const refused = Object.fromEntries(refusalReasons.map((reason) => [reason, 0])) as Record<RefusalReason, number>;
  const sockets = new Set<Socket>();
  let sequence = 0;
  let keptBytes = 0;
  let dropped = 0;
  let bytesReadClosed = 0;
  let port = 0;

  const notify = <T>(listeners: Set<(value: T) => void>, value: T): void => {
    for (const listener of listeners) {
      try {
        listener(value);
      } catch {
        // A display problem must not break the endpoint.
      }
    }
  };

  const countRefusal = (reason: RefusalReason, status?: number): void => {
    refused[reason]++;
    notify(refusalListeners, { reason, status, at: Date.now() });
  };

  /**
   * Answers and closes the connection. Destroying the socket the moment the answer is written would
   * lose the answer: with the sender's bytes still unread, the kernel resets the connection and the
   * sender drops what it had not read yet (300 oversized posts lost about half their 413s that way).
   * So the connection is half-closed: the sender reads the answer and the end of the stream, and
   * stops. Meanwhile what it had already sent is discarded, up to lingerBytes (so a sender that
   * closes is noticed at once); past that, reading stops. After lingerMs the socket is destroyed.
   */
  const refuse = (incoming: IncomingMessage, outgoing: ServerResponse, status: number, reason: RefusalReason, extra: Record<string, string> = {}): void => {
    countRefusal(reason, status);
    const socket = incoming.socket as Socket & { destroySoon?: () => void };
    // Read and discard, never keep. Consuming here also stops Node from draining the whole body.
    let discarded = 0;
    incoming.on('data', (chunk: Buffer) => {
      discarded += chunk.byteLength;
      if (discarded > receiverLimits.lingerBytes) incoming.pause();
    });
    incoming.resume();
    let closing = false;
    const closeLingering = (): void => {
      if (closing) return;
      closing = true;
      socket.end();
      const linger = setTimeout(() => socket.destroy(), receiverLimits.lingerMs);
      linger.unref();
      socket.once('close', () => clearTimeout(linger));
    };
    // Node ends a "Connection: close" answer with socket.destroySoon(), which destroys the socket as
    // soon as the answer is written: this connection closes lingering instead.
    socket.destroySoon = closeLingering;
    const answer = JSON.stringify({ received: false, reason });
    outgoing.writeHead(status, { ...extra, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(answer), Connection: 'close' });
    outgoing.end(answer, closeLingering);
  };

  const keep = (request: ReceivedRequest, size: number): void => {
    requests.push(request);
    sizes.set(request, size);
    keptBytes += size;
    // The newest request stays even alone over the byte budget (possible only with test limits).
    while (requests.length > maxKeptRequests || (keptBytes > maxKeptBytes && requests.length > 1)) {
      const oldest = requests.shift()!;
      keptBytes -= sizes.get(oldest) ?? 0;
      dropped++;
    }
  };

  const handle = (incoming: IncomingMessage, outgoing: ServerResponse): void => {
    // A request pipelined behind a refused one, on a connection already closing.
    if (incoming.socket.writableEnded) {
      incoming.socket.destroy();
      return;
    }
    const refusal = judgeRequest(incoming, { port, token, maxBodyBytes });
    if (refusal) {
      refuse(incoming, outgoing, refusal.status, refusal.reason, refusal.headers);
      return;
    }
    if (incoming.method !== 'POST') {
      // GET and HEAD: a sender checking that the address answers. Nothing is kept.
      const answer = JSON.stringify({ receiving: true, accepts: 'POST' });
      outgoing.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(answer) });
      outgoing.end(answer);
      incoming.resume();
      return;
    }
    readBodyWithin(incoming, maxBodyBytes)
      .then((body) => {
        if (body === 'too-large') {
          refuse(incoming, outgoing, 413, 'too-large');
          return;
        }
        if (body === 'aborted') return;
        const headers: Record<string, string | string[]> = {};
        let headerBytes = 0;
        for (const [name, value] of Object.entries(incoming.headers)) {
          if (value === undefined) continue;
          headers[name] = value;
          headerBytes += name.length + (Array.isArray(value) ? value.join('').length : value.length);
        }
        const given = incoming.headers[signatureHeader.toLowerCase()];
        let signature: SignatureVerdict = 'not-checked';
        if (secret !== undefined && secret !== '') {
          if (typeof given !== 'string' || given === '') signature = 'missing';
          else signature = verifySignature(secret, body, given) ? 'valid' : 'invalid';
        }
        const request = receivedRequest({
          sequence: ++sequence,
          receivedAt: Date.now(),
          method: 'POST',
          path: pathUnderToken(incoming.url ?? '', token) ?? '/',
          headers,
          body,
          signature,
        });
        keep(request, body.byteLength + headerBytes);
        notify(requestListeners, request);
        const answer = JSON.stringify({ received: true, sequence: request.sequence, signature, bytes: body.byteLength });
        outgoing.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(answer) });
        outgoing.end(answer);
      })
      .catch(() => incoming.socket.destroy());
  };

  const server: Server = createServer(
    {
      headersTimeout: receiverLimits.headersTimeoutMs,
      requestTimeout: receiverLimits.requestTimeoutMs,
      connectionsCheckingInterval: receiverLimits.timeoutCheckIntervalMs,
      requireHostHeader: false, // a missing Host is refused by judgeRequest, counted like a foreign one
    },
    handle,
  );
  // "Expect: 100-continue": judge the headers before inviting the body, so a refused sender never sends it.
  server.on('checkContinue', (incoming: IncomingMessage, outgoing: ServerResponse) => {
    if (!judgeRequest(incoming, { port, token, maxBodyBytes })) outgoing.writeContinue();
    handle(incoming, outgoing);
  });
  server.keepAliveTimeout = receiverLimits.keepAliveTimeoutMs;
  server.maxConnections = receiverLimits.maxConnections;
  server.maxRequestsPerSocket = receiverLimits.maxRequestsPerConnection;
  server.on('drop', () => countRefusal('too-many-connections'));
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => {
      sockets.delete(socket);
      bytesReadClosed += socket.bytesRead;
    });
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    // A sender that went away, or a refused connection already closing: nothing new to count.
    if (error.code === 'ECONNRESET' || socket.writableEnded) {
      socket.destroy();
      return;
    }
    const slow = error.code === 'ERR_HTTP_REQUEST_TIMEOUT';
    const tooBig = error.code === 'HPE_HEADER_OVERFLOW';
    const status = slow ? 408 : tooBig ? 431 : 400;
    countRefusal(slow ? 'too-slow' : 'malformed', status);
    // As Node's own handler: answer only when nothing was written yet, then close.
    if (socket.writable && socket.bytesWritten === 0) {
      socket.end(`HTTP/1.1 ${status} ${slow ? 'Request Timeout' : tooBig ? 'Request Header Fields Too Large' : 'Bad Request'}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    }
    socket.destroy();
  });

  await new Promise<void>((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException): void => {
      reject(error.code === 'EADDRINUSE' ? new Error(`Port ${options.port} on 127.0.0.1 is already in use: choose another port, or 0 for a free one.`) : error);
    };
    server.once('error', failed);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', failed);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}${hookPrefix}${token}/`,
    port,
    requests,
    setSecret: (value) => {
      secret = value;
    },
    secretsToMask: () => (secret ? [token, secret] : [token]),
    stats: () => ({
      kept: requests.length,
      keptBytes,
      dropped,
      refused: { ...refused },
      bytesRead: bytesReadClosed + [...sockets].reduce((sum, socket) => sum + socket.bytesRead, 0),
      openConnections: sockets.size,
    }),
    onRequest: (listener) => {
      requestListeners.add(listener);
      return () => requestListeners.delete(listener);
    },
    onRefused: (listener) => {
      refusalListeners.add(listener);
      return () => refusalListeners.delete(listener);
    },
    close: async () => {
      requestListeners.clear();
      refusalListeners.clear();
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      // Resolves when every connection has closed, each one's bytes counted.
      const open = [...sockets].map((socket) => new Promise<void>((resolve) => socket.once('close', () => resolve())));
      server.closeAllConnections();
      // Connections the HTTP layer no longer tracks (a refused one, lingering) go too.
      for (const socket of sockets) socket.destroy();
      await Promise.all([stopped, ...open]);
    },
  };
}

/** Reads a body of at most `limit` bytes; stops at the first chunk over it. */
function readBodyWithin(incoming: IncomingMessage, limit: number): Promise<Buffer | 'too-large' | 'aborted'> {
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    let total = 0;
    const finish = (result: Buffer | 'too-large' | 'aborted'): void => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('close', onClose);
      incoming.off('error', onClose);
      resolve(result);
    };
    const onData = (chunk: Buffer): void => {
      total += chunk.byteLength;
      if (total > limit) {
        parts.length = 0;
        incoming.pause();
        finish('too-large');
        return;
      }
      parts.push(chunk);
    };
    const onEnd = (): void => finish(Buffer.concat(parts, total));
    const onClose = (): void => finish('aborted');
    incoming.on('data', onData);
    incoming.once('end', onEnd);
    incoming.once('close', onClose);
    incoming.once('error', onClose);
  });
}

function receivedRequest(fields: Omit<ReceivedRequest, 'bodyText'>): ReceivedRequest {
  return Object.defineProperty({ ...fields }, 'bodyText', {
    enumerable: true,
    get(this: ReceivedRequest) {
      return new TextDecoder('utf-8', { fatal: false }).decode(this.body);
    },
  }) as ReceivedRequest;
}
