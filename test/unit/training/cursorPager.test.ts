import * as assert from 'node:assert/strict';
import type { Page } from '../../../src/platform/client/types';
import { CursorPager, newestFirst } from '../../../src/training/model/cursorPager';

interface Item {
  id: string;
  step: number;
}

function serverOf(count: number) {
  const items: Item[] = Array.from({ length: count }, (_, index) => ({ id: `c${count - 1 - index}`, step: count - 1 - index }));
  const requests: (string | undefined)[] = [];
  const fetchPage = async (after: string | undefined): Promise<Page<Item>> => {
    requests.push(after);
    await new Promise((resolve) => setImmediate(resolve));
    const start = after ? items.findIndex((item) => item.id === after) + 1 : 0;
    const data = items.slice(start, start + 100);
    return { object: 'list', data, first_id: data[0]?.id ?? '', last_id: data.at(-1)?.id ?? '', has_more: start + data.length < items.length };
  };
  return { fetchPage, requests };
}

describe('cursor pager', () => {
  it('loads 100 at a time, newest first, until the server says there is no more', async () => {
    const { fetchPage, requests } = serverOf(250);
    const pager = new CursorPager(fetchPage);
    assert.equal(pager.started, false);
    const first = await pager.first();
    assert.equal(first.length, 100);
    assert.equal(first[0]!.step, 249);
    assert.equal(pager.hasMore, true);
    await pager.loadMore();
    const all = await pager.loadMore();
    assert.equal(all.length, 250);
    assert.equal(all.at(-1)!.step, 0);
    assert.equal(pager.hasMore, false);
    assert.deepEqual(requests, [undefined, 'c150', 'c50']);
    await pager.loadMore();
    assert.equal(requests.length, 3, 'no request once the end is reached');
  });

  it('shares one request between concurrent calls for the next page', async () => {
    const { fetchPage, requests } = serverOf(300);
    const pager = new CursorPager(fetchPage);
    await pager.first();
    const [a, b] = await Promise.all([pager.loadMore(), pager.loadMore()]);
    assert.equal(a, b);
    assert.equal(requests.length, 2);
    assert.equal(pager.items.length, 200);
  });

  it('starts over on reset and drops the answer of a request made before it', async () => {
    const { fetchPage, requests } = serverOf(300);
    const pager = new CursorPager(fetchPage);
    const stale = pager.loadMore();
    pager.reset();
    await stale;
    assert.equal(pager.items.length, 0);
    await pager.first();
    assert.equal(pager.items.length, 100);
    assert.deepEqual(requests, [undefined, undefined]);
  });

  it('keeps the error of a failed page and retries it on the next call', async () => {
    let fail = true;
    const pager = new CursorPager<Item>(async () => {
      if (fail) throw new Error('502');
      return { data: [{ id: 'a', step: 1 }], has_more: false };
    });
    await assert.rejects(pager.loadMore(), /502/);
    assert.match(String(pager.error), /502/);
    fail = false;
    await pager.loadMore();
    assert.equal(pager.error, undefined);
    assert.equal(pager.items.length, 1);
  });

  it('stops when a server says has_more without moving the cursor', async () => {
    const pager = new CursorPager<Item>(async () => ({ data: [{ id: 'same', step: 1 }], has_more: true, last_id: 'same' }));
    await pager.loadMore();
    await pager.loadMore();
    assert.equal(pager.hasMore, false);
    assert.equal(pager.items.length, 1);
  });

  it('stops when a server hands out a cursor it gave before (A, B, A, B…), even with new items', async () => {
    let made = 0;
    const requests: (string | undefined)[] = [];
    const pager = new CursorPager<Item>(async (after) => {
      requests.push(after);
      made++;
      return { data: [{ id: `new-${made}`, step: made }], has_more: true, last_id: made % 2 === 0 ? 'A' : 'B' };
    });
    for (let click = 0; click < 10; click++) await pager.loadMore();
    assert.equal(pager.hasMore, false);
    assert.deepEqual(requests, [undefined, 'B', 'A']);
  });

  it('stops when cursors go round a longer cycle', async () => {
    const next: Record<string, string> = { start: 'c1', c1: 'c2', c2: 'c3', c3: 'c1' };
    const requests: (string | undefined)[] = [];
    const pager = new CursorPager<Item>(async (after) => {
      requests.push(after);
      return { data: [{ id: `item-${requests.length}`, step: requests.length }], has_more: true, last_id: next[after ?? 'start']! };
    });
    for (let click = 0; click < 10; click++) await pager.loadMore();
    assert.equal(pager.hasMore, false);
    assert.deepEqual(requests, [undefined, 'c1', 'c2', 'c3']);
  });

  it("follows the last item's id when the server leaves last_id empty", async () => {
    const requests: (string | undefined)[] = [];
    const pages: Record<string, Page<Item>> = {
      start: {
        data: [
          { id: '1', step: 1 },
          { id: '2', step: 2 },
        ],
        last_id: '',
        has_more: true,
      },
      '2': { data: [{ id: '3', step: 3 }], has_more: false },
    };
    const pager = new CursorPager<Item>(async (after) => {
      requests.push(after);
      return pages[after ?? 'start']!;
    });
    await pager.loadMore();
    await pager.loadMore();
    assert.deepEqual(
      pager.items.map((item) => item.id),
      ['1', '2', '3'],
    );
    assert.deepEqual(requests, [undefined, '2']);
  });

  it('stops on an empty page, whatever has_more says', async () => {
    let calls = 0;
    const pager = new CursorPager<Item>(async () => (calls++, { data: [], has_more: true }));
    for (let click = 0; click < 5; click++) await pager.loadMore();
    assert.equal(pager.hasMore, false);
    assert.equal(calls, 1);
  });

  it('loads no more than its bound, whatever the server offers', async () => {
    const { fetchPage, requests } = serverOf(1000);
    const pager = new CursorPager(fetchPage, 250);
    for (let click = 0; click < 20; click++) await pager.loadMore();
    assert.equal(pager.items.length, 250);
    assert.equal(pager.hasMore, false);
    assert.equal(requests.length, 3);
  });

  it('removes deleted items locally', async () => {
    const { fetchPage } = serverOf(5);
    const pager = new CursorPager(fetchPage);
    await pager.first();
    pager.remove((item) => item.step % 2 === 0);
    assert.deepEqual(
      pager.items.map((item) => item.step),
      [3, 1],
    );
  });
});

describe('newest first', () => {
  it('takes the last items in reverse order without touching the rest', () => {
    assert.deepEqual(newestFirst([1, 2, 3, 4, 5], 2), [5, 4]);
    assert.deepEqual(newestFirst([1, 2], 10), [2, 1]);
    assert.deepEqual(newestFirst([], 3), []);
  });
});
