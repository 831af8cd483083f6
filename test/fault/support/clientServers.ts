/**
 * Hostile servers for the client fault cases: raw node:http servers on 127.0.0.1 that record what
 * they received and how far they got writing, and write huge answers lazily (only as fast as the
 * client reads), so a 2 GB answer costs the test nothing unless the client really reads it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { watchConnections } from '../../support/connections';
import { measure, type Measurement } from './measure';

export interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  /** performance.now() when the request arrived. */
  at: number;
}

export interface HostileServer {
  /** http://127.0.0.1:port */
  origin: string;
  /** origin + '/v1', for trainingUrl and inferenceUrl. */
  apiUrl: string;
  received: Received[];
  /** Sockets open at once, at most, over the server's life. */
  maxOpenSockets: number;
  close(): Promise<void>;
}

export type Handler = (request: IncomingMessage, response: ServerResponse) => void | Promise<void>;

export async function startServer(handler: Handler): Promise<HostileServer> {
  const sockets = new Set<Socket>();
  const state: HostileServer = {
    origin: '',
    apiUrl: '',
    received: [],
    maxOpenSockets: 0,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server: Server = createServer((request, response) => {
    state.received.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, at: performance.now() });
    request.resume();
    void Promise.resolve(handler(request, response)).catch(() => response.destroy());
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    state.maxOpenSockets = Math.max(state.maxOpenSockets, sockets.size);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  state.origin = `http://127.0.0.1:${port}`;
  state.apiUrl = `${state.origin}/v1`;
  return state;
}

/** What a lazy writer managed to send before it finished or the client went away. */
export interface WriteReport {
  bytesWritten: number;
  /** The client closed the connection before the answer was complete. */
  closedEarly: boolean;
  finished: boolean;
  /** Resolves once the writer stopped, either way. */
  done: Promise<void>;
}

/**
 * Writes `total` bytes made by `piece(index)` (each piece written whole, the last one cut to fit),
 * waiting for 'drain' whenever the socket's buffer is full, and stopping when the client closes.
 * Pieces should be reused buffers: the writer itself must not allocate the answer.
 */
export function writeLazily(response: ServerResponse, total: number, piece: (index: number) => Uint8Array, end = true): WriteReport {
  let resolveDone!: () => void;
  const report: WriteReport = { bytesWritten: 0, closedEarly: false, finished: false, done: new Promise<void>((resolve) => (resolveDone = resolve)) };
  let closed = false;
  response.once('close', () => {
    closed = true;
    if (!report.finished) report.closedEarly = true;
    resolveDone();
  });
  void (async () => {
    for (let index = 0; report.bytesWritten < total && !closed; index++) {
      let bytes = piece(index);
      if (report.bytesWritten + bytes.byteLength > total) bytes = bytes.subarray(0, total - report.bytesWritten);
      const more = response.write(bytes);
      report.bytesWritten += bytes.byteLength;
      if (!more)
        await new Promise<void>((resolve) => {
          const go = () => {
            response.off('drain', go);
            response.off('close', go);
            resolve();
          };
          response.on('drain', go);
          response.on('close', go);
        });
    }
    if (!closed) {
      report.finished = true;
      if (end) response.end();
      resolveDone();
    }
  })();
  return report;
}

/** The same bytes over and over: `text` repeated to about `size` bytes, encoded once. */
export function repeated(text: string, size = 64 * 1024): Uint8Array {
  return Buffer.from(text.repeat(Math.max(1, Math.floor(size / Buffer.byteLength(text)))));
}

export interface BoundedMeasurement extends Measurement {
  /**
   * Growth of memory held by ArrayBuffers (socket reads are Buffers, outside the JS heap that
   * heapUsed counts), from the start to the highest sample, in MiB.
   */
  peakArrayBufferGrowthMiB: number;
}

/** measure() plus the ArrayBuffer memory, which big answers need too. */
export async function measureBounded<T>(work: () => Promise<T>): Promise<{ result: T; measurement: BoundedMeasurement }> {
  const startBuffers = process.memoryUsage().arrayBuffers;
  let peakBuffers = startBuffers;
  const sampler = setInterval(() => {
    peakBuffers = Math.max(peakBuffers, process.memoryUsage().arrayBuffers);
  }, 20);
  try {
    const { result, measurement } = await measure(work);
    peakBuffers = Math.max(peakBuffers, process.memoryUsage().arrayBuffers);
    return { result, measurement: { ...measurement, peakArrayBufferGrowthMiB: (peakBuffers - startBuffers) / 2 ** 20 } };
  } finally {
    clearInterval(sampler);
  }
}

/** The connections undici starts while `work` runs, each as `host:port`. */
export async function countConnects<T>(work: () => Promise<T>): Promise<{ result: T; connects: string[] }> {
  const connections = watchConnections();
  try {
    const result = await work();
    return { result, connects: connections.seen.map((connection) => connection.host) };
  } finally {
    connections.stop();
  }
}

/** Resolves when `condition` holds, checking every 10 ms; rejects after `timeoutMs`. */
export async function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const started = performance.now();
  while (!condition()) {
    if (performance.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export function mib(bytes: number): number {
  return bytes / 2 ** 20;
}
