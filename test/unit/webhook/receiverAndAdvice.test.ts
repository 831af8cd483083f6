import assert from 'node:assert/strict';
import { request } from 'node:http';
import { adviceForFailure, adviceForStatus, formatReceivedRequest, signPayload, startReceiver, type LocalReceiver } from '../../../src/webhook';

function post(url: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (incoming) => {
      const parts: Buffer[] = [];
      incoming.on('data', (part: Buffer) => parts.push(part));
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, body: Buffer.concat(parts).toString('utf8') }));
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

describe('local webhook receiver', () => {
  let receiver: LocalReceiver;
  before(async () => {
    receiver = await startReceiver({ secret: 'k', maxBodyBytes: 64, keep: 3 });
  });
  after(() => receiver.close());

  it('listens on 127.0.0.1 only', () => {
    assert.match(receiver.url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
    assert.ok(receiver.port > 0);
  });

  it('answers with the verdict and records the request', async () => {
    const body = '{"a":"é"}';
    const answer = await post(`${receiver.url}x?y=1`, body, { 'x-service-signature': signPayload('k', body) });
    assert.equal(answer.status, 200);
    assert.deepEqual(JSON.parse(answer.body), { received: true, sequence: 1, signature: 'valid', bytes: Buffer.byteLength(body) });
    const recorded = receiver.requests.at(-1)!;
    assert.equal(recorded.path, '/x?y=1');
    assert.equal(recorded.bodyText, body);
  });

  it('cuts a body over the limit, answers 413 and does not judge its signature', async () => {
    const answer = await post(receiver.url, 'x'.repeat(100), { 'x-service-signature': 'whatever' });
    assert.equal(answer.status, 413);
    const recorded = receiver.requests.at(-1)!;
    assert.equal(recorded.truncated, true);
    assert.equal(recorded.body.byteLength, 64);
    assert.equal(recorded.signature, 'not-checked');
    assert.match(formatReceivedRequest(recorded), /cut at the limit/);
  });

  it('keeps only the newest requests', async () => {
    for (let index = 0; index < 4; index++) await post(receiver.url, `{"n": ${index}}`);
    assert.equal(receiver.requests.length, 3);
    assert.equal(receiver.requests.at(-1)!.bodyText, '{"n": 3}');
    assert.ok(receiver.requests[0].sequence > 1);
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
  it('reads the transport failures', () => {
    assert.match(adviceForFailure({ kind: 'network', message: 'POST x: could not find the host example.invalid' })[0], /does not resolve/);
    assert.match(adviceForFailure({ kind: 'network', message: 'POST x: the secure connection to h:443 failed (CERT_HAS_EXPIRED)' })[0], /certificate/);
    assert.match(adviceForFailure({ kind: 'timeout', message: 'POST x timed out after 30 s' })[0], /in time/);
  });
});
