import assert from 'node:assert/strict';
import type { Checkpoint, Page } from '../../../src/api/types';
import { walkPages } from '../../../src/api/pagination';
import { startEmulator, type Emulator } from '../../emulator';
import { clientFor, testApiKey } from './support/harness';

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const result: T[] = [];
  for await (const item of items) result.push(item);
  return result;
}

describe('pagination', () => {
  let emulator: Emulator;
  let client: ReturnType<typeof clientFor>;
  let modelId: string;

  before(async () => {
    emulator = await startEmulator({ apiKey: testApiKey });
    client = clientFor(emulator);
    modelId = await emulator.createModelWithCheckpoints('paged', 250);
  });
  after(async () => {
    await client.close();
    await emulator.close();
  });

  it('walks every checkpoint in ascending order', async () => {
    const before = emulator.requests.length;
    const steps = (await collect(client.training.checkpoints(modelId, { limit: 100 }))).map((checkpoint) => checkpoint.step);
    assert.deepEqual(steps, Array.from({ length: 250 }, (_, step) => step));
    const pages = emulator.requests.slice(before);
    assert.equal(pages.length, 3);
    assert.equal(pages[0]?.query.after, undefined);
    assert.ok(pages[1]?.query.after && pages[2]?.query.after);
  });

  it('walks every checkpoint in descending order with the default page size', async () => {
    const before = emulator.requests.length;
    const steps = (await collect(client.training.checkpoints(modelId, { order: 'desc' }))).map((checkpoint) => checkpoint.step);
    assert.deepEqual(steps, Array.from({ length: 250 }, (_, index) => 249 - index));
    assert.equal(emulator.requests.length - before, 13, '250 items in pages of 20');
    assert.ok(emulator.requests.slice(before).every((request) => request.query.order === 'desc'));
  });

  it('starts after a given cursor', async () => {
    const first = await client.training.listCheckpoints(modelId, { limit: 10 });
    const rest = await collect(client.training.checkpoints(modelId, { after: first.last_id, limit: 100 }));
    assert.equal(rest.length, 240);
    assert.equal(rest[0]?.step, 10);
  });

  it('walks every event of a finished training job', async () => {
    const events = await collect(client.training.trainingJobEvents(emulator.seeded!.succeededJobId, { limit: 7 }));
    assert.equal(events[0]?.type, 'training_started');
    assert.equal(events.at(-1)?.type, 'training_ended');
    assert.equal(events.filter((event) => event.type === 'gradient_step').length, 24);
    assert.equal(new Set(events.map((event) => event.id)).size, events.length, 'no event twice');
  });

  it('stops reading pages when the loop is left', async () => {
    const before = emulator.requests.length;
    for await (const checkpoint of client.training.checkpoints(modelId, { limit: 10 })) {
      if (checkpoint.step === 14) break;
    }
    assert.equal(emulator.requests.length - before, 2);
  });
});

describe('page walking', () => {
  const item = (id: string): Checkpoint => ({ id, step: Number(id), metrics: {} });

  it("falls back to the last item's id when last_id is empty", async () => {
    const pages: Record<string, Page<Checkpoint>> = {
      start: { data: [item('1'), item('2')], last_id: '', has_more: true },
      '2': { data: [item('3')], has_more: false },
    };
    const cursors: (string | undefined)[] = [];
    const items = await collect(
      walkPages(async (query: { after?: string }) => {
        cursors.push(query.after);
        return pages[query.after ?? 'start']!;
      }, {}),
    );
    assert.deepEqual(items.map((checkpoint) => checkpoint.id), ['1', '2', '3']);
    assert.deepEqual(cursors, [undefined, '2']);
  });

  it('stops on an empty page or a cursor that does not move, whatever has_more says', async () => {
    let calls = 0;
    const empty = await collect(walkPages(async () => (calls++, { data: [], has_more: true }), {}));
    assert.deepEqual(empty, []);
    assert.equal(calls, 1);
    calls = 0;
    const stuck = await collect(walkPages(async () => (calls++, { data: [item('9')], last_id: '9', has_more: true }), {}));
    assert.equal(calls, 2);
    assert.equal(stuck.length, 2);
  });
});
