import assert from 'node:assert/strict';
import { closeRawConnections, sendRaw, type RawRequest, type RawResponse } from '../../../src/platform/client';
import { analysePayload, defaultSampleEvent, renderPayload } from '../../../src/webhooks/model/payload';
import { formatReceivedRequest } from '../../../src/webhooks/model/receivedReport';
import { startReceiver, type LocalReceiver } from '../../../src/webhooks/model/receiver';
import { formatTestReport } from '../../../src/webhooks/model/report';
import { sendTest } from '../../../src/webhooks/model/send';
import { signPayload } from '../../../src/webhooks/model/signature';

describe('webhook test send through the local receiver', () => {
  let receiver: LocalReceiver;
  before(async () => {
    receiver = await startReceiver({ secret: 'shared-secret' });
  });
  after(async () => {
    await closeRawConnections();
    await receiver.close();
  });

  it('posts the rendered payload with JSON type, bearer token and a signature that verifies', async () => {
    const template = '{"text": "Grüße from ${event_author} 🚀", "token": "${ACCESS_TOKEN}", "version": "${artifact_version_string}"}';
    const rendered = renderPayload(analysePayload(template, 'payload'), {
      sample: defaultSampleEvent('LINK_ARTIFACT'),
      maskSecrets: false,
      secrets: { ACCESS_TOKEN: 'token-123' },
    });
    const seen: number[] = [];
    const stop = receiver.onRequest((request) => seen.push(request.sequence));
    const result = await sendTest(rendered.text, { name: 'local', url: `${receiver.url}hooks/deploy` }, { accessToken: 'token-123', secret: 'shared-secret' }, sendRaw);
    stop();

    assert.equal(result.ok, true, JSON.stringify(result.failure));
    assert.equal(result.response?.status, 200);
    assert.ok(result.response!.ms >= 0);
    const answer = JSON.parse(Buffer.from(result.response!.body).toString('utf8'));
    assert.equal(answer.signature, 'valid');

    const received = receiver.requests.at(-1)!;
    assert.deepEqual(seen, [received.sequence]);
    assert.equal(received.method, 'POST');
    assert.equal(received.path, '/hooks/deploy');
    assert.equal(received.headers['content-type'], 'application/json');
    assert.equal(received.headers.authorization, 'Bearer token-123');
    assert.equal(received.headers['x-service-signature'], signPayload('shared-secret', Buffer.from(rendered.text, 'utf8')));
    assert.equal(received.bodyText, rendered.text);
    assert.equal(received.signature, 'valid');
    assert.equal(JSON.parse(received.bodyText).token, 'token-123');

    assert.equal(result.request.headers.Authorization, 'Bearer ********', 'the report never shows the token');
    assert.equal(result.request.endpoint, `${new URL(receiver.url).origin}/hook/…`, "the endpoint is shown with its path (and the receiver's token) masked");
    const report = formatTestReport(result);
    assert.match(report, /\*\*Succeeded\*\*: 200 OK in \d+ ms/);
    assert.doesNotMatch(report, /token-123/, 'neither in the headers nor in the body shown');
    assert.match(report, /"token": "\*\*\*\*\*\*\*\*"/);
    const log = formatReceivedRequest(received);
    assert.match(log, /signature valid/);
    assert.doesNotMatch(log, /Bearer token-123/, 'the receiver log masks the bearer token');
    assert.match(log, /authorization: Bearer \[redacted\]/);
  });

  it('reports an invalid signature when the secrets differ, and a missing one when none is sent', async () => {
    await sendTest('{"a": 1}', { name: 'local', url: receiver.url }, { secret: 'another-secret' }, sendRaw);
    assert.equal(receiver.requests.at(-1)!.signature, 'invalid');
    const unsigned = await sendTest('{"a": 1}', { name: 'local', url: receiver.url }, {}, sendRaw);
    assert.equal(receiver.requests.at(-1)!.signature, 'missing');
    assert.equal(receiver.requests.at(-1)!.headers.authorization, undefined, 'no token, no Authorization header');
    assert.equal(unsigned.request.headers['X-Service-Signature'], undefined);
  });

  it('does not check signatures when the receiver has no secret', async () => {
    receiver.setSecret(undefined);
    try {
      await sendTest('{}', { name: 'local', url: receiver.url }, { secret: 'x' }, sendRaw);
      assert.equal(receiver.requests.at(-1)!.signature, 'not-checked');
    } finally {
      receiver.setSecret('shared-secret');
    }
  });

  it('says what to check when nothing listens at the endpoint', async () => {
    const closed = await startReceiver();
    const url = closed.url;
    await closed.close();
    const result = await sendTest('{}', { name: 'gone', url }, {}, sendRaw);
    assert.equal(result.ok, false);
    assert.equal(result.response, undefined);
    assert.match(result.failure!.message, /connection refused/);
    assert.match(result.advice.join(' '), /host and port/);
    assert.match(formatTestReport(result), /## What to check/);
  });

  it('says what to check for an address that is not http or https', async () => {
    let sent = false;
    const result = await sendTest('{}', { name: 'bad', url: 'ftp://example.invalid/x' }, {}, async (request: RawRequest) => {
      sent = true;
      return sendRaw(request);
    });
    assert.equal(sent, true);
    assert.equal(result.ok, false);
    assert.match(result.advice.join(' '), /http:\/\/ or https:\/\//);
  });
});

describe('webhook test send (fake transport)', () => {
  it('signs the exact bytes it sends and turns a 401 into advice about the token', async () => {
    let captured: RawRequest | undefined;
    const fake = async (request: RawRequest): Promise<RawResponse> => {
      captured = request;
      return { status: 401, headers: { 'content-type': 'text/plain' }, body: new TextEncoder().encode('bad token tok-123'), ms: 12.3 };
    };
    const result = await sendTest('{"é": "ü"}', { name: 'hook', url: 'https://example.invalid/h' }, { accessToken: 'tok-123', secret: 'sec-456' }, fake, { timeoutMs: 5000 });
    assert.ok(captured);
    assert.equal(captured.method, 'POST');
    assert.equal(captured.timeoutMs, 5000);
    assert.deepEqual(Buffer.from(captured.body as Uint8Array), Buffer.from('{"é": "ü"}', 'utf8'));
    assert.equal(captured.headers['X-Service-Signature'], signPayload('sec-456', captured.body!));
    assert.equal(result.ok, false);
    assert.match(result.advice[0], /access token/);
    const report = formatTestReport(result);
    assert.match(report, /\*\*Failed\*\*: 401 Unauthorized in 12 ms/);
    assert.match(report, /bad token \*{8}/, 'an echoed token is masked');
    assert.doesNotMatch(report, /tok-123|sec-456/);
  });

  it('passes a cancellation signal through', async () => {
    const controller = new AbortController();
    let signal: AbortSignal | undefined;
    await sendTest(
      '{}',
      { name: 'h', url: 'http://127.0.0.1:1/' },
      {},
      async (request) => {
        signal = request.signal;
        throw Object.assign(new Error('cancelled'), { kind: 'aborted' });
      },
      { signal: controller.signal },
    );
    assert.equal(signal, controller.signal);
  });
});
