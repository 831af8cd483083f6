/**
 * Hostile and ordinary clients of the local webhook receiver, all on 127.0.0.1: an oversized
 * uploader, a header trickler (slowloris), a plain sender with chosen headers.
 */
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';

export interface Answer {
  status: number;
  body: string;
}

/** One POST with exactly the given headers (Host included when given), answered or failed. */
export function post(url: string, body: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', ...headers } }, (incoming) => {
      const parts: Buffer[] = [];
      incoming.on('data', (part: Buffer) => parts.push(part));
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, body: Buffer.concat(parts).toString('utf8') }));
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

export interface UploadOutcome {
  /** The status answered, or undefined when the connection closed before any answer. */
  status?: number;
  /** Bytes handed to the socket before it closed (the kernel may have buffered most of them). */
  written: number;
}

const uploadChunk = Buffer.alloc(64 * 1024, 0x78);

/**
 * Tries to upload `bytes` bytes (declared in Content-Length, or chunked with no length), writing
 * one shared 64 KiB chunk over and over, until the server answers or closes the connection.
 */
export function upload(url: string, bytes: number, mode: 'content-length' | 'chunked'): Promise<UploadOutcome> {
  return new Promise((resolve) => {
    let written = 0;
    let status: number | undefined;
    let settled = false;
    const settle = (): void => {
      if (settled) return;
      settled = true;
      outgoing.destroy();
      resolve({ status, written });
    };
    const outgoing = request(url, {
      method: 'POST',
      agent: false,
      headers: mode === 'chunked' ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(bytes) },
    });
    outgoing.on('response', (incoming) => {
      status = incoming.statusCode;
      incoming.resume();
      incoming.on('end', settle);
      incoming.on('error', settle);
      incoming.on('close', settle);
    });
    // A reset after the answer is expected (the server closes at once); before it, it is the outcome.
    outgoing.on('error', () => setImmediate(settle));
    outgoing.on('close', () => setImmediate(settle));
    const pump = (): void => {
      while (written < bytes && !outgoing.destroyed && status === undefined) {
        written += uploadChunk.byteLength;
        if (!outgoing.write(uploadChunk)) {
          outgoing.once('drain', pump);
          return;
        }
      }
      if (!outgoing.destroyed && status === undefined) outgoing.end();
    };
    pump();
  });
}

/** Runs `work` over `items` with at most `width` at once. */
export async function inParallel<T, R>(items: readonly T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
  return results;
}

export interface Trickler {
  socket: Socket;
  /** Resolves when the server closes the connection: how many bytes were sent and what came back. */
  closed: Promise<{ sent: number; answer: string; afterMs: number }>;
}

/**
 * Opens a connection and sends `text` one byte every `intervalMs` (slowloris), stopping when the
 * server closes it. With an empty text the connection just stays open and silent.
 */
export function trickle(port: number, text: string, intervalMs: number): Trickler {
  const socket = connect(port, '127.0.0.1');
  const started = Date.now();
  let sent = 0;
  let answer = '';
  let timer: NodeJS.Timeout | undefined;
  socket.on('data', (data: Buffer) => {
    answer += data.toString('latin1');
  });
  socket.on('error', () => {
    // A reset is one of the ways the server ends it; 'close' follows.
  });
  socket.on('connect', () => {
    timer = setInterval(() => {
      if (sent >= text.length || socket.destroyed) return;
      socket.write(text[sent++]);
    }, intervalMs);
  });
  const closed = new Promise<{ sent: number; answer: string; afterMs: number }>((resolve) => {
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ sent, answer, afterMs: Date.now() - started });
    });
  });
  return { socket, closed };
}

/**
 * A connection that sends `text` at once and waits. Whatever the server answers is collected (a
 * socket that is not read never sees the server's end of the connection).
 */
export function openConnection(port: number, text = ''): { socket: Socket; connected: Promise<void>; closed: Promise<void>; answer: () => string } {
  const socket = connect(port, '127.0.0.1');
  let answer = '';
  socket.on('data', (data: Buffer) => {
    answer += data.toString('latin1');
  });
  socket.on('error', () => {
    // A reset is one of the ways the server ends it; 'close' follows.
  });
  const connected = new Promise<void>((resolve) =>
    socket.once('connect', () => {
      if (text) socket.write(text);
      resolve();
    }),
  );
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return { socket, connected, closed, answer: () => answer };
}
