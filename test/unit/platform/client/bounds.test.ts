import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { parseRetryAfter, retryDelay } from '../../../../src/platform/client';
import { resolveApiBase } from '../../../../src/platform/client/baseUrl';
import { describeSize, readCapped } from '../../../../src/platform/client/bodyLimits';
import { resolveClientOptions } from '../../../../src/platform/client/options';
import { fillPath, pathIdProblem } from '../../../../src/platform/client/pathIds';

const credentials = { getApiKey: async () => 'k' };
const baseOptions = { trainingUrl: 'https://t/v1', inferenceUrl: 'https://i/v1', credentials };

describe('Retry-After, hostile values', () => {
  const now = Date.parse('2025-06-01T00:00:00Z');

  it('reads only delay-seconds and the three HTTP date forms', () => {
    assert.equal(parseRetryAfter('0', now), 0);
    assert.equal(parseRetryAfter('7', now), 7000);
    assert.equal(parseRetryAfter('Sun, 01 Jun 2025 00:00:05 GMT', now), 5000);
    assert.equal(parseRetryAfter('Sunday, 01-Jun-25 00:00:05 GMT', now), 5000);
    assert.equal(parseRetryAfter('Sun Jun  1 00:00:05 2025', now), 5000);
  });

  it('ignores negative numbers, exponents, lists and text that Date.parse would accept', () => {
    for (const value of ['-5', '1e9', '1, 2', '+3', '5 s', 'soon', 'Wed, 99 Foo 2025 25:61:61 GMT', '2025-06-01', ' ', '']) {
      assert.equal(parseRetryAfter(value, now), undefined, JSON.stringify(value));
    }
  });

  it('gives 0 for a past date and a finite number for an absurdly long delay', () => {
    assert.equal(parseRetryAfter('Sat, 31 May 2025 23:00:00 GMT', now), 0);
    assert.equal(parseRetryAfter('1000000000', now), 1e12);
    const huge = parseRetryAfter('9'.repeat(60), now)!;
    assert.ok(Number.isFinite(huge) && huge > 0);
    assert.equal(parseRetryAfter('9'.repeat(400), now), undefined, 'longer than any real header');
  });

  it('clamps every wait to [0, maxDelayMs] and never returns NaN', () => {
    const policy = { baseDelayMs: 100, maxDelayMs: 1000 };
    assert.equal(retryDelay(1, policy, 0), 0);
    assert.equal(retryDelay(1, policy, -5), 0);
    assert.equal(retryDelay(1, policy, 1e12), 1000);
    assert.equal(retryDelay(1, policy, Infinity), 1000);
    const fallback = retryDelay(1, policy, NaN, () => 0.5);
    assert.equal(fallback, 50, 'a NaN Retry-After falls back to the back-off');
    assert.equal(
      retryDelay(1, { baseDelayMs: NaN, maxDelayMs: NaN }, undefined, () => 0.5),
      0,
    );
    assert.equal(
      retryDelay(1_000_000, policy, undefined, () => 0.999),
      999,
    );
  });
});

describe('client options, hostile values', () => {
  it('replaces NaN, Infinity and negative numbers with bounded values', () => {
    const resolved = resolveClientOptions({ ...baseOptions, timeoutMs: NaN, maxRetries: Infinity, retryBaseDelayMs: -1, retryMaxDelayMs: NaN, maxJsonBytes: -1, streamIdleTimeoutMs: Infinity });
    assert.equal(resolved.timeoutMs, 60_000);
    assert.equal(resolved.maxRetries, 3);
    assert.equal(resolved.retryBaseDelayMs, 500);
    assert.equal(resolved.retryMaxDelayMs, 20_000);
    assert.equal(resolved.maxJsonBytes, 32 * 2 ** 20);
    assert.equal(resolved.streamIdleTimeoutMs, 60_000);
  });

  it('bounds retries and timers whatever is asked', () => {
    const resolved = resolveClientOptions({ ...baseOptions, maxRetries: 1e9, timeoutMs: 1e12, retryMaxDelayMs: 1e12 });
    assert.equal(resolved.maxRetries, 10);
    assert.equal(resolved.timeoutMs, 2 ** 31 - 1);
    assert.equal(resolved.retryMaxDelayMs, 2 ** 31 - 1);
  });

  it('has the documented defaults', () => {
    const resolved = resolveClientOptions(baseOptions);
    assert.deepEqual(
      [resolved.maxJsonBytes, resolved.maxErrorBodyBytes, resolved.maxStreamEventSize, resolved.connectionsPerOrigin, resolved.streamIdleTimeoutMs],
      [32 * 2 ** 20, 64 * 2 ** 10, 16 * 2 ** 20, 16, 60_000],
    );
  });
});

