import assert from 'node:assert/strict';
import { startEmulator } from '../../emulator';
import type { Emulator } from '../../emulator/contract';
import { call } from './client';

describe('emulator: authentication', () => {
  let emulator: Emulator;
  before(async () => {
    emulator = await startEmulator({ secondsPerStep: 0.01, apiKey: 'secret-key' });
  });
  after(() => emulator.close());

  for (const path of ['/health', '/system-check', '/preview/base-models']) {
    it(`serves training ${path} without a key`, async () => {
      const answer = await call(emulator, 'training', 'GET', path, { anonymous: true });
      assert.equal(answer.status, 200);
    });
  }

  it('rejects training calls without a key with a FastAPI detail', async () => {
    const answer = await call(emulator, 'training', 'GET', `/preview/models/${emulator.seeded!.trainedModelId}/checkpoints`, { anonymous: true });
    assert.equal(answer.status, 401);
    assert.equal(typeof answer.json.detail, 'string');
    assert.equal(answer.headers.get('www-authenticate'), 'Bearer');
  });

  it('rejects a wrong key on the training API', async () => {
    const answer = await call(emulator, 'training', 'POST', '/preview/models', { headers: { authorization: 'Bearer nope' }, body: {} });
    assert.equal(answer.status, 401);
    assert.match(answer.json.detail, /Invalid API key/);
  });

  it('rejects a wrong key on the inference API with an error object', async () => {
    const answer = await call(emulator, 'inference', 'GET', '/models', { headers: { authorization: 'Bearer nope' } });
    assert.equal(answer.status, 401);
    assert.equal(answer.json.error.code, 'invalid_api_key');
    assert.equal(typeof answer.json.error.message, 'string');
    assert.equal(typeof answer.json.error.type, 'string');
  });

  it('requires a key on the inference model list', async () => {
    const answer = await call(emulator, 'inference', 'GET', '/models', { anonymous: true });
    assert.equal(answer.status, 401);
  });

  it('accepts a team/project Compat-Project header and rejects any other shape', async () => {
    const good = await call(emulator, 'inference', 'GET', '/models', { headers: { 'compat-project': 'team/project' } });
    assert.equal(good.status, 200);
    for (const bad of ['team', 'team/project/extra', '/project', 'team/']) {
      const answer = await call(emulator, 'inference', 'GET', '/models', { headers: { 'compat-project': bad } });
      assert.equal(answer.status, 401, bad);
      assert.match(answer.json.error.message, /team\/project/);
    }
  });

  it('records every API request with method, path, query, headers and body', async () => {
    const before = emulator.requests.length;
    await call(emulator, 'inference', 'POST', '/chat/completions?trace=1', {
      headers: { 'compat-project': 'team/project' },
      body: { model: 'OpenPipe/Qwen3-14B-Instruct', messages: [{ role: 'user', content: 'hello' }] },
    });
    const recorded = emulator.requests[before]!;
    assert.equal(recorded.method, 'POST');
    assert.equal(recorded.path, '/inference/v1/chat/completions');
    assert.deepEqual(recorded.query, { trace: '1' });
    assert.equal(recorded.headers['compat-project'], 'team/project');
    assert.equal(JSON.parse(recorded.body).messages[0].content, 'hello');
    const listed = await call(emulator, 'control', 'GET', '/requests');
    assert.equal(listed.json.length, emulator.requests.length);
  });

  it('answers unknown paths with 404 and wrong methods with 405', async () => {
    assert.equal((await call(emulator, 'training', 'GET', '/preview/nothing')).status, 404);
    const wrongMethod = await call(emulator, 'training', 'PUT', '/preview/models');
    assert.equal(wrongMethod.status, 405);
    assert.equal(wrongMethod.json.detail, 'Method Not Allowed');
  });
});
