/**
 * The client's paged lists on the emulator, read the way the product reads them: checkpoints by
 * the Models view's "Load more…" pager, a job's events by the polls' event reader.
 */
import assert from 'node:assert/strict';
import type { Checkpoint } from '../../../../src/platform/client/types';
import { CursorPager } from '../../../../src/training/model/cursorPager';
import { readNewEvents, RecentCursors } from '../../../../src/training/model/eventPages';
import { startEmulator, type Emulator } from '../../../emulator';
import { clientFor, testApiKey } from './support/harness';

describe('pagination', () => {
  let emulator: Emulator;
  let client: ReturnType<typeof clientFor>;
  let modelId: string;
  const signal = new AbortController().signal;

  before(async () => {
    emulator = await startEmulator({ apiKey: testApiKey });
    client = clientFor(emulator);
    modelId = await emulator.createModelWithCheckpoints('paged', 250);
  });
  after(async () => {
    await client.close();
    await emulator.close();
  });

  function checkpointPager(query: { limit?: number; order?: 'asc' | 'desc' }): CursorPager<Checkpoint> {
    return new CursorPager<Checkpoint>((after, pageSignal) => client.training.listCheckpoints(modelId, { ...query, after }, { signal: pageSignal }));
  }

  async function loadAll(pager: CursorPager<Checkpoint>): Promise<readonly Checkpoint[]> {
    // Bounded: 250 checkpoints are at most 13 pages of the server's default size.
    for (let page = 0; page < 20 && pager.hasMore; page++) await pager.loadMore();
    assert.equal(pager.hasMore, false, 'the list ended');
    return pager.items;
  }

  it('loads every checkpoint in ascending order, a page of 100 at a time', async () => {
    const before = emulator.requests.length;
    const steps = (await loadAll(checkpointPager({ limit: 100 }))).map((checkpoint) => checkpoint.step);
    assert.deepEqual(
      steps,
      Array.from({ length: 250 }, (_, step) => step),
    );
    const pages = emulator.requests.slice(before);
    assert.equal(pages.length, 3);
    assert.equal(pages[0]?.query.after, undefined);
    assert.ok(pages[1]?.query.after && pages[2]?.query.after);
  });

  it('loads every checkpoint newest first with the default page size', async () => {
    const before = emulator.requests.length;
    const steps = (await loadAll(checkpointPager({ order: 'desc' }))).map((checkpoint) => checkpoint.step);
    assert.deepEqual(
      steps,
      Array.from({ length: 250 }, (_, index) => 249 - index),
    );
    assert.equal(emulator.requests.length - before, 13, '250 items in pages of 20');
    assert.ok(emulator.requests.slice(before).every((request) => request.query.order === 'desc'));
  });

  it('reads one page per "Load more", no further', async () => {
    const before = emulator.requests.length;
    const pager = checkpointPager({ limit: 10 });
    await pager.first();
    await pager.loadMore();
    assert.equal(pager.items.length, 20);
    assert.equal(emulator.requests.length - before, 2);
  });

  it('reads every event of a finished training job, and only those after a cursor when given one', async () => {
    const jobId = emulator.seeded!.succeededJobId;
    const fetchPage = (after: string | undefined, pageSignal: AbortSignal) => client.training.listTrainingJobEvents(jobId, { after, limit: 7 }, { signal: pageSignal });
    const all = await readNewEvents(fetchPage, undefined, () => false, new RecentCursors(), { maxPages: 100 }, signal);
    assert.equal(all.fault, undefined);
    assert.equal(all.more, false);
    const events = all.events;
    assert.equal(events[0]?.type, 'training_started');
    assert.equal(events.at(-1)?.type, 'training_ended');
    assert.equal(events.filter((event) => event.type === 'gradient_step').length, 24);
    assert.equal(new Set(events.map((event) => event.id)).size, events.length, 'no event twice');
    assert.equal(all.requests, Math.ceil(events.length / 7));

    const first = await client.training.listTrainingJobEvents(jobId, { limit: 10 });
    const known = new Set(first.data.map((event) => event.id));
    const rest = await readNewEvents(fetchPage, first.last_id, (id) => known.has(id), new RecentCursors(), { maxPages: 100 }, signal);
    assert.deepEqual(
      rest.events.map((event) => event.id),
      events.slice(10).map((event) => event.id),
    );
  });
});
