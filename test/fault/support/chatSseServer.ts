/**
 * A hostile chat-completion server on 127.0.0.1, raw node:http: it lists one model and answers
 * every completion with an SSE stream of content chunks that goes on up to `totalBytes` (or until
 * the client goes away) and never sends [DONE]. It writes only as fast as the socket drains, so
 * its own memory stays flat and the heap the test measures is the client's.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SseServerOptions {
  /** Bytes of SSE to send per answer at most. */
  totalBytes: number;
  /** Characters of content per chunk. */
  chunkChars?: number;
  /** Pause between two chunks (0: as fast as the socket takes them). */
  chunkDelayMs?: number;
}

export interface CompletionRecord {
  bytesWritten: number;
  /** Resolves when the client closed the connection before the server finished (true) or the server finished (false). */
  closed: Promise<boolean>;
}

export interface SseServer {
  baseUrl: string;
  completions: CompletionRecord[];
  close(): Promise<void>;
}

export const faultModel = 'fault/endless-model';

export async function startSseServer(options: SseServerOptions): Promise<SseServer> {
  const completions: CompletionRecord[] = [];
  const chunkChars = options.chunkChars ?? 64 * 1024;
  const event = Buffer.from(
    `data: ${JSON.stringify({ id: 'chatcmpl-fault', object: 'chat.completion.chunk', created: 1, model: faultModel, choices: [{ index: 0, delta: { content: 'a'.repeat(chunkChars) }, finish_reason: null }] })}\n\n`,
  );
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = (request.url ?? '').split('?')[0];
    if (request.method === 'GET' && path === '/v1/models') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ object: 'list', data: [{ id: faultModel, object: 'model', created: 1, owned_by: 'fault' }] }));
      return;
    }
    if (request.method !== 'POST' || path !== '/v1/chat/completions') {
      response.writeHead(404).end();
      return;
    }
    request.resume();
    const record = { bytesWritten: 0 } as CompletionRecord;
    let finished = false;
    record.closed = new Promise<boolean>((resolve) => {
      response.on('close', () => resolve(!finished));
    });
    completions.push(record);
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const pump = (): void => {
      while (!response.destroyed && record.bytesWritten + event.length <= options.totalBytes) {
        record.bytesWritten += event.length;
        const more = response.write(event);
        if (options.chunkDelayMs) {
          setTimeout(pump, options.chunkDelayMs);
          return;
        }
        if (!more) {
          response.once('drain', pump);
          return;
        }
      }
      if (!response.destroyed) {
        // The stream ends without [DONE]: the client sees a cut stream.
        finished = true;
        response.end();
      }
    };
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    completions,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
