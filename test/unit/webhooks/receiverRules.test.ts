import assert from 'node:assert/strict';
import { describeReceiverState, describeRefusal, droppedExplanation, formatReceivedRequest, maskCredentialFields, maskHeaders, shownBodyChars } from '../../../src/webhooks/model/receivedReport';
import { comesFromBrowser, isOwnHost, judgeRequest, pathUnderToken, receiverPortFrom } from '../../../src/webhooks/model/receiverRules';
import { receiverLimits, type ReceivedRequest, type ReceiverStats } from '../../../src/webhooks/model/receiver';

const token = '0123456789abcdef0123456789abcdef';

function received(fields: Partial<Omit<ReceivedRequest, 'bodyText'>> & { text?: string }): ReceivedRequest {
  const body = new TextEncoder().encode(fields.text ?? '{}');
  return {
    sequence: 1,
    receivedAt: Date.UTC(2025, 0, 2, 3, 4, 5),
    method: 'POST',
    path: '/',
    headers: {},
    signature: 'not-checked',
    ...fields,
    body,
    bodyText: new TextDecoder().decode(body),
  };
}

describe('local receiver rules', () => {
  it('accepts only its own loopback host and port in Host', () => {
    for (const host of ['127.0.0.1:8080', 'localhost:8080', 'LOCALHOST:8080', '[::1]:8080']) assert.equal(isOwnHost(host, 8080), true, host);
    for (const host of [undefined, '', 'evil.example:8080', '127.0.0.1:8081', '127.0.0.1', 'localhost', '127.0.0.2:8080', 'localhost.:8080', '127.0.0.1:8080.evil.example', '0.0.0.0:8080']) {
      assert.equal(isOwnHost(host, 8080), false, String(host));
    }
    assert.equal(isOwnHost('localhost', 80), true, 'a client leaves out the default port');
  });

  it('knows a browser by Origin or Sec-Fetch-Site, not by the Sec-Fetch-Mode that Node fetch sends too', () => {
    assert.equal(comesFromBrowser({ origin: 'null' }), true);
    assert.equal(comesFromBrowser({ 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors' }), true);
    assert.equal(comesFromBrowser({ 'sec-fetch-mode': 'cors', 'user-agent': 'node' }), false);
    assert.equal(comesFromBrowser({ 'user-agent': 'curl/8', 'content-type': 'application/json' }), false);
  });

  it('takes the path after /hook/<token>, and nothing else', () => {
    assert.equal(pathUnderToken(`/hook/${token}`, token), '/');
    assert.equal(pathUnderToken(`/hook/${token}/`, token), '/');
    assert.equal(pathUnderToken(`/hook/${token}/deploy/x?y=1`, token), '/deploy/x?y=1');
    assert.equal(pathUnderToken(`/hook/${token}?y=1`, token), '/?y=1');
    for (const path of [
      '/',
      '/hook/',
      `/hook/${token.slice(0, -1)}`,
      `/hook/${token}0`,
      `/hook/${token.toUpperCase()}`,
      `/HOOK/${token}`,
      `//hook/${token}`,
      `http://127.0.0.1/hook/${token}`,
      `/hook/${'é'.repeat(32)}`,
    ]) {
      assert.equal(pathUnderToken(path, token), undefined, path);
    }
  });

  it('judges host, then browser, then path, then method, then declared length', () => {
    const own = { port: 9000, token, maxBodyBytes: 10 };
    const good = { method: 'POST', url: `/hook/${token}/`, headers: { host: '127.0.0.1:9000', 'content-length': '10' } };
    assert.equal(judgeRequest(good, own), undefined);
    assert.deepEqual(judgeRequest({ ...good, headers: { ...good.headers, host: 'evil.example:9000', origin: 'x' } }, own), { status: 421, reason: 'foreign-host' });
    assert.deepEqual(judgeRequest({ ...good, url: '/', headers: { ...good.headers, origin: 'x' } }, own), { status: 403, reason: 'browser' });
    assert.deepEqual(judgeRequest({ ...good, url: '/', method: 'PUT' }, own), { status: 404, reason: 'unknown-path' });
    assert.deepEqual(judgeRequest({ ...good, method: 'PUT' }, own), { status: 405, reason: 'method-not-allowed', headers: { Allow: 'POST, GET, HEAD' } });
    assert.deepEqual(judgeRequest({ ...good, headers: { ...good.headers, 'content-length': '11' } }, own), { status: 413, reason: 'too-large' });
    assert.equal(judgeRequest({ ...good, method: 'GET' }, own), undefined);
  });

  it('clamps the port setting to 0..65535, anything else to 0 with a reason', () => {
    assert.deepEqual(receiverPortFrom(8080), { port: 8080 });
    assert.deepEqual(receiverPortFrom(0), { port: 0 });
    assert.deepEqual(receiverPortFrom(65535), { port: 65535 });
    assert.deepEqual(receiverPortFrom(undefined), { port: 0 });
    for (const value of [-1, 65536, 70000, 80.5, Number.NaN, Infinity, '8080', true, {}]) {
      const { port, problem } = receiverPortFrom(value);
      assert.equal(port, 0, String(value));
      assert.match(problem ?? '', /not a port from 0 to 65535: using a free port instead/);
    }
    assert.ok(receiverPortFrom('x'.repeat(10_000)).problem!.length < 200, 'a long value is not copied into the log');
  });

  it('has limits whose budget holds at least one largest body', () => {
    assert.ok(receiverLimits.maxKeptBytes >= receiverLimits.maxBodyBytes);
    assert.ok(receiverLimits.headersTimeoutMs <= receiverLimits.requestTimeoutMs, 'Node requires it');
  });
});

describe('what the receiver shows', () => {
  it('masks credential headers, keeping the scheme and cookie names, and collects their values', () => {
    const { shown, secrets } = maskHeaders({
      authorization: 'Bearer tok_abcdef123456',
      'proxy-authorization': `Basic ${Buffer.from('jane:hunter2-long').toString('base64')}`,
      cookie: 'theme=dark; sid=s3ss10n-value',
      'set-cookie': ['sid=server-side-session; Path=/; HttpOnly'],
      'x-api-key': 'ak_live_998877',
      'x-auth-token': 'xyz-987654',
      'x-service-signature': 'c2lnbmF0dXJl',
      'content-type': 'application/json',
    });
    assert.deepEqual(shown, {
      authorization: 'Bearer [redacted] (16 characters)',
      'proxy-authorization': 'Basic [redacted] (24 characters)',
      cookie: 'theme=[redacted]; sid=[redacted]',
      'set-cookie': ['sid=[redacted]; Path=/; HttpOnly'],
      'x-api-key': '[redacted] (14 characters)',
      'x-auth-token': '[redacted] (10 characters)',
      'x-service-signature': 'c2lnbmF0dXJl',
      'content-type': 'application/json',
    });
    for (const value of ['tok_abcdef123456', 'jane:hunter2-long', 'hunter2-long', 's3ss10n-value', 'server-side-session', 'ak_live_998877', 'xyz-987654']) {
      assert.ok(secrets.includes(value), value);
    }
  });

  it('masks body fields named like credentials: JSON, header lines and form pairs, not look-alikes', () => {
    assert.equal(
      maskCredentialFields('{"api_key": "k1", "event_author": "jane", "nested": {"Access-Token": "t\\"2"}, "n": 5, "session": 7}'),
      '{"api_key": "[redacted]", "event_author": "jane", "nested": {"Access-Token": "[redacted]"}, "n": 5, "session": 7}',
    );
    assert.equal(maskCredentialFields('GET /x\nCookie: a=b; c=d\n  X-API-Key : zz\nAccept: */*'), 'GET /x\nCookie: [redacted]\n  X-API-Key : [redacted]\nAccept: */*');
    assert.equal(maskCredentialFields('user=jane&password=p%40ss&next=/home token=abc'), 'user=jane&password=[redacted]&next=/home token=[redacted]');
  });

  it('redacts the known secrets and header values everywhere, after cutting the body', () => {
    const secret = 'signing-secret-42';
    const text = `{"echo": "${token} ${secret} my-cookie-value"}${' '.repeat(shownBodyChars)}tail ${secret}`;
    const shown = formatReceivedRequest(received({ path: `/x?t=${token}`, headers: { cookie: 'c=my-cookie-value', 'x-echo': secret }, text, signature: 'valid' }), [token, secret]);
    assert.doesNotMatch(shown, new RegExp(`${token}|${secret}|my-cookie-value`));
    assert.match(shown, /^#1 POST \/x\?t=\[redacted\] at 2025-01-02T03:04:05\.000Z: signature valid/);
    assert.match(shown, new RegExp(`Body \\(${Buffer.byteLength(text)} bytes, first ${shownBodyChars} characters shown\\)`));
    assert.doesNotMatch(shown, /tail/, 'the rest of a long body is not shown');
  });

  it('fences a body that contains backticks so it cannot end the block early', () => {
    const shown = formatReceivedRequest(received({ text: 'a ``` b' }));
    assert.match(shown, /^````\na ``` b\n````$/m);
  });

  it('says what it keeps, dropped and refused, and why it refused', () => {
    const stats: ReceiverStats = {
      kept: 3,
      keptBytes: 10,
      dropped: 0,
      bytesRead: 0,
      openConnections: 0,
      refused: { 'foreign-host': 0, browser: 0, 'unknown-path': 0, 'method-not-allowed': 0, 'too-large': 0, 'too-slow': 0, malformed: 0, 'too-many-connections': 0 },
    };
    assert.equal(describeReceiverState(stats), '3 kept');
    assert.equal(describeReceiverState({ ...stats, dropped: 2, refused: { ...stats.refused, browser: 4, 'too-large': 1 } }), '3 kept, 2 dropped, 5 refused');
    assert.equal(droppedExplanation, 'The oldest requests are dropped first, to keep at most 100 requests and 16 MiB.');
    assert.equal(
      describeRefusal({ reason: 'browser', status: 403, at: Date.UTC(2025, 0, 1) }),
      '2025-01-01T00:00:00.000Z Refused a request sent by a web page in a browser (it carried an Origin or Sec-Fetch-Site header); nothing was kept. (answered 403)',
    );
    assert.match(describeRefusal({ reason: 'too-many-connections', at: 0 }), /limit of 32 open at once; nothing was read\.$/);
  });
});
