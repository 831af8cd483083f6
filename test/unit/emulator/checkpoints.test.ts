import assert from 'node:assert/strict';
import { startEmulator } from '../../emulator';
import type { Emulator } from '../../emulator/contract';
import { call } from './client';

interface Page {
  object: string;
  data: { id: string; step: number; metrics: Record<string, number> }[];
  first_id: string;
  last_id: string;
  has_more: boolean;
}

async function allPages(emulator: Emulator, modelId: string, order: 'asc' | 'desc', limit: number): Promise<{ steps: number[]; pages: number }> {
  const steps: number[] = [];
  let after: string | undefined;
  let pages = 0;
  for (;;) {
    const query = new URLSearchParams({ limit: String(limit), order, ...(after ? { after } : {}) });
    const answer = await call(emulator, 'training', 'GET', `/preview/models/${modelId}/checkpoints?${query}`);
    assert.equal(answer.status, 200, answer.text);
    const page = answer.json as Page;
    pages++;
    steps.push(...page.data.map((checkpoint) => checkpoint.step));
    // A model always has its step-0 checkpoint, so no page of it is empty.
    assert.ok(page.data.length > 0, `page ${pages} is empty`);
    assert.equal(page.first_id, page.data[0]!.id);
    assert.equal(page.last_id, page.data.at(-1)!.id);
    if (!page.has_more) return { steps, pages };
    after = page.last_id;
  }
}

describe('emulator: checkpoints', () => {
  let emulator: Emulator;
  let modelId: string;
  before(async () => {
    emulator = await startEmulator({ secondsPerStep: 0.01, seed: false });
    modelId = await emulator.createModelWithCheckpoints('paged', 53);
  });
  after(() => emulator.close());

  it('pages in ascending order to the end', async () => {
    const { steps, pages } = await allPages(emulator, modelId, 'asc', 10);
    assert.deepEqual(
      steps,
      Array.from({ length: 53 }, (_, step) => step),
    );
    assert.equal(pages, 6);
  });

  it('pages in descending order to the end', async () => {
    const { steps } = await allPages(emulator, modelId, 'desc', 20);
    assert.deepEqual(
      steps,
      Array.from({ length: 53 }, (_, index) => 52 - index),
    );
  });

  it('defaults to 20 ascending and ends an exact last page without has_more', async () => {
    const first = (await call(emulator, 'training', 'GET', `/preview/models/${modelId}/checkpoints`)).json as Page;
    assert.equal(first.object, 'list');
    assert.equal(first.data.length, 20);
    assert.equal(first.data[0]!.step, 0);
    const id = await emulator.createModelWithCheckpoints('exact', 20);
    const exact = (await call(emulator, 'training', 'GET', `/preview/models/${id}/checkpoints?limit=20`)).json as Page;
    assert.equal(exact.has_more, false);
  });

  it('carries numeric metrics on trained steps', async () => {
    const page = (await call(emulator, 'training', 'GET', `/preview/models/${modelId}/checkpoints?limit=2&order=desc`)).json as Page;
    const metrics = page.data[0]!.metrics;
    for (const name of ['loss', 'reward', 'learning_rate', 'num_tokens']) assert.equal(typeof metrics[name], 'number', name);
  });

  it('reports an unknown cursor as a 422 on after', async () => {
    const answer = await call(emulator, 'training', 'GET', `/preview/models/${modelId}/checkpoints?after=no-such-id`);
    assert.equal(answer.status, 422);
    assert.deepEqual(answer.json.detail[0].loc, ['query', 'after']);
    assert.match(answer.json.detail[0].msg, /no-such-id/);
  });

  it('deletes steps and reports the ones it did not find', async () => {
    const id = await emulator.createModelWithCheckpoints('pruned', 10);
    const answer = await call(emulator, 'training', 'DELETE', `/preview/models/${id}/checkpoints`, { body: { steps: [2, 3, 99, 3] } });
    assert.deepEqual(answer.json, { deleted_count: 2, not_found_steps: [99] });
    const { steps } = await allPages(emulator, id, 'asc', 3);
    assert.deepEqual(steps, [0, 1, 4, 5, 6, 7, 8, 9]);
    const { steps: descending } = await allPages(emulator, id, 'desc', 3);
    assert.deepEqual(descending, [9, 8, 7, 6, 5, 4, 1, 0]);
  });

  it('answers the first and a deep page of a 10,000-checkpoint model, reading on from a cursor either way', async () => {
    const id = await emulator.createModelWithCheckpoints('big', 10_000);
    const first = (await call(emulator, 'training', 'GET', `/preview/models/${id}/checkpoints?limit=100&order=desc`)).json as Page;
    assert.equal(first.data[0]!.step, 9999);
    let after = first.last_id;
    for (let page = 0; page < 50; page++) {
      const next = (await call(emulator, 'training', 'GET', `/preview/models/${id}/checkpoints?limit=100&order=desc&after=${after}`)).json as Page;
      assert.equal(next.data.length, 100, `page ${page + 2} is full`);
      after = next.last_id;
    }
    // The cursor is step 4900; the same cursor reads on in either direction.
    const onwards = (await call(emulator, 'training', 'GET', `/preview/models/${id}/checkpoints?limit=1&order=desc&after=${after}`)).json as Page;
    assert.equal(onwards.data[0]!.step, 4899);
    const back = (await call(emulator, 'training', 'GET', `/preview/models/${id}/checkpoints?limit=1&after=${after}`)).json as Page;
    assert.equal(back.data[0]!.step, 4901);
  });
});
