import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeRawConnections, maxRawBodyBytes, sendRaw } from '../../../../src/platform/client';
import { failure } from './support/harness';

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

describe('raw sends', () => {
  let server: Server;
  let base: string;
  const received: Received[] = [];
  let reply: (response: import('node:http').ServerResponse) => void = (response) => response.end();

  before(async () => {
    server = createServer((request, response) => {
      const parts: Buffer[] = [];
      request.on('data', (part: Buffer) => parts.push(part));
      request.on('end', () => {
        received.push({ method: request.method!, url: request.url!, headers: request.headers, body: Buffer.concat(parts) });
        reply(response);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await closeRawConnections();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('sends the exact body and headers, and returns status, headers and body', async () => {
    reply = (response) => {
      response.writeHead(202, { 'content-type': 'application/json', 'x-request-id': 'abc', 'set-cookie': ['a=1', 'b=2'] });
      response.end('{"ok":true}');
    };
    const payload = '{"event_type":"LINK_ARTIFACT","text":"déjà vu 🙂"}';
    const signature = createHmac('sha256', 'webhook-secret').update(payload, 'utf8').digest('base64');
    const response = await sendRaw({
      url: `${base}/hooks/build?x=1`,
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer access-token-123', 'x-service-signature': signature },
      body: payload,
    });
    assert.equal(response.status, 202);
    assert.equal(response.headers['x-request-id'], 'abc');
    assert.deepEqual(response.headers['set-cookie'], ['a=1', 'b=2']);
    assert.equal(new TextDecoder().decode(response.body), '{"ok":true}');
    assert.ok(response.ms >= 0);
    const request = received.at(-1)!;
    assert.equal(request.method, 'POST');
    assert.equal(request.url, '/hooks/build?x=1');
    assert.equal(request.headers.authorization, 'Bearer access-token-123');
    assert.equal(request.headers['x-service-signature'], signature);
    assert.equal(request.body.toString('utf8'), payload);
  });

  it('sends bytes as given, with GET and PUT too', async () => {
    reply = (response) => response.end('done');
    const bytes = Uint8Array.of(0, 1, 2, 255);
    await sendRaw({ url: `${base}/put`, method: 'PUT', headers: {}, body: bytes });
    assert.deepEqual([...received.at(-1)!.body], [0, 1, 2, 255]);
    const got = await sendRaw({ url: `${base}/get`, method: 'GET', headers: {} });
    assert.equal(received.at(-1)!.method, 'GET');
    assert.equal(new TextDecoder().decode(got.body), 'done');
  });

  it('returns error statuses as answers, without retrying', async () => {
    reply = (response) => {
      response.writeHead(503);
      response.end('busy');
    };
    const before = received.length;
    const response = await sendRaw({ url: `${base}/busy`, method: 'POST', headers: {}, body: '{}' });
    assert.equal(response.status, 503);
    assert.equal(received.length - before, 1);
  });

  it('keeps at most the maximum body size', async () => {
    reply = (response) => response.end(Buffer.alloc(maxRawBodyBytes + 10, 97));
    const response = await sendRaw({ url: `${base}/big`, method: 'GET', headers: {} });
    assert.equal(response.body.byteLength, maxRawBodyBytes);
    assert.equal(response.truncated, true);
  });

  it('times out with a readable message and no secret in it', async () => {
    reply = () => undefined;
    const error = await failure(sendRaw({ url: `${base}/hooks/T000/B000/secretpath`, method: 'POST', headers: { authorization: 'Bearer access-token-123' }, body: '{}', timeoutMs: 100 }));
    assert.equal(error.kind, 'timeout');
    assert.equal(error.api, 'webhook');
    assert.equal(error.message, `POST ${base}: timed out after 0.1 s`.replace(': timed', ' timed'));
    assert.ok(!error.message.includes('secretpath'));
  });

  it('reports a refused connection as a network error', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = await failure(sendRaw({ url: `http://127.0.0.1:${port}/hook`, method: 'POST', headers: {}, body: '{}' }));
    assert.equal(error.kind, 'network');
    assert.equal(error.message, `POST http://127.0.0.1:${port}: could not connect to 127.0.0.1:${port} (connection refused)`);
  });

  it('rejects an address that is not http(s)', async () => {
    assert.equal((await failure(sendRaw({ url: 'not a url', method: 'POST', headers: {} }))).kind, 'not-configured');
    assert.equal((await failure(sendRaw({ url: 'ftp://host/x', method: 'POST', headers: {} }))).kind, 'not-configured');
  });

  it('stops when aborted', async () => {
    reply = () => undefined;
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await failure(sendRaw({ url: `${base}/slow`, method: 'POST', headers: {}, body: '{}', signal: controller.signal }));
    assert.equal(error.kind, 'aborted');
  });
});