describe('API addresses', () => {
  it('accepts http:// only for this computer', () => {
    for (const address of [
      'http://127.0.0.1:8000/v1',
      'http://127.1.2.3/v1',
      'http://127.1/v1',
      'http://localhost:3000/v1',
      'http://LOCALHOST/v1',
      'http://[::1]:9/v1',
      'http://[0:0:0:0:0:0:0:1]/v1',
    ]) {
      assert.equal(resolveApiBase('training API', address).ok, true, address);
    }
  });

  it('refuses http:// to any other host, saying to use https', () => {
    for (const address of [
      'http://203.0.113.1/v1',
      'http://example.com/v1',
      'http://0.0.0.0/v1',
      'http://localhost.attacker.example/v1',
      'http://127.0.0.1.nip.io/v1',
      'http://[::ffff:7f00:1]/v1',
      'http://10.0.0.2/v1',
    ]) {
      const resolved = resolveApiBase('training API', address);
      assert.equal(resolved.ok, false, address);
      if (!resolved.ok) assert.equal(resolved.problem, `the training API address "${address}" uses http:// for a host other than this computer; use https:// so your key is sent encrypted`);
    }
  });

  it('accepts https:// anywhere', () => {
    for (const address of ['https://203.0.113.1/v1', 'https://api.example.com/v1', 'https://localhost/v1']) {
      assert.equal(resolveApiBase('inference API', address).ok, true, address);
    }
  });
});

describe('ids in paths', () => {
  it('refuses dot segments, separators, escapes, control characters, empty and overlong ids', () => {
    for (const id of ['..', '.', 'a/../b', '%2e%2e', '%2E%2E', 'a%2fb', '', 'a/b', 'a?b', 'a#b', 'a\\b', 'a\u0000b', 'a\u007fb', 'a\u0085b', 'x'.repeat(513)]) {
      assert.notEqual(pathIdProblem(id), undefined, JSON.stringify(id));
    }
    assert.equal(pathIdProblem(undefined), 'it is not text');
  });

  it('accepts ordinary ids, dots inside included', () => {
    for (const id of ['6f1c2a8e-0c7b-4f7e-9a55-2b1c8d3e4f5a', 'model.v2', '...', 'a..b', 'job_01:step3', 'é 🙂', 'x'.repeat(512)]) {
      assert.equal(pathIdProblem(id), undefined, id);
    }
  });

  it('fills a template with percent-encoded ids, or says which id is wrong', () => {
    assert.deepEqual(fillPath('/preview/models/{modelId}/checkpoints', { modelId: 'a b:c' }), { ok: true, path: '/preview/models/a%20b%3Ac/checkpoints' });
    assert.deepEqual(fillPath('/preview/training-jobs/{jobId}', { jobId: '..' }), {
      ok: false,
      problem: 'the job id ".." cannot be used in a request address (it is a dot segment); nothing was sent',
    });
    assert.equal(fillPath('/preview/models/{modelId}', {}).ok, false, 'a missing id is refused, not sent as "undefined"');
    const control = fillPath('/m/{modelId}', { modelId: 'a\u0085b' });
    assert.ok(!control.ok && control.problem.includes('"a\\u0085b"'), 'control characters are shown escaped');
  });

  it('leaves a template that names no id as it is, whatever ids are given', () => {
    assert.deepEqual(fillPath('/models', undefined), { ok: true, path: '/models' });
    assert.deepEqual(fillPath('/models', { modelId: '..' }), { ok: true, path: '/models' });
  });
});

describe('capped body reads', () => {
  const body = (...parts: string[]) => Readable.from(parts.map((part) => Buffer.from(part)));

  it('reads a body up to the cap whole', async () => {
    const read = await readCapped(body('ab', 'cd'), 4, { refuseAnnouncedOverflow: true });
    assert.deepEqual([Buffer.from(read.bytes).toString(), read.complete], ['abcd', true]);
  });

  it('keeps at most the cap of a longer body, and destroys it', async () => {
    const stream = body('abc', 'def', 'ghi');
    const read = await readCapped(stream, 5, { refuseAnnouncedOverflow: false });
    assert.deepEqual([Buffer.from(read.bytes).toString(), read.complete], ['abcde', false]);
    assert.equal(stream.destroyed, true);
  });

  it('refuses without reading when Content-Length announces more than the cap', async () => {
    const stream = body('abc');
    const read = await readCapped(stream, 2, { refuseAnnouncedOverflow: true, contentLength: '3' });
    assert.deepEqual([read.bytes.byteLength, read.complete, stream.destroyed], [0, false, true]);
  });

  it('names sizes in binary units', () => {
    assert.deepEqual([describeSize(32 * 2 ** 20), describeSize(64 * 1024), describeSize(1500), describeSize(2 ** 31)], ['32 MiB', '64 KiB', '1.5 KiB', '2 GiB']);
  });
});
