import type { Page } from '../../platform/client/types';

export type FetchPage<T> = (after: string | undefined, signal: AbortSignal) => Promise<Page<T>>;

/** Items loaded at most, however many pages the server offers. */
export const defaultMaxPagerItems = 10_000;

/**
 * A list read one page at a time by cursor, for "Load more…" nodes. Concurrent requests for the
 * next page share one request (a double click loads one page, not two), and a reset aborts
 * whatever is in flight, so a Refresh never shows a page of the old list under the new one.
 */
export class CursorPager<T extends { id: string }> {
  private loaded: T[] = [];
  private readonly ids = new Set<string>();
  private cursor: string | undefined;
  /** Cursors followed so far: a server that hands one out again would loop (A, B, A, B…). */
  private readonly cursors = new Set<string>();
  private more = true;
  private pending: Promise<readonly T[]> | undefined;
  private controller: AbortController | undefined;
  private generation = 0;
  private lastError: unknown;

  constructor(
    private readonly fetchPage: FetchPage<T>,
    private readonly maxItems = defaultMaxPagerItems,
  ) {}

  get items(): readonly T[] {
    return this.loaded;
  }

  /** True until a page said it was the last one. */
  get hasMore(): boolean {
    return this.more;
  }

  /** True once the first page arrived. */
  get started(): boolean {
    return this.loaded.length > 0 || !this.more;
  }

  get loading(): boolean {
    return this.pending !== undefined;
  }

  get error(): unknown {
    return this.lastError;
  }

  /** The first page, loading it when nothing is loaded yet. */
  async first(): Promise<readonly T[]> {
    if (!this.started) await this.loadMore();
    return this.loaded;
  }

  /** Loads the next page and resolves with the whole list so far. */
  loadMore(): Promise<readonly T[]> {
    if (this.pending) return this.pending;
    if (!this.more) return Promise.resolve(this.loaded);
    const generation = this.generation;
    const controller = new AbortController();
    this.controller = controller;
    const request = this.fetchPage(this.cursor, controller.signal)
      .then(
        (page) => {
          if (generation !== this.generation) return this.loaded;
          const room = Math.max(0, this.maxItems - this.loaded.length);
          const fresh: T[] = [];
          for (const item of page.data) {
            if (fresh.length >= room) break;
            if (!item || typeof item.id !== 'string' || this.ids.has(item.id)) continue;
            this.ids.add(item.id);
            this.loaded.push(item);
            fresh.push(item);
          }
          const last = page.last_id || page.data[page.data.length - 1]?.id;
          // A page that claims more but gives no cursor (or one already followed), or brings nothing
          // new, would loop for ever; and the list has a bound whatever the server says.
          this.more = page.has_more && typeof last === 'string' && last !== '' && !this.cursors.has(last) && fresh.length > 0 && this.loaded.length < this.maxItems;
          if (typeof last === 'string' && last !== '') {
            this.cursor = last;
            this.cursors.add(last);
          }
          this.lastError = undefined;
          return this.loaded;
        },
        (error: unknown) => {
          if (generation === this.generation) this.lastError = error;
          throw error;
        },
      )
      .finally(() => {
        if (generation === this.generation) {
          this.pending = undefined;
          this.controller = undefined;
        }
      });
    this.pending = request;
    return request;
  }

  /** Drops what is loaded (and any request in flight); the next `first()` starts over. */
  reset(): void {
    this.generation++;
    this.controller?.abort();
    this.controller = undefined;
    this.pending = undefined;
    this.loaded = [];
    this.ids.clear();
    this.cursor = undefined;
    this.cursors.clear();
    this.more = true;
    this.lastError = undefined;
  }

  /** Removes items locally, after the server confirmed they are gone. */
  remove(predicate: (item: T) => boolean): void {
    this.loaded = this.loaded.filter((item) => {
      if (!predicate(item)) return true;
      this.ids.delete(item.id);
      return false;
    });
  }
}

/**
 * The first `count` items of a list shown newest first, from a list kept oldest first, without
 * copying the whole list (event timelines can be long).
 */
export function newestFirst<T>(oldestFirst: readonly T[], count: number): T[] {
  const out: T[] = [];
  for (let index = oldestFirst.length - 1; index >= 0 && out.length < count; index--) out.push(oldestFirst[index]!);
  return out;
}
