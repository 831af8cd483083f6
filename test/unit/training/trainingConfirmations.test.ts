import { strict as assert } from 'node:assert';
import {
  createModelConfirmation,
  deleteCheckpointsConfirmation,
  deleteModelConfirmation,
  logConfirmation,
  modelLine,
  sftConfirmation,
  trainingConfirmation,
} from '../../../src/training/model/trainingConfirmations';

const model = { id: '3f1c9a52-7d0e-4a8b-9c61-2b5e8f0d4a17', entity: 'team', project: 'demo', name: 'agent-001' };
const api = 'https://api.training.example/v1';
const words = (confirmation: { message: string; detail: string }) => `${confirmation.message}\n${confirmation.detail}`;

describe('confirmations of the costly sidebar commands', () => {
  it('names the model by its full name and its id, or says its name is not known', () => {
    assert.equal(modelLine(model), `Model: "team/demo/agent-001", id ${model.id}`);
    assert.equal(modelLine({ id: model.id, name: '' }), `Model: id ${model.id} (its name is not known here)`);
  });

  it('a model name from the server holding a line break stays on its line, visibly escaped', () => {
    const forged = deleteModelConfirmation({ ...model, name: 'ok\n- step 24 · reward 0.99' }, api, undefined);
    assert.ok(!/^- step 24/m.test(words(forged)), words(forged));
    assert.match(forged.message, /"ok\\n- step 24 · reward 0\.99"/);
  });

  it('deleting checkpoints names every step as ranges, never cut, with the model and the host', () => {
    const steps = [...Array.from({ length: 100 }, (_, step) => step), 120, 140, 141, 142, 300];
    const confirmation = deleteCheckpointsConfirmation(model, steps.reverse(), api);
    assert.equal(confirmation.message, 'Delete 105 checkpoints of "agent-001"?');
    assert.match(confirmation.detail, /^Steps: 0–99, 120, 140–142, 300$/m);
    assert.match(confirmation.detail, new RegExp(`id ${model.id}`));
    assert.match(confirmation.detail, /^Training API host: api\.training\.example$/m);
    assert.equal(confirmation.action, 'Delete Checkpoints');
    const one = deleteCheckpointsConfirmation(model, [7], api);
    assert.match(one.detail, /^Step: 7$/m);
    assert.equal(one.action, 'Delete Checkpoint');
  });

  it('ten thousand scattered steps are all named', () => {
    const steps = Array.from({ length: 10_000 }, (_, index) => index * 2);
    const detail = deleteCheckpointsConfirmation(model, steps, api).detail;
    for (const step of [0, 2, 9_998, 19_998]) assert.match(detail, new RegExp(`(^|, |: )${step}(,|$)`, 'm'));
  });

  it('deleting a model names it, its id, the checkpoints listed and the host', () => {
    const confirmation = deleteModelConfirmation(model, api, { count: 250, more: true });
    assert.match(words(confirmation), /250 checkpoints listed here, and more not yet listed/);
    assert.match(words(confirmation), new RegExp(model.id));
    assert.match(words(confirmation), /^Training API host: api\.training\.example$/m);
  });

  it('training names the groups, the trajectories, the file, the picked groups, the model, the settings and the host', () => {
    const confirmation = trainingConfirmation({
      source: { name: 'run.jsonl', path: '/work/repo/run.jsonl', picked: [1, 2, 3, 7, 9, 10] },
      groups: 6,
      trajectories: 48,
      model,
      config: { learning_rate: 1e-5 },
      trainingApiUrl: api,
    });
    assert.equal(confirmation.message, 'Start a training job on "agent-001" with 6 trajectory groups from run.jsonl?');
    const detail = confirmation.detail.split('\n');
    assert.ok(detail.includes('6 trajectory groups, 48 trajectories.'));
    assert.ok(detail.includes('File: /work/repo/run.jsonl'));
    assert.ok(detail.includes('Groups of the file (numbered from 1): 1–3, 7, 9, 10'));
    assert.ok(detail.includes('Experimental config: {\\"learning_rate\\":0.00001}'), confirmation.detail);
    assert.ok(detail.includes('Training API host: api.training.example'));
    assert.equal(confirmation.action, 'Start Training');
  });

  it('logging names the split, the counts and the file', () => {
    const confirmation = logConfirmation({ source: { name: 'a.jsonl', path: '/r/a.jsonl' }, groups: 1, trajectories: 1, model, split: 'val', trainingApiUrl: api });
    assert.equal(confirmation.message, 'Log 1 trajectory group from a.jsonl to "agent-001" (split "val")?');
    assert.match(confirmation.detail, /^1 trajectory group, 1 trajectory\.$/m);
  });

  it('fine-tuning shows the data URL’s whole host on its own line, however long the path', () => {
    const url = `https://data.attacker.example/${'a/'.repeat(400)}sft.jsonl?sig=1`;
    const confirmation = sftConfirmation({ model, dataUrl: url, config: { batch_size: 8, learning_rate: [1e-5, 5e-6] }, trainingApiUrl: 'http://127.0.0.1:8787/v1' });
    const detail = confirmation.detail.split('\n');
    assert.ok(detail.includes('Training data host: data.attacker.example'));
    assert.ok(detail.includes(`Training data: ${url}`), 'the whole address, never cut');
    assert.ok(detail.includes('Settings: batch size 8, learning rate 0.00001, 0.000005'));
    assert.ok(detail.includes('Training API host: 127.0.0.1:8787 (http: not encrypted)'));
    const userinfo = sftConfirmation({ model, dataUrl: 'https://trusted.example@evil.example/x', config: undefined, trainingApiUrl: api });
    assert.match(userinfo.detail, /^Training data host: evil\.example$/m, 'the real host, not the one in the user part');
  });

  it('creating a model names every field, the entity default, what happens when the name is taken, and the host', () => {
    const confirmation = createModelConfirmation({ project: 'demo', name: 'fresh', base_model: 'OpenPipe/Qwen3-14B-Instruct', return_existing: true }, api);
    assert.equal(confirmation.message, 'Create the training model "fresh" in project "demo"?');
    assert.match(confirmation.detail, /^Base model: "OpenPipe\/Qwen3-14B-Instruct"$/m);
    assert.match(confirmation.detail, /^Entity: your default entity$/m);
    assert.match(confirmation.detail, /existing model is added instead/);
    assert.match(confirmation.detail, /^Training API host: api\.training\.example$/m);
  });
});
