import * as assert from 'node:assert/strict';
import type { Checkpoint, CheckpointQuery, Page } from '../../../src/platform/client/types';
import { CheckpointPages, liveRefreshIntervalMs, maxArrivedCheckpoints, type CheckpointSource } from '../../../src/training/host/models/checkpointPages';
import { FakeClock, settle } from '../support/fakeClock';

/** A model whose checkpoints grow while a job trains it; pages newest first, as the platform serves them. */
function trainingModel(initial: number) {
  let count = initial;
  const requests: CheckpointQuery[] = [];
  const checkpoint = (step: number): Checkpoint => ({ id: `c${step}`, step, metrics: { loss: 1 / (step + 1) } }) as Checkpoint;
  const source: CheckpointSource = async (_modelId, query): Promise<Page<Checkpoint>> => {
    requests.push(query);
    const all = Array.from({ length: count }, (_, index) => checkpoint(count - 1 - index));
    const start = query.after ? all.findIndex((item) => item.id === query.after) + 1 : 0;
    const data = all.slice(start, start + (query.limit ?? 100));
    return { object: 'list', data, first_id: data[0]?.id, last_id: data.at(-1)?.id, has_more: start + data.length < all.length } as Page<Checkpoint>;
  };
  return { source, requests, step: (steps = 1) => (count += steps) };
}

const steps = (items: readonly Checkpoint[]) => items.map((item) => item.step);

describe('checkpoints of a model being trained', () => {
  it('puts new checkpoints on top without dropping the pages already loaded', async () => {
    const model = trainingModel(150);
    const pages = new CheckpointPages(model.source, new FakeClock());
    const list = pages.of('m');
    await list.first();
    await list.loadMore();
    assert.equal(list.items.length, 150);
    model.step(3);
    assert.equal(await list.readNewest(), true);
    assert.deepEqual(steps(list.items).slice(0, 5), [152, 151, 150, 149, 148]);
    assert.equal(list.items.length, 153);
    assert.equal(new Set(list.items.map((item) => item.id)).size, 153, 'no checkpoint twice');
    assert.equal(await list.readNewest(), false, 'nothing new, no change');
  });

  it('starts over when more arrived than a page holds, so no gap is ever shown', async () => {
    const model = trainingModel(10);
    const list = new CheckpointPages(model.source, new FakeClock()).of('m');
    await list.first();
    model.step(150);
    assert.equal(await list.readNewest(), true);
    assert.equal(list.started, false, 'read again from the top on the next look');
    assert.deepEqual(steps(await list.first()).slice(0, 2), [159, 158]);
  });

  it('keeps at most a thousand checkpoints that arrived live above the pages, then starts over', async () => {
    const model = trainingModel(200);
    const list = new CheckpointPages(model.source, new FakeClock()).of('m');
    await list.first();
    let rounds = 0;
    while (list.started && rounds < 20) {
      model.step(99);
      await list.readNewest();
      rounds++;
      assert.ok(list.items.length <= 100 + maxArrivedCheckpoints, `${list.items.length} kept`);
    }
    assert.equal(list.started, false, 'the list started over instead of growing');
    assert.equal(rounds, 11, 'after 10 × 99 arrived, the 11th batch would pass a thousand');
  });

  it('reads a model at most once per interval however many steps arrive, and only models that are shown', async () => {
    const clock = new FakeClock();
    const model = trainingModel(5);
    const pages = new CheckpointPages(model.source, clock);
    let redraws = 0;
    pages.newCheckpointsExpected('m', () => redraws++);
    assert.equal(model.requests.length, 0, 'a model never expanded is not read');
    await pages.of('m').first();
    const before = model.requests.length;
    for (let burst = 0; burst < 20; burst++) {
      model.step();
      pages.newCheckpointsExpected('m', () => redraws++);
    }
    await settle();
    assert.equal(model.requests.length - before, 1, 'one read now');
    assert.equal(pages.pendingLiveReads(), 1, 'and one waiting, not twenty');
    await clock.advance(liveRefreshIntervalMs);
    assert.equal(model.requests.length - before, 2);
    assert.equal(pages.pendingLiveReads(), 0);
    assert.equal(redraws, 2);
    assert.deepEqual(steps(pages.of('m').items).slice(0, 1), [24]);
    pages.resetAll();
    assert.equal(pages.pendingLiveReads(), 0);
  });

  it('a deletion confirmed by the server also removes a checkpoint that arrived live', async () => {
    const model = trainingModel(3);
    const list = new CheckpointPages(model.source, new FakeClock()).of('m');
    await list.first();
    model.step();
    await list.readNewest();
    list.remove((checkpoint) => checkpoint.step === 3);
    assert.deepEqual(steps(list.items), [2, 1, 0]);
  });
});
