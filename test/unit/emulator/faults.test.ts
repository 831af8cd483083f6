import assert from 'node:assert/strict';
import { request } from 'node:http';
import { startEmulator } from '../../emulator';
import type { Emulator } from '../../emulator/contract';
import { call } from './client';

const MODEL = 'OpenPipe/Qwen3-14B-Instruct';

/** Sends a request with node:http and reports what arrived before the connection ended. */
function rawRequest(emulator: Emulator, path: string, body?: unknown): Promise<{ status?: number; received: string; error?: string; complete: boolean }> {
  return new Promise((resolve) => {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const req = request(`${emulator.url}${path}`, {
      method: text === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${emulator.apiKey}`, ...(text === undefined ? {} : { 'content-type': 'application/json' }) },
    });
    req.on('response', (res) => {
      let received = '';
      res.setEncoding('utf8');
      res.on('data', (part: string) => (received += part));
      res.on('end', () => resolve({ status: res.statusCode!, received, complete: true }));
      res.on('error', (error) => resolve({ status: res.statusCode!, received, error: error.message, complete: false }));
    });
    req.on('error', (error) => resolve({ received: '', error: error.message, complete: false }));
    req.end(text);
  });
}

describe('emulator: faults', () => {
  let emulator: Emulator;
  before(async () => {
    emulator = await startEmulator({ secondsPerStep: 0.01 });
  });
  afterEach(() => {
    emulator.clearFaults();
    emulator.setLatency(0);
  });
  after(() => emulator.close());

  it('answers with a status, Retry-After and the API error shape, once by default', async () => {
    emulator.addFault({ kind: 'status', status: 429, retryAfter: 2 });
    const faulted = await call(emulator, 'inference', 'GET', '/models');
    assert.equal(faulted.status, 429);
    assert.equal(faulted.headers.get('retry-after'), '2');
    assert.match(faulted.json.error.message, /Concurrency limit/);
    assert.equal((await call(emulator, 'inference', 'GET', '/models')).status, 200);

    emulator.addFault({ kind: 'status', status: 500 });
    const training = await call(emulator, 'training', 'GET', '/health');
    assert.deepEqual([training.status, typeof training.json.detail], [500, 'string']);
  });

  it('offers detail-string and empty bodies', async () => {
    emulator.addFault({ kind: 'status', status: 503, body: 'detail-string' });
    const detail = await call(emulator, 'inference', 'GET', '/models');
    assert.equal(detail.status, 503);
    assert.equal(typeof detail.json.detail, 'string');
    emulator.addFault({ kind: 'status', status: 502, body: 'empty' });
    const empty = await call(emulator, 'inference', 'GET', '/models');
    assert.deepEqual([empty.status, empty.text], [502, '']);
  });

  it('serves an HTML error page like a proxy', async () => {
    emulator.addFault({ kind: 'html', status: 524 });
    const answer = await call(emulator, 'training', 'GET', '/health');
    assert.equal(answer.status, 524);
    assert.match(answer.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(answer.text, /<html/);
    assert.equal(answer.json, undefined);
  });

  it('sends truncated JSON and garbage with status 200', async () => {
    emulator.addFault({ kind: 'truncated-json' });
    const truncated = await call(emulator, 'training', 'GET', '/health');
    assert.equal(truncated.status, 200);
    assert.equal(truncated.headers.get('content-type'), 'application/json');
    assert.ok(truncated.text.startsWith('{'));
    assert.throws(() => JSON.parse(truncated.text));
    emulator.addFault({ kind: 'garbage' });
    const garbage = await call(emulator, 'training', 'GET', '/health');
    assert.equal(garbage.status, 200);
    assert.equal(garbage.json, undefined);
  });

  it('resets the connection before any byte', async () => {
    emulator.addFault({ kind: 'reset' });
    await assert.rejects(fetch(`${emulator.trainingUrl}/health`));
    const raw = await (emulator.addFault({ kind: 'reset' }), rawRequest(emulator, '/training/v1/health'));
    assert.equal(raw.status, undefined);
    assert.ok(raw.error);
  });

  it('cuts a stream after the given number of chunks, without [DONE]', async () => {
    emulator.addFault({ kind: 'cut-stream', afterChunks: 3 });
    const cut = await rawRequest(emulator, '/inference/v1/chat/completions', { model: MODEL, messages: [{ role: 'user', content: '/long 200' }], stream: true });
    assert.equal(cut.status, 200);
    assert.equal(cut.complete, false);
    assert.equal(cut.received.split('\n').filter((line) => line.startsWith('data: ')).length, 3);
    assert.ok(!cut.received.includes('[DONE]'));
    const whole = await rawRequest(emulator, '/inference/v1/chat/completions', { model: MODEL, messages: [{ role: 'user', content: '/long 200' }], stream: true });
    assert.ok(whole.complete && whole.received.includes('data: [DONE]'));
  });

  it('leaves a cut-stream fault for the next chat request', async () => {
    emulator.addFault({ kind: 'cut-stream', afterChunks: 1 });
    assert.equal((await call(emulator, 'inference', 'GET', '/models')).status, 200);
    const cut = await rawRequest(emulator, '/training/v1/chat/completions', { model: MODEL, messages: [{ role: 'user', content: 'hi' }], stream: true });
    assert.equal(cut.complete, false);
  });

  it('matches method and path, and repeats for times or until cleared', async () => {
    emulator.addFault({ kind: 'status', status: 500, method: 'POST', path: '/chat/completions', times: 2 });
    assert.equal((await call(emulator, 'inference', 'GET', '/models')).status, 200);
    const chat = { body: { model: MODEL, messages: [{ role: 'user', content: 'hi' }] } };
    assert.equal((await call(emulator, 'inference', 'POST', '/chat/completions', chat)).status, 500);
    assert.equal((await call(emulator, 'inference', 'POST', '/chat/completions', chat)).status, 500);
    assert.equal((await call(emulator, 'inference', 'POST', '/chat/completions', chat)).status, 200);

    emulator.addFault({ kind: 'status', status: 503, path: '/inference/', times: -1 });
    for (let attempt = 0; attempt < 4; attempt++) assert.equal((await call(emulator, 'inference', 'GET', '/models')).status, 503);
    assert.equal((await call(emulator, 'training', 'GET', '/health')).status, 200);
    emulator.clearFaults();
    assert.equal((await call(emulator, 'inference', 'GET', '/models')).status, 200);
  });

  it('applies faults before authentication', async () => {
    emulator.addFault({ kind: 'status', status: 503 });
    const answer = await call(emulator, 'inference', 'GET', '/models', { anonymous: true });
    assert.equal(answer.status, 503);
  });

  it('adds latency before answering', async () => {
    emulator.setLatency(80);
    const started = performance.now();
    await call(emulator, 'training', 'GET', '/health');
    assert.ok(performance.now() - started >= 75);
  });

  it('fails the system check with 503 and the same body shape', async () => {
    emulator.setSystemCheckFailure('gpu_queue');
    const failing = await call(emulator, 'training', 'GET', '/system-check');
    assert.equal(failing.status, 503);
    assert.equal(failing.json.gpu_queue.success, false);
    assert.equal(typeof failing.json.gpu_queue.error, 'string');
    assert.equal(failing.json.api.success, true);
    emulator.setSystemCheckFailure(undefined);
    assert.equal((await call(emulator, 'training', 'GET', '/system-check')).status, 200);
  });
});

describe('emulator: control endpoint', () => {
  let emulator: Emulator;
  before(async () => {
    emulator = await startEmulator({ secondsPerStep: 0.01 });
  });
  after(() => emulator.close());

  it('describes the state without a key', async () => {
    // A fresh emulator: the counts are the seed's, whatever the other cases created.
    const fresh = await startEmulator({ secondsPerStep: 0.01 });
    try {
      const state = await call(fresh, 'control', 'GET', '/state', { anonymous: true });
      assert.equal(state.status, 200);
      assert.equal(state.json.seeded.trainedModelId, fresh.seeded!.trainedModelId);
      assert.equal(state.json.counts.models, 2);
      assert.equal(state.json.counts.jobs, 3);
    } finally {
      await fresh.close();
    }
  });

  it('adds and clears faults, sets latency and the system check', async () => {
    assert.equal((await call(emulator, 'control', 'POST', '/faults', { body: { kind: 'status', status: 418 } })).status, 200);
    assert.equal((await call(emulator, 'training', 'GET', '/health')).status, 418);
    assert.equal((await call(emulator, 'control', 'POST', '/faults', { body: { kind: 'volcano' } })).status, 400);
    await call(emulator, 'control', 'POST', '/faults', { body: { kind: 'status', status: 500, times: -1 } });
    await call(emulator, 'control', 'DELETE', '/faults');
    assert.equal((await call(emulator, 'training', 'GET', '/health')).status, 200);

    await call(emulator, 'control', 'POST', '/system-check', { body: { fail: 'database' } });
    assert.equal((await call(emulator, 'training', 'GET', '/system-check')).status, 503);
    await call(emulator, 'control', 'POST', '/system-check', { body: { fail: null } });
    assert.equal((await call(emulator, 'training', 'GET', '/system-check')).status, 200);

    await call(emulator, 'control', 'POST', '/latency', { body: { ms: 60 } });
    const started = performance.now();
    await call(emulator, 'training', 'GET', '/health');
    assert.ok(performance.now() - started >= 55);
    await call(emulator, 'control', 'POST', '/latency', { body: { ms: 0 } });
  });

  it('lists and clears recorded requests, which leave out control calls', async () => {
    await call(emulator, 'training', 'GET', '/health');
    const listed = await call(emulator, 'control', 'GET', '/requests');
    assert.ok(listed.json.length > 0);
    assert.ok(listed.json.every((recorded: { path: string }) => !recorded.path.startsWith('/_emulator')));
    await call(emulator, 'control', 'DELETE', '/requests');
    assert.equal(emulator.requests.length, 0);
    assert.deepEqual((await call(emulator, 'control', 'GET', '/requests')).json, []);
  });

  it('creates a model with checkpoints on request', async () => {
    const created = await call(emulator, 'control', 'POST', '/models-with-checkpoints', { body: { name: 'remote', count: 30 } });
    const page = await call(emulator, 'training', 'GET', `/preview/models/${created.json.id}/checkpoints?order=desc&limit=1`);
    assert.equal(page.json.data[0].step, 29);
  });
});
