import assert from 'node:assert/strict';
import { isPlatformError, parseRetryAfter, PlatformError, redactSecrets, retryDelay, summarizeErrorBody } from '../../../../src/platform/client';

describe('error bodies', () => {
  it('joins the locations of a validation list and the items with "; "', () => {
    const body = JSON.stringify({
      detail: [
        { loc: ['body', 'model_id'], msg: 'Field required', type: 'missing' },
        { loc: ['body', 'trajectory_groups', 0, 'trajectories'], msg: 'Input should be a valid list', type: 'list_type' },
      ],
    });
    const summary = summarizeErrorBody(body, 'application/json');
    assert.deepEqual(summary.details, ['body.model_id: Field required', 'body.trajectory_groups.0.trajectories: Input should be a valid list']);
    assert.equal(summary.text, 'body.model_id: Field required; body.trajectory_groups.0.trajectories: Input should be a valid list');
  });

  it('reads a string detail, an OpenAI-style error and a plain message', () => {
    assert.equal(summarizeErrorBody('{"detail":"Failed to create model due to workflow error."}', undefined).text, 'Failed to create model due to workflow error.');
    assert.equal(summarizeErrorBody('{"error":{"message":"Concurrency limit reached for requests","type":"rate_limit_error","code":"x"}}', undefined).text, 'Concurrency limit reached for requests');
    assert.equal(summarizeErrorBody('{"message":"nope"}', undefined).text, 'nope');
  });

  it('recognises an HTML page by its content type or its first tag', () => {
    assert.equal(summarizeErrorBody('<p>x</p>', 'text/html; charset=utf-8').html, true);
    assert.equal(summarizeErrorBody('  <!DOCTYPE html><html></html>', undefined).html, true);
    assert.equal(summarizeErrorBody('{"detail":"x"}', 'application/json').html, false);
  });

  it('keeps plain text on one line and marks binary data as such', () => {
    assert.equal(summarizeErrorBody('upstream\n  connect error', 'text/plain').text, 'upstream connect error');
    assert.equal(summarizeErrorBody('\u00ff\u0001\u0002garbage', undefined).text, '(binary data)');
    assert.equal(summarizeErrorBody('   ', undefined).text, undefined);
  });
});

describe('Retry-After and back-off', () => {
  it('reads delay-seconds and HTTP dates', () => {
    assert.equal(parseRetryAfter('2'), 2000);
    assert.equal(parseRetryAfter(['1.5']), 1500);
    const now = Date.parse('2025-06-01T00:00:00Z');
    assert.equal(parseRetryAfter('Sun, 01 Jun 2025 00:00:03 GMT', now), 3000);
    assert.equal(parseRetryAfter('Sat, 31 May 2025 23:00:00 GMT', now), 0, 'a date in the past means now');
    assert.equal(parseRetryAfter('soon'), undefined);
    assert.equal(parseRetryAfter(undefined), undefined);
  });

  it('draws a full-jitter delay under an exponential, capped ceiling', () => {
    const policy = { baseDelayMs: 100, maxDelayMs: 1000 };
    assert.equal(
      retryDelay(1, policy, undefined, () => 0.999),
      99,
    );
    assert.equal(
      retryDelay(3, policy, undefined, () => 0.5),
      200,
    );
    assert.equal(
      retryDelay(10, policy, undefined, () => 0.999),
      999,
    );
    assert.equal(
      retryDelay(2, policy, undefined, () => 0),
      0,
    );
  });

  it('uses Retry-After instead, capped by the maximum delay', () => {
    const policy = { baseDelayMs: 100, maxDelayMs: 1000 };
    assert.equal(
      retryDelay(1, policy, 700, () => 0),
      700,
    );
    assert.equal(
      retryDelay(1, policy, 60_000, () => 0),
      1000,
    );
  });
});

describe('redactSecrets', () => {
  it('replaces every occurrence of every secret, longest first', () => {
    assert.equal(redactSecrets('key sk-abc and sk-abc-long, sk-abc', ['sk-abc', 'sk-abc-long']), 'key [redacted] and [redacted], [redacted]');
  });

  it('masks bearer tokens it was not told about', () => {
    assert.equal(redactSecrets('Authorization: Bearer abc.DEF-123', []), 'Authorization: Bearer [redacted]');
  });

  it('leaves text alone when there is nothing to hide', () => {
    assert.equal(redactSecrets('GET /v1/models failed: 401 Invalid API key', ['', 'zzz']), 'GET /v1/models failed: 401 Invalid API key');
  });
});

describe('PlatformError', () => {
  it('is recognised as an instance of its one class, and a lookalike is not', () => {
    const lookalike = Object.assign(new Error('x'), { name: 'PlatformError', kind: 'http', api: 'training', method: 'GET', path: '/v1/health', status: 500 });
    assert.equal(isPlatformError(lookalike), false);
    assert.equal(isPlatformError(new Error('x')), false);
    assert.equal(isPlatformError(undefined), false);
    const own = new PlatformError({ kind: 'http', message: 'm', api: 'training', method: 'GET', path: '/v1/health', status: 500 });
    assert.equal(isPlatformError(own), true);
    assert.equal(own.name, 'PlatformError');
  });
});
