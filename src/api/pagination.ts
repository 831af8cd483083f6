/** Walks a cursor-paginated list (checkpoints, training-job events) to its end. */
import type { Page, PageQuery } from './types';

export type PageFetcher<T, Q extends PageQuery> = (query: Q) => Promise<Page<T>>;

/**
 * At most this many pages per walk unless told otherwise: 10 000 pages of the platform's largest
 * page (100) is a million items, past anything a view shows, and still an end.
 */
export const defaultMaxPages = 10_000;

/**
 * Follows `has_more` with `after` = the page's `last_id`, or the last item's id when the server
 * leaves `last_id` empty. Stops on an empty page, on a cursor seen before in this walk (a server
 * alternating between two cursors, or going round a longer cycle, would otherwise be followed for
 * ever) and after `maxPages` pages.
 */
export async function* walkPages<T extends { id: string }, Q extends PageQuery>(
  fetchPage: PageFetcher<T, Q>,
  query: Q,
  maxPages = defaultMaxPages,
): AsyncGenerator<T, void, undefined> {
  let cursor = query.after;
  // One entry per page read, so it is bounded by maxPages too.
  const seen = new Set<string>(cursor === undefined ? [] : [cursor]);
  for (let pages = 1; ; pages++) {
    const page = await fetchPage({ ...query, after: cursor });
    const items = Array.isArray(page.data) ? page.data : [];
    yield* items;
    if (!page.has_more || items.length === 0 || pages >= maxPages) return;
    const next = page.last_id || items[items.length - 1]?.id;
    if (!next || seen.has(next)) return;
    seen.add(next);
    cursor = next;
  }
}
