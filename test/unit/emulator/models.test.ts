import assert from 'node:assert/strict';
import { startEmulator } from '../../emulator';
import type { Emulator } from '../../emulator/contract';
import { trajectoryGroup } from '../../support/builders';
import { call } from './client';

const BASE = 'OpenPipe/Qwen3-14B-Instruct';

describe('emulator: models', () => {
  let emulator: Emulator;
  before(async () => {
    emulator = await startEmulator({ secondsPerStep: 0.01, seed: false });
  });
  after(() => emulator.close());

  it('creates a model in the default entity with a step-0 checkpoint', async () => {
    const created = await call(emulator, 'training', 'POST', '/preview/models', { body: { project: 'p', name: 'first', base_model: BASE } });
    assert.equal(created.status, 200);
    assert.match(created.json.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.deepEqual({ ...created.json, id: undefined, run_id: undefined }, { id: undefined, entity: 'emulator-entity', project: 'p', name: 'first', base_model: BASE, run_id: undefined });
    assert.equal(typeof created.json.run_id, 'string');
    const checkpoints = await call(emulator, 'training', 'GET', `/preview/models/${created.json.id}/checkpoints`);
    assert.deepEqual(
      checkpoints.json.data.map((checkpoint: { step: number }) => checkpoint.step),
      [0],
    );
  });

  it('returns the existing model when asked, and refuses a duplicate otherwise', async () => {
    const body = { entity: 'team', project: 'p', name: 'twice', base_model: BASE };
    const first = await call(emulator, 'training', 'POST', '/preview/models', { body });
    const again = await call(emulator, 'training', 'POST', '/preview/models', { body: { ...body, return_existing: true } });
    assert.equal(again.status, 200);
    assert.equal(again.json.id, first.json.id);
    const duplicate = await call(emulator, 'training', 'POST', '/preview/models', { body });
    assert.equal(duplicate.status, 409);
    assert.match(duplicate.json.detail, /^Model .* already exists$/);
  });

  it('refuses an unknown base model with a readable detail', async () => {
    const answer = await call(emulator, 'training', 'POST', '/preview/models', { body: { project: 'p', name: 'x', base_model: 'gpt-unknown' } });
    assert.equal(answer.status, 400);
    assert.match(answer.json.detail, /gpt-unknown/);
  });

  it('deletes a model with its checkpoints', async () => {
    const id = await emulator.createModelWithCheckpoints('doomed', 7);
    const deleted = await call(emulator, 'training', 'DELETE', `/preview/models/${id}`);
    assert.deepEqual(deleted.json, { model_id: id, deleted_checkpoints: 7, deleted_run: true });
    const again = await call(emulator, 'training', 'DELETE', `/preview/models/${id}`);
    assert.equal(again.status, 404);
    assert.deepEqual(again.json, { detail: 'Model not found' });
    assert.equal((await call(emulator, 'training', 'GET', `/preview/models/${id}/checkpoints`)).status, 404);
  });

  it('keeps logged trajectory groups', async () => {
    const id = await emulator.createModelWithCheckpoints('logged', 1);
    const group = trajectoryGroup({ question: 'hi', withAnswer: false, reward: 0.5 });
    const answer = await call(emulator, 'training', 'POST', `/preview/models/${id}/log`, { body: { split: 'val', trajectory_groups: [group, group] } });
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.json, {});
    const unknown = await call(emulator, 'training', 'POST', '/preview/models/nope/log', { body: { split: 'val', trajectory_groups: [] } });
    assert.equal(unknown.status, 404);
  });

  it('lists base models and the inference catalogue', async () => {
    const base = await call(emulator, 'training', 'GET', '/preview/base-models');
    assert.ok(base.json.includes(BASE));
    const models = await call(emulator, 'inference', 'GET', '/models');
    assert.equal(models.json.object, 'list');
    for (const model of models.json.data) {
      assert.deepEqual(
        Object.keys(model)
          .filter((key) => key !== 'max_model_len')
          .sort(),
        ['created', 'id', 'object', 'owned_by', 'root'],
      );
      assert.equal(model.object, 'model');
    }
    assert.ok(models.json.data.some((model: { id: string }) => model.id.includes('reason')));
  });
});
