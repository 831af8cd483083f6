/**
 * The groups list's page cache and fetcher, in Node: it keeps a bounded number of pages, has few
 * requests in flight, never asks for pages the list scrolled past while it waited, drops replies to
 * an old query, and asks each page once per version of the file.
 */
import assert from 'node:assert/strict';
import type { GroupQuery, RowsPage } from '../../../src/rollouts/model/inspectorModel';
import { defaultQuery } from '../../../src/rollouts/model/inspectorModel';
import { maxCachedPages, RowSource, rowsPerPage } from '../../../src/rollouts/page/rowSource';
import { generatedFile } from './pageFixtures';

interface Asked {
  query: GroupQuery;
  start: number;
  count: number;
  answer(page?: Partial<RowsPage>): Promise<void>;
  fail(message: string): Promise<void>;
}

/** A host whose replies the test sends when it chooses. */
function manualHost(groups: number) {
  const file = generatedFile(groups);
  let version = 1;
  const asked: Asked[] = [];
  const fetch = (query: GroupQuery, start: number, count: number) =>
    new Promise<RowsPage>((resolve, reject) => {
      asked.push({
        query,
        start,
        count,
        answer: async (page = {}) => {
          resolve({ ...file.rows(query, start, count), version, ...page });
          await settled();
        },
        fail: async (message) => {
          reject(new Error(message));
          await settled();
        },
      });
    });
  return { asked, fetch, setVersion: (next: number) => (version = next) };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('groups list rows: pages fetched as the list scrolls', () => {
  it('scrolled through 100,000 groups: at most two requests at once, pages passed meanwhile never asked, the cache stays bounded', async () => {
    const host = manualHost(100_000);
    let changes = 0;
    const source = new RowSource(host.fetch, defaultQuery, () => changes++);
    source.want(0, 40);
    assert.equal(host.asked.length, 1, 'rows 0-40 are one page');
    await host.asked[0]!.answer();
    assert.equal(source.total, 100_000);
    assert.equal(source.row(5)?.index, 5);

    // The list moves on while a request is out: only where it stopped is asked for next.
    source.want(10_000, 10_040);
    source.want(10_050, 10_090);
    assert.equal(host.asked.length, 3);
    for (let screen = 0; screen < 500; screen++) source.want(20_000 + screen * 100, 20_040 + screen * 100);
    assert.equal(host.asked.length, 3, 'no new request while two are out');
    await host.asked[1]!.answer();
    assert.deepEqual(
      host.asked.slice(3).map((request) => request.start),
      [69_900],
      'the freed slot goes to the page on screen now',
    );

    // Pages fetched far and wide: no more than the bound are kept.
    for (let round = 0; round < 200; round++) {
      const start = (round * 7_919 * rowsPerPage) % 100_000;
      source.want(start, start + 30);
      for (const request of host.asked.filter((each) => !(each as { done?: boolean }).done)) {
        (request as { done?: boolean }).done = true;
        await request.answer();
      }
      assert.ok(source.cachedPages <= maxCachedPages, `pages kept: ${source.cachedPages}`);
    }
    assert.ok(changes > 0);
  });

  it('a new query: replies to the old one are dropped, the new one starts from nothing', async () => {
    const host = manualHost(1_000);
    const source = new RowSource(host.fetch, defaultQuery, () => undefined);
    source.want(0, 40);
    const noSignal: GroupQuery = { ...defaultQuery, filter: { ...defaultQuery.filter, flags: ['noSignal'] } };
    source.setQuery(noSignal);
    assert.equal(host.asked.length, 2);
    assert.deepEqual(host.asked[1]!.query, noSignal);
    await host.asked[0]!.answer();
    assert.equal(source.total, undefined, 'the old query answer is not used');
    assert.equal(source.row(0), undefined);
    await host.asked[1]!.answer();
    assert.ok(source.row(0)!.flags.includes('noSignal'));
  });

  it('a new version of the file: the pages on screen are asked once again and stay shown meanwhile', async () => {
    const host = manualHost(1_000);
    const source = new RowSource(host.fetch, defaultQuery, () => undefined);
    source.want(0, 80);
    await host.asked[0]!.answer();
    await host.asked[1]!.answer();
    assert.equal(host.asked.length, 2);
    host.setVersion(2);
    source.setVersion(2);
    assert.deepEqual(
      host.asked.slice(2).map((request) => request.start),
      [0, 50],
    );
    assert.equal(source.row(3)?.index, 3, 'old rows stay shown until the fresh ones come');
    // A host still on the old version does not make the page ask forever.
    await host.asked[2]!.answer({ version: 1 });
    await host.asked[3]!.answer({ version: 2 });
    source.want(0, 80);
    assert.equal(host.asked.length, 4);
  });

  it('a failed fetch is reported once, not retried in a loop, and asked again on retry', async () => {
    const host = manualHost(1_000);
    let changes = 0;
    const source = new RowSource(host.fetch, defaultQuery, () => changes++);
    source.want(0, 20);
    await host.asked[0]!.fail('the file is gone');
    assert.equal(source.failure, 'the file is gone');
    source.want(0, 20);
    assert.equal(host.asked.length, 1);
    source.retry();
    assert.equal(host.asked.length, 2);
    await host.asked[1]!.answer();
    assert.equal(source.failure, undefined);
    assert.equal(changes, 2);
  });

  it('a shift-click range over rows not kept: their indices are fetched in large pages', async () => {
    const host = manualHost(5_000);
    const source = new RowSource(host.fetch, defaultQuery, () => undefined);
    source.want(0, 20);
    await host.asked[0]!.answer();
    const range = source.indicesBetween(10, 1_300, 100_000);
    for (let round = 0; round < 10; round++) {
      await settled();
      for (const request of host.asked.slice(1).filter((each) => !(each as { done?: boolean }).done)) {
        (request as { done?: boolean }).done = true;
        await request.answer();
      }
    }
    const indices = await range;
    assert.equal(indices?.length, 1_291);
    assert.deepEqual(indices?.slice(0, 3), [10, 11, 12]);
    assert.ok(host.asked.slice(1).every((request) => request.count <= 500));
  });
});
