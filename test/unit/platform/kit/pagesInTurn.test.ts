import * as assert from 'node:assert/strict';
import type { Page } from '../../../../src/platform/client/types';
import { pagesInTurn } from '../../../../src/platform/kit/pagesInTurn';

type Item = { id: string };

/** A server that answers from a table of pages by cursor, and records every cursor it was asked for. */
function server(pages: Record<string, Page<Item>>) {
  const asked: Array<string | undefined> = [];
  const fetchPage = async (after: string | undefined): Promise<Page<Item>> => {
    asked.push(after);
    return pages[after ?? ''] ?? { data: [], has_more: false };
  };
  return { asked, fetchPage };
}

async function all(pages: AsyncIterable<readonly Item[]>): Promise<string[]> {
  const ids: string[] = [];
  for await (const page of pages) ids.push(...page.map((item) => item.id));
  return ids;
}

describe('pagesInTurn', () => {
  it('follows the cursor to the last page', async () => {
    const { asked, fetchPage } = server({ '': { data: [{ id: 'a' }, { id: 'b' }], has_more: true, last_id: 'b' }, b: { data: [{ id: 'c' }], has_more: false } });
    assert.deepEqual(await all(pagesInTurn(fetchPage, 10)), ['a', 'b', 'c']);
    assert.deepEqual(asked, [undefined, 'b']);
  });

  it('takes the last item as the cursor when the page names none', async () => {
    const { asked, fetchPage } = server({ '': { data: [{ id: 'a' }], has_more: true }, a: { data: [{ id: 'b' }], has_more: false } });
    assert.deepEqual(await all(pagesInTurn(fetchPage, 10)), ['a', 'b']);
    assert.deepEqual(asked, [undefined, 'a']);
  });

  it('reads at most maxPages pages of a server that always says there is more', async () => {
    let served = 0;
    const endless = async (): Promise<Page<Item>> => ({ data: [{ id: `i${++served}` }], has_more: true });
    assert.equal((await all(pagesInTurn(endless, 5))).length, 5);
    assert.equal(served, 5);
  });

  it('never follows a cursor twice, and stops at an empty page', async () => {
    const looping = server({ '': { data: [{ id: 'a' }], has_more: true, last_id: 'x' }, x: { data: [{ id: 'b' }], has_more: true, last_id: 'x' } });
    assert.deepEqual(await all(pagesInTurn(looping.fetchPage, 10)), ['a', 'b']);
    assert.deepEqual(looping.asked, [undefined, 'x']);
    const empty = server({ '': { data: [], has_more: true, last_id: 'x' } });
    assert.deepEqual(await all(pagesInTurn(empty.fetchPage, 10)), []);
    assert.deepEqual(empty.asked, [undefined]);
  });

  it('asks for nothing more once the caller stops reading', async () => {
    const { asked, fetchPage } = server({ '': { data: [{ id: 'a' }], has_more: true, last_id: 'a' }, a: { data: [{ id: 'b' }], has_more: false } });
    for await (const page of pagesInTurn(fetchPage, 10)) if (page.length > 0) break;
    assert.deepEqual(asked, [undefined]);
  });
});
