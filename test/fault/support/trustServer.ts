/**
 * A platform stand-in on 127.0.0.1 that records every request (with its headers) and every socket,
 * for the trust cases: did a request arrive, did it carry the key, were its sockets closed. It
 * answers the few calls the health check, the Models view and job polling make; chosen requests
 * can be held unanswered, to catch the extension in the middle of a call.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface RecordedCall {
  method: string;
  path: string;
  authorization: string | undefined;
  /** The Compat-Project header. */
  project: string | undefined;
  /** Which socket carried it (1, 2, …). */
  socket: number;
  at: number;
}

export interface RecordingServer {
  readonly url: string;
  readonly trainingUrl: string;
  readonly inferenceUrl: string;
  readonly calls: RecordedCall[];
  /** Sockets opened and closed so far. */
  readonly sockets: { opened: number; closed: number; readonly open: number };
  /** The inference catalogue it serves (one plain model by default). */
  models: ServedModel[];
  /** Requests whose path matches are recorded but not answered until release() (or their socket closes). */
  hold(pathPattern: RegExp): void;
  /** Answers the held requests and stops holding. */
  release(): void;
  /** Requests received and not answered yet. */
  readonly held: number;
  /** Resolves when `accept` is true (checked after every request and socket event); fails after timeoutMs. */
  waitFor(what: string, accept: () => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export interface ServedModel {
  id: string;
  owned_by: string;
}

function routes(models: () => ServedModel[]): Array<[RegExp, (path: string) => unknown]> {
  return [
    [/\/training\/v1\/system-check$/, () => ({ checks: { database: { success: true, duration: 0.01 } } })],
    [/\/training\/v1\/health$/, () => ({ status: 'ok' })],
    [/\/inference\/v1\/models$/, () => ({ object: 'list', data: models().map((model) => ({ ...model, object: 'model', created: 1 })) })],
    [/\/training\/v1\/preview\/training-jobs\/[^/]+\/events$/, () => ({ data: [], has_more: false })],
    [/\/training\/v1\/preview\/training-jobs\/([^/]+)$/, (path) => ({ id: decodeURIComponent(path.split('/').pop()!), status: 'running' })],
  ];
}

export async function startRecordingServer(): Promise<RecordingServer> {
  const calls: RecordedCall[] = [];
  const sockets = {
    opened: 0,
    closed: 0,
    get open() {
      return this.opened - this.closed;
    },
  };
  const socketIds = new WeakMap<Socket, number>();
  const live = new Set<Socket>();
  const waiters = new Set<() => void>();
  const notify = () => {
    for (const waiter of [...waiters]) waiter();
  };
  let holding: RegExp | undefined;
  const heldResponses = new Set<{ response: ServerResponse; path: string }>();
  const state = { models: [{ id: 'recorded-model', owned_by: 'recording-server' }] as ServedModel[] };
  const answers = routes(() => state.models);

  const answer = (response: ServerResponse, path: string) => {
    if (response.writableEnded || response.destroyed) return;
    const route = answers.find(([pattern]) => pattern.test(path));
    const status = route ? 200 : 404;
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(route ? route[1](path) : { detail: `no route for ${path}` }));
  };

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = (request.url ?? '/').split('?')[0]!;
    calls.push({
      method: request.method ?? 'GET',
      path,
      authorization: request.headers.authorization,
      project: typeof request.headers['compat-project'] === 'string' ? request.headers['compat-project'] : undefined,
      socket: socketIds.get(request.socket) ?? 0,
      at: Date.now(),
    });
    request.resume();
    if (holding?.test(path)) {
      const entry = { response, path };
      heldResponses.add(entry);
      response.on('close', () => {
        heldResponses.delete(entry);
        notify();
      });
    } else {
      answer(response, path);
    }
    notify();
  });
  server.on('connection', (socket: Socket) => {
    sockets.opened++;
    socketIds.set(socket, sockets.opened);
    live.add(socket);
    socket.on('close', () => {
      sockets.closed++;
      live.delete(socket);
      notify();
    });
    notify();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    trainingUrl: `${url}/training/v1`,
    inferenceUrl: `${url}/inference/v1`,
    calls,
    sockets,
    get models() {
      return state.models;
    },
    set models(models) {
      state.models = models;
    },
    hold(pathPattern) {
      holding = pathPattern;
    },
    release() {
      holding = undefined;
      for (const entry of [...heldResponses]) answer(entry.response, entry.path);
      heldResponses.clear();
    },
    get held() {
      return heldResponses.size;
    },
    waitFor(what, accept, timeoutMs = 15_000) {
      if (accept()) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!accept()) return;
          done();
          resolve();
        };
        const timer = setTimeout(() => {
          done();
          reject(
            new Error(
              `timed out after ${timeoutMs} ms waiting for ${what}; calls: ${JSON.stringify(calls.map((call) => `${call.method} ${call.path}`))}, sockets ${sockets.opened} opened / ${sockets.closed} closed`,
            ),
          );
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
      });
    },
    async close() {
      holding = undefined;
      for (const socket of live) socket.destroy();
      server.close();
      await once(server, 'close').catch(() => undefined);
    },
  };
}
