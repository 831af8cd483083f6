import assert from 'node:assert/strict';
import { request } from 'node:http';
import { adviceForFailure, adviceForStatus } from '../../../src/webhooks/model/advice';
import { signPayload } from '../../../src/webhooks/model/signature';
import { startReceiver, type LocalReceiver } from '../../../src/webhooks/model/receiver';

interface Answer {
  status: number;
  body: string;
}

function send(url: string, method: string, body: string | undefined, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method, agent: false, headers: { 'content-type': 'application/json', ...headers } }, (incoming) => {
      const parts: Buffer[] = [];
      incoming.on('data', (part: Buffer) => parts.push(part));
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, body: Buffer.concat(parts).toString('utf8') }));
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

const post = (url: string, body: string, headers: Record<string, string> = {}): Promise<Answer> => send(url, 'POST', body, headers);

describe('local webhook receiver', () => {
  let receiver: LocalReceiver;
  beforeEach(async () => {
    receiver = await startReceiver({ secret: 'k', maxBodyBytes: 64, maxKeptRequests: 3, maxKeptBytes: 4096 });
  });
  afterEach(() => receiver.close());

  it('listens on 127.0.0.1 under a random /hook/<32 hex>/ path, a new one each start', async () => {
    assert.match(receiver.url, /^http:\/\/127\.0\.0\.1:\d+\/hook\/[0-9a-f]{32}\/$/);
    assert.ok(receiver.port > 0);
    const other = await startReceiver();
    try {
      assert.notEqual(new URL(other.url).pathname, new URL(receiver.url).pathname);
    } finally {
      await other.close();
    }
  });

  it('answers with the verdict and records the request, its path taken after the token', async () => {
    const body = '{"a":"é"}';
    const answer = await post(`${receiver.url}x?y=1`, body, { 'x-service-signature': signPayload('k', body) });
    assert.equal(answer.status, 200);
    assert.deepEqual(JSON.parse(answer.body), { received: true, sequence: 1, signature: 'valid', bytes: Buffer.byteLength(body) });
    const recorded = receiver.requests.at(-1)!;
    assert.equal(recorded.path, '/x?y=1');
    assert.equal(recorded.bodyText, body);
    await post(receiver.url.replace(/\/$/, '?z=2'), '{}');
    assert.equal(receiver.requests.at(-1)!.path, '/?z=2');
  });

  it('refuses a body over the limit with 413, declared or chunked, and keeps nothing', async () => {
    const declared = await post(receiver.url, 'x'.repeat(100), { 'x-service-signature': 'whatever' });
    const chunked = await post(receiver.url, 'x'.repeat(100), { 'transfer-encoding': 'chunked' });
    assert.deepEqual([declared.status, chunked.status], [413, 413]);
    assert.deepEqual(JSON.parse(declared.body), { received: false, reason: 'too-large' });
    assert.equal(receiver.requests.length, 0);
    assert.equal(receiver.stats().refused['too-large'], 2);
    assert.equal((await post(receiver.url, 'x'.repeat(64))).status, 200, 'exactly the limit is accepted');
  });

  it('keeps only the newest requests, and counts the ones it dropped', async () => {
    for (let index = 0; index < 5; index++) await post(receiver.url, `{"n": ${index}}`);
    assert.equal(receiver.requests.length, 3);
    assert.equal(receiver.requests.at(-1)!.bodyText, '{"n": 4}');
    assert.deepEqual(
      receiver.requests.map((request) => request.sequence),
      [3, 4, 5],
    );
    assert.equal(receiver.stats().dropped, 2);
  });

  it('keeps requests within its byte budget, bodies and headers counted', async () => {
    const small = await startReceiver({ maxBodyBytes: 1000, maxKeptBytes: 2500, maxKeptRequests: 100 });
    try {
      for (let index = 0; index < 6; index++) await post(small.url, 'b'.repeat(900));
      const stats = small.stats();
      assert.ok(stats.keptBytes <= 2500, `kept ${stats.keptBytes}`);
      assert.equal(stats.kept, 2, 'two bodies of 900 bytes and their headers fit in 2500');
      assert.equal(stats.dropped, 4);
      assert.equal(small.requests.at(-1)!.sequence, 6);
    } finally {
      await small.close();
    }
  });

  it('answers GET as a health check and refuses other methods, keeping neither', async () => {
    const health = await send(receiver.url, 'GET', undefined);
    assert.equal(health.status, 200);
    assert.deepEqual(JSON.parse(health.body), { receiving: true, accepts: 'POST' });
    assert.equal((await send(receiver.url, 'DELETE', undefined)).status, 405);
    assert.equal((await send(`http://127.0.0.1:${receiver.port}/`, 'GET', undefined)).status, 404);
    assert.equal(receiver.requests.length, 0);
  });

  it('refuses web pages and other host names before reading the body', async () => {
    assert.equal((await post(receiver.url, '{}', { origin: 'http://localhost:3000' })).status, 403);
    assert.equal((await post(receiver.url, '{}', { host: `attacker.example:${receiver.port}` })).status, 421);
    assert.equal((await post(receiver.url, '{}', { host: `[::1]:${receiver.port}` })).status, 200);
    const fromNodeFetch = await fetch(receiver.url, { method: 'POST', body: '{}' });
    assert.equal(fromNodeFetch.status, 200, 'Node fetch sends Sec-Fetch-Mode, and is no browser');
    assert.equal(receiver.requests.length, 2);
    assert.equal(receiver.requests[1].headers['sec-fetch-mode'], 'cors');
  });

  it('tells its listeners about refusals, with the reason and the status', async () => {
    const seen: string[] = [];
    const stop = receiver.onRefused((refusal) => seen.push(`${refusal.reason} ${refusal.status}`));
    await post(`http://127.0.0.1:${receiver.port}/hook/nope/`, '{}');
    await post(receiver.url, '{}', { origin: 'null' });
    stop();
    await post(receiver.url, '{}', { origin: 'null' });
    assert.deepEqual(seen, ['unknown-path 404', 'browser 403']);
  });

  it('reports a port in use in plain words', async () => {
    await assert.rejects(startReceiver({ port: receiver.port }), /Port \d+ on 127\.0\.0\.1 is already in use/);
  });

  it('frees its port when closed', async () => {
    const other = await startReceiver();
    await other.close();
    await assert.rejects(post(other.url, '{}'), /ECONNREFUSED/);
  });
});

