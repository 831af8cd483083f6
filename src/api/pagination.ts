/** Walks a cursor-paginated list (checkpoints, training-job events) to its end. */
import type { Page, PageQuery } from './types';

export type PageFetcher<T, Q extends PageQuery> = (query: Q) => Promise<Page<T>>;

/**
 * Follows `has_more` with `after` = the page's `last_id`, or the last item's id when the server
 * leaves `last_id` empty. Stops on an empty page or a cursor that does not move, so a misbehaving
 * server cannot make it loop forever.
 */
export async function* walkPages<T extends { id: string }, Q extends PageQuery>(fetchPage: PageFetcher<T, Q>, query: Q): AsyncGenerator<T, void, undefined> {
  let cursor = query.after;
  for (;;) {
    const page = await fetchPage({ ...query, after: cursor });
    const items = Array.isArray(page.data) ? page.data : [];
    yield* items;
    if (!page.has_more || items.length === 0) return;
    const next = page.last_id || items[items.length - 1]?.id;
    if (!next || next === cursor) return;
    cursor = next;
  }
}
