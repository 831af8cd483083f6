import assert from 'node:assert/strict';
import { startEmulator } from '../../emulator';
import type { Emulator } from '../../emulator/contract';
import { call, trajectoryGroup } from './client';

describe('emulator: validation errors', () => {
  let emulator: Emulator;
  before(async () => {
    emulator = await startEmulator({ secondsPerStep: 0.01 });
  });
  after(() => emulator.close());

  it('lists each missing field with a FastAPI loc', async () => {
    const answer = await call(emulator, 'training', 'POST', '/preview/models', { body: { project: 'p' } });
    assert.equal(answer.status, 422);
    assert.deepEqual(
      answer.json.detail.map((issue: { loc: unknown[]; msg: string; type: string }) => [issue.loc, issue.msg, issue.type]),
      [
        [['body', 'name'], 'Field required', 'missing'],
        [['body', 'base_model'], 'Field required', 'missing'],
      ],
    );
  });

  it('reports ill-typed fields', async () => {
    const answer = await call(emulator, 'training', 'POST', '/preview/models', { body: { project: 1, name: 'n', base_model: 'b', return_existing: 'yes' } });
    assert.equal(answer.status, 422);
    const types = Object.fromEntries(answer.json.detail.map((issue: { loc: string[]; type: string }) => [issue.loc.join('.'), issue.type]));
    assert.deepEqual(types, { 'body.project': 'string_type', 'body.return_existing': 'bool_type' });
  });

  it('reports an unparsable JSON body as json_invalid', async () => {
    const answer = await call(emulator, 'training', 'POST', '/preview/models', { rawBody: '{"project": ', headers: { 'content-type': 'application/json' } });
    assert.equal(answer.status, 422);
    assert.equal(answer.json.detail[0].type, 'json_invalid');
    assert.equal(answer.json.detail[0].loc[0], 'body');
  });

  it('reports a missing body as a missing body', async () => {
    const model = emulator.seeded!.trainedModelId;
    const answer = await call(emulator, 'training', 'DELETE', `/preview/models/${model}/checkpoints`);
    assert.equal(answer.status, 422);
    assert.deepEqual(answer.json.detail[0].loc, ['body']);
    assert.equal(answer.json.detail[0].type, 'missing');
  });

  it('points into nested trajectory groups', async () => {
    const answer = await call(emulator, 'training', 'POST', '/preview/training-jobs', {
      body: { model_id: emulator.seeded!.trainedModelId, trajectory_groups: [trajectoryGroup(), { metadata: {} }] },
    });
    assert.equal(answer.status, 422);
    assert.deepEqual(answer.json.detail[0].loc, ['body', 'trajectory_groups', 1, 'trajectories']);
  });

  it('checks the reward and choices of a trajectory', async () => {
    const group = { trajectories: [{ messages_and_choices: [{ index: 0, message: { role: 'assistant', content: 'x' } }], reward: 'high' }] };
    const answer = await call(emulator, 'training', 'POST', `/preview/models/${emulator.seeded!.trainedModelId}/log`, { body: { split: 'val', trajectory_groups: [group] } });
    assert.equal(answer.status, 422);
    const locs = answer.json.detail.map((issue: { loc: unknown[] }) => issue.loc.join('.'));
    assert.deepEqual(locs, ['body.trajectory_groups.0.trajectories.0.messages_and_choices.0.finish_reason', 'body.trajectory_groups.0.trajectories.0.reward']);
  });

  for (const limit of ['0', '101', 'ten']) {
    it(`rejects limit=${limit} on the query`, async () => {
      const answer = await call(emulator, 'training', 'GET', `/preview/models/${emulator.seeded!.trainedModelId}/checkpoints?limit=${limit}`);
      assert.equal(answer.status, 422);
      assert.deepEqual(answer.json.detail[0].loc, ['query', 'limit']);
    });
  }

  it('rejects an unknown order', async () => {
    const answer = await call(emulator, 'training', 'GET', `/preview/models/${emulator.seeded!.trainedModelId}/checkpoints?order=up`);
    assert.equal(answer.status, 422);
    assert.deepEqual(answer.json.detail[0].loc, ['query', 'order']);
  });

  it('answers invalid inference requests with a 400 error object', async () => {
    const answer = await call(emulator, 'inference', 'POST', '/chat/completions', { body: { model: 'OpenPipe/Qwen3-14B-Instruct' } });
    assert.equal(answer.status, 400);
    assert.equal(answer.json.error.type, 'invalid_request_error');
    assert.match(answer.json.error.message, /Field required/);
  });
});