describe('what to check after a failed test', () => {
  it('has nothing to say on success', () => assert.deepEqual(adviceForStatus(204), []));
  it('points at the token for 401 and 403', () => {
    assert.match(adviceForStatus(401).join(' '), /access token/);
    assert.match(adviceForStatus(403).join(' '), /secret/);
  });
  it('points at the path for 404, the payload for 400 and 422, the service for 5xx', () => {
    assert.match(adviceForStatus(404)[0], /path/);
    assert.match(adviceForStatus(422)[0], /event_type/);
    assert.match(adviceForStatus(502)[0], /logs/);
  });
  it('follows the reason of a transport failure, not its words', () => {
    assert.match(adviceForFailure({ kind: 'unreachable', connection: 'unknown-host', message: 'POST x: could not find the host example.invalid' })[0], /does not resolve/);
    assert.match(adviceForFailure({ kind: 'unreachable', connection: 'tls', message: 'POST x: the secure connection to h:443 failed (CERT_HAS_EXPIRED)' })[0], /certificate/);
    assert.match(adviceForFailure({ kind: 'unreachable', connection: 'refused', message: 'POST x failed' })[0], /Nothing is listening/);
    assert.match(adviceForFailure({ kind: 'timeout', message: 'POST x timed out after 30 s' })[0], /in time/);
    assert.match(adviceForFailure({ kind: 'unreachable', message: 'POST x: could not connect to h:1 (connection refused)' })[0], /^Check the endpoint URL/, 'words in a message decide nothing');
  });
});
