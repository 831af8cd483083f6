import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { closeRawConnections, maxRawBodyBytes, PlatformClient, sendRaw, type ClientOptions } from '../../../../src/platform/client';
import { drain, failure, observed, testApiKey } from './support/harness';

/**
 * The client's bounds with small caps against a local server whose answer each test sets: answer
 * sizes, deadlines, redirects, stream idle time, connections and redaction of every error.
 */
describe('client bounds', () => {
  let server: Server;
  let url = '';
  let origin = '';
  let answer: (request: IncomingMessage, response: ServerResponse) => void = (_request, response) => response.end();
  let requests = 0;
  let openSockets = 0;
  let maxOpenSockets = 0;
  const sockets = new Set<Socket>();
  const clients: PlatformClient[] = [];

  before(async () => {
    server = createServer((request, response) => {
      requests++;
      request.resume();
      answer(request, response);
    });
    server.on('connection', (socket: Socket) => {
      sockets.add(socket);
      maxOpenSockets = Math.max(maxOpenSockets, ++openSockets);
      socket.once('close', () => {
        openSockets--;
        sockets.delete(socket);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    url = `${origin}/v1`;
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    for (const socket of sockets) socket.destroy();
  });
  after(async () => {
    await closeRawConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  function client(overrides: Partial<ClientOptions> = {}): PlatformClient {
    const made = new PlatformClient({
      trainingUrl: url,
      inferenceUrl: url,
      credentials: { getApiKey: async () => testApiKey },
      maxRetries: 0,
      ...overrides,
      logger: (entry) => observed.logEntries.push(entry),
    });
    clients.push(made);
    return made;
  }

  const json =
    (body: string, headers: Record<string, string> = {}) =>
    (_request: IncomingMessage, response: ServerResponse) => {
      response.writeHead(200, { 'content-type': 'application/json', ...headers });
      response.end(body);
    };
  const list = (size: number) => JSON.stringify({ object: 'list', data: [{ id: 'x'.repeat(Math.max(0, size - 43)), object: 'model', created: 1, owned_by: 'o' }] }).slice(0, size);

  describe('answer sizes', () => {
    it('reads a JSON answer of exactly the cap', async () => {
      const body = JSON.stringify({ object: 'list', data: [{ id: 'x'.repeat(900), object: 'model', created: 1, owned_by: 'o' }] });
      answer = json(body);
      const models = await client({ maxJsonBytes: Buffer.byteLength(body) }).inference.listModels();
      assert.equal(models.data[0]?.id.length, 900);
    });

    it('refuses a JSON answer one byte over the cap, with or without Content-Length', async () => {
      const body = list(1001);
      for (const headers of [{}, { 'content-length': '1001' }] as Record<string, string>[]) {
        answer = json(body, headers);
        const error = await failure(client({ maxJsonBytes: 1000 }).inference.listModels());
        assert.equal(error.kind, 'too-large');
        assert.equal(error.message, "GET /v1/models: the server's answer was larger than 1000 bytes; it was not read");
        assert.equal(error.status, 200);
      }
    });

    it('describes an error from the first part of an error body larger than its cap', async () => {
      answer = (_request, response) => {
        response.writeHead(502, { 'content-type': 'text/plain' });
        response.end(`upstream exploded ${'!'.repeat(5000)}`);
      };
      const error = await failure(client({ maxErrorBodyBytes: 100 }).inference.listModels());
      assert.equal(error.kind, 'http');
      assert.equal(error.status, 502);
      assert.equal(error.message, `GET /v1/models failed: 502 upstream exploded ${'!'.repeat(100 - 'upstream exploded '.length)}`);
    });

    it('caps the whole completion of a server that ignores stream: true', async () => {
      answer = json(
        JSON.stringify({ id: 'c', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'y'.repeat(5000) }, finish_reason: 'stop' }] }),
      );
      const { chunks, error } = await drain(client({ maxJsonBytes: 1000 }).inference.streamChatCompletion({ model: 'm', messages: [] }));
      assert.equal(chunks.length, 0);
      assert.equal(error?.kind, 'too-large');
    });

    it('ends a stream whose event passes the event cap, after the events before it', async () => {
      const event = (content: string) =>
        `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;
      answer = (_request, response) => {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.end(event('fine') + event('z'.repeat(3000)) + 'data: [DONE]\n\n');
      };
      const { chunks, error } = await drain(client({ maxStreamEventSize: 1000 }).inference.streamChatCompletion({ model: 'm', messages: [] }));
      assert.deepEqual(
        chunks.map((chunk) => chunk.choices[0]?.delta.content),
        ['fine'],
      );
      assert.equal(error?.kind, 'too-large');
      assert.equal(error?.message, 'POST /v1/chat/completions: an event of the answer stream was larger than 1000 bytes; the stream was stopped (1 chunk received)');
    });

    it('keeps at most maxRawBodyBytes of a test send answer and marks it cut', async () => {
      answer = (_request, response) => response.end(Buffer.alloc(maxRawBodyBytes * 3, 97));
      const response = await sendRaw({ url: `${origin}/hook`, method: 'POST', headers: {}, body: '{}' });
      assert.equal(response.body.byteLength, maxRawBodyBytes);
      assert.equal(response.truncated, true);
    });
  });

  describe('deadlines', () => {
    /** Headers and a first byte at once, then one more byte every 40 ms, for up to 2 s. */
    const drip = (_request: IncomingMessage, response: ServerResponse) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{');
      let sent = 0;
      const timer = setInterval(() => (++sent > 50 ? (clearInterval(timer), response.end('}')) : response.write(' ')), 40);
      response.once('close', () => clearInterval(timer));
    };

    it('ends a call whose answer keeps dripping with a timeout, though no gap between bytes is long', async () => {
      answer = drip;
      const error = await failure(client({ timeoutMs: 300 }).inference.listModels());
      assert.equal(error.kind, 'timeout');
      assert.equal(error.message, 'GET /v1/models timed out after 0.3 s (the answer was still arriving)');
    });

    it('ends a test send whose answer keeps dripping with a timeout', async () => {
      answer = drip;
      const error = await failure(sendRaw({ url: `${origin}/hook`, method: 'POST', headers: {}, body: '{}', timeoutMs: 300 }));
      assert.equal(error.kind, 'timeout');
      assert.equal(error.message, `POST ${origin} timed out after 0.3 s`);
    });

    it('keeps a stream open past the idle timeout while comments arrive, then reads it to the end', async () => {
      answer = (_request, response) => {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        let comments = 0;
        const timer = setInterval(() => {
          if (++comments <= 12) return void response.write(': keep-alive\n\n');
          clearInterval(timer);
          response.end(
            `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content: 'late' }, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`,
          );
        }, 40);
      };
      // 12 comments 40 ms apart outlast both a 150 ms idle timeout and a 150 ms call timeout.
      const { chunks, error } = await drain(client({ streamIdleTimeoutMs: 150, timeoutMs: 150 }).inference.streamChatCompletion({ model: 'm', messages: [] }));
      assert.equal(error, undefined);
      assert.deepEqual(
        chunks.map((chunk) => chunk.choices[0]?.delta.content),
        ['late'],
      );
    });
  });

  describe('redirects', () => {
    for (const status of [301, 302, 303, 307, 308]) {
      it(`turns a ${status} to the same origin into an error instead of following it`, async () => {
        answer = (_request, response) => {
          response.writeHead(status, { location: '/v1/elsewhere?token=abc' });
          response.end();
        };
        const before = requests;
        const error = await failure(client().inference.listModels());
        assert.equal(error.kind, 'http');
        assert.equal(error.status, status);
        assert.equal(error.message, `GET /v1/models: the server redirected to ${origin} (${status}); RL Studio does not follow redirects, so your key stays with the address you set`);
        assert.equal(requests - before, 1);
      });
    }
  });

  describe('connections', () => {
    it('opens at most connectionsPerOrigin sockets to one address', async () => {
      const held: ServerResponse[] = [];
      answer = (_request, response) => {
        held.push(response);
        if (held.length === 2) held.splice(0).forEach((each) => json('{"object":"list","data":[]}')(_request, each));
      };
      maxOpenSockets = 0;
      const limited = client({ connectionsPerOrigin: 2 });
      await Promise.all(Array.from({ length: 8 }, () => limited.inference.listModels()));
      assert.equal(maxOpenSockets, 2);
    });
  });

  describe('redaction', () => {
    it('masks a bearer token a server echoes even on a call that sends no key', async () => {
      answer = (_request, response) => {
        response.writeHead(500, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ detail: 'your header was Bearer sk-live-abcdef123456' }));
      };
      const error = await failure(client().training.health());
      assert.equal(error.message, 'GET /v1/health failed: 500 your header was Bearer [redacted]');
    });

    it('refuses a bad id before reading the key or sending anything', async () => {
      let keyReads = 0;
      const before = requests;
      const careful = client({ credentials: { getApiKey: async () => (keyReads++, testApiKey) } });
      const error = await failure(careful.training.deleteModel('../other-model'));
      assert.equal(error.kind, 'invalid-input');
      assert.equal(error.message, 'DELETE /v1/preview/models/{modelId}: the model id "../other-model" cannot be used in a request address (it contains /, \\, ?, # or %); nothing was sent');
      assert.equal(keyReads, 0);
      assert.equal(requests, before);
    });
  });
});
