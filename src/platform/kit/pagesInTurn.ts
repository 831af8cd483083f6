import type { Page } from '../client/types';

/**
 * A cursor-paged list read one page after another, for a caller that needs more than one page at
 * once (every checkpoint of a model, or the few it looks for). Bounded however the server answers:
 * at most `maxPages` requests, never a cursor twice, and nothing more after an empty page. The
 * caller stops early by leaving its `for await` loop; no request is made past that.
 */
export async function* pagesInTurn<T extends { id: string }>(fetchPage: (after: string | undefined) => Promise<Page<T>>, maxPages: number): AsyncGenerator<readonly T[]> {
  const followed = new Set<string>();
  let after: string | undefined;
  for (let read = 0; read < maxPages; read++) {
    const page = await fetchPage(after);
    const data = Array.isArray(page.data) ? page.data : [];
    yield data;
    const next = page.last_id || data.at(-1)?.id;
    if (page.has_more !== true || data.length === 0 || !next || followed.has(next)) return;
    followed.add(next);
    after = next;
  }
}
