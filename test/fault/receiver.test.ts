import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { formatReceivedRequest } from '../../src/webhooks/model/receivedReport';
import { receiverLimits, startReceiver, type LocalReceiver } from '../../src/webhooks/model/receiver';
import { signPayload } from '../../src/webhooks/model/signature';
import { measure } from './support/measure';
import { inParallel, openConnection, post, trickle } from './support/receiverClients';
import type { FloodReport } from './support/receiverFlood';

const MiB = 1024 * 1024;

/** Resolves once `condition` holds, checking every 20 ms; fails after `limitMs`. */
async function until(what: string, condition: () => boolean, limitMs = 5_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > limitMs) throw new Error(`still waiting for ${what} after ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Every 8-character piece of `secret` that occurs in `text` (none, when it is masked). */
function leakedPieces(text: string, secret: string): string[] {
  const pieces: string[] = [];
  for (let start = 0; start + 8 <= secret.length; start++) if (text.includes(secret.slice(start, start + 8))) pieces.push(secret.slice(start, start + 8));
  return pieces;
}

describe('fault: local webhook receiver against hostile clients', () => {
  let receiver: LocalReceiver;
  beforeEach(async () => {
    receiver = await startReceiver({ secret: 'whsec-verification-secret-0123456789' });
  });
  afterEach(() => receiver.close());

  it('a POST from a web page (Origin or Sec-Fetch-Site) and one DNS-rebound to evil.example:port: refused, nothing kept', async () => {
    const body = '{"event_type": "LINK_ARTIFACT"}';
    const fromPage = await post(receiver.url, body, { origin: 'https://evil.example' });
    const nullOrigin = await post(receiver.url, body, { origin: 'null' });
    const fetchMetadata = await post(receiver.url, body, { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors' });
    const rebound = await post(receiver.url, body, { host: `evil.example:${receiver.port}` });
    const otherPort = await post(receiver.url, body, { host: `127.0.0.1:${receiver.port + 1}` });
    assert.deepEqual([fromPage.status, nullOrigin.status, fetchMetadata.status], [403, 403, 403]);
    assert.deepEqual([rebound.status, otherPort.status], [421, 421]);
    assert.equal(receiver.requests.length, 0);
    const stats = receiver.stats();
    assert.equal(stats.refused.browser, 3);
    assert.equal(stats.refused['foreign-host'], 2);
    assert.equal(stats.keptBytes, 0);

    // The same request from a server-side sender, addressed to the receiver's own name, is kept.
    const plain = await post(receiver.url.replace('127.0.0.1', 'localhost'), body, { host: `localhost:${receiver.port}` });
    assert.equal(plain.status, 200);
    assert.equal(receiver.requests.length, 1);
  });

  it('requests to a guessed path, to the bare port or with another method: 404/405, nothing kept', async () => {
    const base = `http://127.0.0.1:${receiver.port}`;
    const guessed = await post(`${base}/hook/${'0'.repeat(32)}/`, '{}');
    const bare = await post(`${base}/`, '{}');
    const prefix = await post(receiver.url.replace(/.\/$/, '/'), '{}');
    const put = await new Promise<number>((resolve, reject) => {
      const { request } = require('node:http') as typeof import('node:http');
      request(receiver.url, { method: 'PUT', agent: false }, (answer) => {
        answer.resume();
        resolve(answer.statusCode ?? 0);
      })
        .on('error', reject)
        .end('{}');
    });
    assert.deepEqual([guessed.status, bare.status, prefix.status, put], [404, 404, 404, 405]);
    assert.equal(receiver.requests.length, 0);
    assert.equal(receiver.stats().refused['unknown-path'], 3);
  });

  it('300 posts of 6 MB from another process, 50 at once, half with Content-Length and half chunked: each 413 without reading the rest, nothing kept, heap bounded', async () => {
    const flood = join(__dirname, 'support', 'receiverFlood.js');
    const { result: report, measurement } = await measure(
      () =>
        new Promise<FloodReport>((resolve, reject) => {
          execFile(process.execPath, [flood, receiver.url, '300', '50', String(6 * 1000 * 1000)], { timeout: 60_000 }, (error, stdout) =>
            error ? reject(error as Error) : resolve(JSON.parse(stdout) as FloodReport),
          );
        }),
    );
    const stats = receiver.stats();
    console.log(
      `      300 × 6 MB: ${report.elapsedMs} ms, server read ${(stats.bytesRead / MiB).toFixed(1)} MiB, heap +${measurement.peakHeapGrowthMiB.toFixed(1)} MiB, longest stall ${measurement.maxEventLoopDelayMs.toFixed(0)} ms, ${report.retried} tried again (${stats.refused['too-many-connections']} over the connection cap)`,
    );

    assert.deepEqual([...new Set(report.statuses)], [413]);
    // A 413 lost to a reset makes the sender try again (and be refused again): rare, not the rule.
    const answersLost = stats.refused['too-large'] - 300;
    assert.ok(answersLost >= 0 && answersLost <= 15, `${answersLost} answers lost`);
    assert.equal(stats.kept, 0);
    assert.equal(stats.keptBytes, 0);
    // Reading each body in full would be 1.8 GB; at most the limit and what was in flight is read.
    assert.ok(stats.bytesRead <= 300 * (receiverLimits.maxBodyBytes + 512 * 1024), `read ${stats.bytesRead} bytes`);
    assert.ok(measurement.peakHeapGrowthMiB < 64, `heap grew ${measurement.peakHeapGrowthMiB} MiB`);
    assert.ok(measurement.maxEventLoopDelayMs < 2_000, `the event loop stalled ${measurement.maxEventLoopDelayMs} ms`);

    // Refused connections linger briefly so their senders can read the 413; then there is room again.
    await until('the refused connections to close', () => receiver.stats().openConnections === 0);
    const after = await post(receiver.url, '{"after": "flood"}');
    assert.equal(after.status, 200);
    assert.equal(receiver.requests.length, 1);
  });

  it('150 accepted posts just under the body limit: kept requests stay within 100 entries and 16 MiB, the oldest dropped and counted', async () => {
    const body = `{"pad": "${'p'.repeat(receiverLimits.maxBodyBytes - 64 * 1024)}"}`;
    const { result: statuses, measurement } = await measure(() =>
      inParallel(
        Array.from({ length: 150 }, (_, index) => index),
        8,
        async () => (await post(receiver.url, body)).status,
      ),
    );
    assert.deepEqual([...new Set(statuses)], [200]);
    const stats = receiver.stats();
    console.log(
      `      150 × ${(Buffer.byteLength(body) / MiB).toFixed(2)} MiB kept: ${stats.kept} kept, ${stats.dropped} dropped, ${(stats.keptBytes / MiB).toFixed(1)} MiB, heap +${measurement.peakHeapGrowthMiB.toFixed(1)} MiB`,
    );
    assert.ok(stats.keptBytes <= receiverLimits.maxKeptBytes, `kept ${stats.keptBytes} bytes`);
    assert.ok(stats.kept <= receiverLimits.maxKeptRequests);
    assert.equal(stats.kept + stats.dropped, 150);
    assert.equal(receiver.requests.length, stats.kept);
    assert.equal(receiver.requests.at(-1)!.sequence, 150, 'the newest is kept');
    assert.ok(measurement.peakHeapGrowthMiB < 64, `heap grew ${measurement.peakHeapGrowthMiB} MiB`);
  });

  it('slowloris: connections trickling headers one byte every 300 ms are cut by the header timeout; the server answers a normal post afterwards', async () => {
    const headers = `POST ${new URL(receiver.url).pathname} HTTP/1.1\r\nHost: 127.0.0.1:${receiver.port}\r\nContent-Length: 2\r\nX-Padding: ${'a'.repeat(200)}\r\n\r\n{}`;
    const tricklers = Array.from({ length: 10 }, () => trickle(receiver.port, headers, 300));
    const ends = await Promise.all(tricklers.map((trickler) => trickler.closed));
    // At a byte every 300 ms the headers would take over a minute: a cut before they are complete is the timeout's.
    for (const end of ends) {
      assert.ok(end.sent < headers.length, 'cut before the headers were complete');
      assert.match(end.answer, /^(HTTP\/1\.1 408 |$)/);
    }
    assert.equal(receiver.stats().refused['too-slow'], 10);
    assert.equal((await post(receiver.url, '{}')).status, 200);
    assert.equal(receiver.requests.length, 1);
  });

  it('a body trickled one byte every 300 ms after complete headers: cut by the request timeout (408), nothing kept', async () => {
    const request = `POST ${new URL(receiver.url).pathname} HTTP/1.1\r\nHost: 127.0.0.1:${receiver.port}\r\nContent-Length: 1000\r\n\r\n`;
    const connection = openConnection(receiver.port, request);
    await connection.connected;
    const timer = setInterval(() => connection.socket.destroyed || connection.socket.write('x'), 300);
    await connection.closed;
    clearInterval(timer);
    assert.match(connection.answer(), /^HTTP\/1\.1 408 /);
    assert.equal(receiver.requests.length, 0);
    assert.equal((await post(receiver.url, '{}')).status, 200);
  });

  it(`${receiverLimits.maxConnections + 10} silent connections, more than the cap: the excess closed at once, the rest by the timeout; a normal post is answered afterwards`, async () => {
    const connections = Array.from({ length: receiverLimits.maxConnections + 10 }, () => openConnection(receiver.port));
    await Promise.all(connections.map((connection) => connection.closed));
    const stats = receiver.stats();
    assert.ok(stats.refused['too-many-connections'] >= 10, `dropped ${stats.refused['too-many-connections']}`);
    assert.equal(stats.refused['too-many-connections'] + stats.refused['too-slow'], connections.length);
    assert.equal(stats.openConnections, 0);
    assert.equal((await post(receiver.url, '{}')).status, 200);
  });

  it('bodies carrying the path token, the signing secret, a cookie, an x-api-key and a bearer token: the shown report has none of them, the signature still verifies', async () => {
    const token = new URL(receiver.url).pathname.split('/')[2];
    const secret = 'whsec-verification-secret-0123456789';
    const cookie = 'sess-9f8e7d6c5b4a39281706';
    const apiKey = 'ak_live_5566778899aabbccdd';
    const bearer = 'bearer-token-abcdef123456';
    const body = JSON.stringify({ echo: `${receiver.url} ${secret}`, headers: `Cookie: sid=${cookie}\nx-api-key: ${apiKey}\nAuthorization: Bearer ${bearer}` });
    const answer = await post(receiver.url, body, {
      cookie: `theme=dark; sid=${cookie}`,
      'x-api-key': apiKey,
      authorization: `Bearer ${bearer}`,
      'x-service-signature': signPayload(secret, body),
    });
    assert.equal(answer.status, 200);
    // Only the body, with no header carrying the same values: masked by field name.
    const bodyOnly = JSON.stringify({ api_key: 'ak_test_0011223344556677', session_cookie: 'zz-cookie-value-998877', access_token: 'tok_1234567890abcdef' });
    assert.equal((await post(receiver.url, bodyOnly, { 'x-service-signature': signPayload(secret, bodyOnly) })).status, 200);

    const [first, second] = receiver.requests;
    assert.equal(first.signature, 'valid');
    assert.equal(second.signature, 'valid');
    const shown = formatReceivedRequest(first, receiver.secretsToMask());
    for (const value of [token, secret, cookie, apiKey, bearer]) assert.deepEqual(leakedPieces(shown, value), [], `${value} shows in:\n${shown}`);
    assert.match(shown, /signature valid/);
    assert.match(shown, /cookie: (theme=)?\[redacted\]/, 'the cookie header is shown, its value masked');
    const shownSecond = formatReceivedRequest(second, receiver.secretsToMask());
    for (const value of ['ak_test_0011223344556677', 'zz-cookie-value-998877', 'tok_1234567890abcdef']) assert.deepEqual(leakedPieces(shownSecond, value), [], `${value} shows in:\n${shownSecond}`);
  });

  it('credentials under header names the receiver does not know (x-custom-pat: ghp_…, a JWT, an AWS key id, a bare hex key), echoed in the body: the shown report has none of them', async () => {
    const pat = 'ghp_R4nd0mL00k1ngT0kenV4lue0123456789abcd';
    const jwt = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJkZXBsb3kiLCJleHAiOjE4OTM0NTYwMDB9.c2lnbmF0dXJlLW9mLXRoZS10b2tlbg';
    const awsKey = 'AKIAIOSFODNN7EXAMPLE';
    const hexKey = '4f3c2b1a09e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4';
    const body = JSON.stringify({ event_type: 'LINK_ARTIFACT', note: `copied ${pat} and ${jwt}` });
    const answer = await post(receiver.url, body, {
      'x-custom-pat': pat,
      'x-deploy-blob': jwt,
      'x-cloud-id': awsKey,
      'x-hmm': hexKey,
      'x-github-delivery': '72d3162e-cc78-11e3-81ab-4c9367dc0958',
      'x-service-signature': signPayload('whsec-verification-secret-0123456789', body),
    });
    assert.equal(answer.status, 200);
    const shown = formatReceivedRequest(receiver.requests[0]!, receiver.secretsToMask());
    for (const value of [pat, jwt, awsKey, hexKey]) assert.deepEqual(leakedPieces(shown, value), [], `${value} shows in:\n${shown}`);
    assert.match(shown, /x-custom-pat: \[redacted\] \(\d+ characters\)/, 'the header is listed, its value masked');
    assert.match(shown, /x-deploy-blob: \[redacted\]/);
    assert.match(shown, /x-github-delivery: 72d3162e-cc78-11e3-81ab-4c9367dc0958/, 'an identifier stays readable');
    assert.match(shown, /signature valid/);
  });

  it('a body built to make the log masking backtrack (credential words, quotes, form pairs): shown without stalling the extension host', async () => {
    const hostile = `"${'token'.repeat(60_000)}${'"'.repeat(100_000)}${'a=token'.repeat(40_000)}\n${'cookie: '.repeat(50_000)}`.slice(0, receiverLimits.maxBodyBytes);
    assert.equal((await post(receiver.url, hostile)).status, 200);
    const request = receiver.requests[0];
    const { result: shown, measurement } = await measure(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      const text = formatReceivedRequest(request, receiver.secretsToMask());
      await new Promise((resolve) => setTimeout(resolve, 20));
      return text;
    });
    console.log(`      hostile body shown: longest stall ${measurement.maxEventLoopDelayMs.toFixed(0)} ms`);
    assert.match(shown, /first 65536 characters shown/);
    assert.ok(measurement.maxEventLoopDelayMs < 250, `the event loop stalled ${measurement.maxEventLoopDelayMs} ms`);
  });

  it('stop with keep-alive, half-sent and silent connections open: every client socket sees close, no connection is left', async () => {
    const path = new URL(receiver.url).pathname;
    // A second receiver that stays up, with a kept-alive connection answered before any of the
    // first's: its keep-alive timeout ends it before any timeout of the first receiver would end theirs.
    const witness = await startReceiver({ secret: 'whsec-witness' });
    const witnessPath = new URL(witness.url).pathname;
    try {
      const reference = openConnection(witness.port, `POST ${witnessPath} HTTP/1.1\r\nHost: 127.0.0.1:${witness.port}\r\nContent-Length: 2\r\n\r\n{}`);
      await new Promise<void>((resolve) => reference.socket.once('data', () => resolve()));
      let referenceClosed = false;
      void reference.closed.then(() => (referenceClosed = true));

      const keptAlive = openConnection(receiver.port, `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${receiver.port}\r\nContent-Length: 2\r\n\r\n{}`);
      const answered = new Promise<void>((resolve) => keptAlive.socket.once('data', () => resolve()));
      const halfHeaders = openConnection(receiver.port, `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${receiver.port}\r\n`);
      const halfBody = openConnection(receiver.port, `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${receiver.port}\r\nContent-Length: 100\r\n\r\n{"partial":`);
      const silent = openConnection(receiver.port);
      const all = [keptAlive, halfHeaders, halfBody, silent];
      await Promise.all(all.map((connection) => connection.connected));
      await answered;
      await until('the server to hold all four connections', () => receiver.stats().openConnections === all.length);

      await receiver.close();
      assert.equal(receiver.stats().openConnections, 0, 'close() resolves only once every connection is closed');
      await Promise.all(all.map((connection) => connection.closed));
      assert.equal(referenceClosed, false, 'every connection was closed before a keep-alive timeout could have ended one: close() did not wait for the timeouts');
      await assert.rejects(post(receiver.url, '{}'), /ECONNREFUSED/);
      // The witness's connection does end by its timeout, as the first receiver's would have.
      await reference.closed;
    } finally {
      await witness.close();
    }
  });
});
