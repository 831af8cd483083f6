import type { Checkpoint, CheckpointQuery, Page } from '../../../platform/client/types';
import type { Clock } from '../../../platform/kit/clock';
import { systemClock } from '../../../platform/kit/clock';
import { CursorPager } from '../../model/cursorPager';

/** Checkpoints are listed newest first, 100 per request (the platform's maximum page). */
export const checkpointPageSize = 100;
/** A model's newest checkpoints are read again at most this often while a job trains it. */
export const liveRefreshIntervalMs = 3000;
/** Checkpoints that arrived while the list was shown, kept above the loaded pages at most. */
export const maxArrivedCheckpoints = 1000;

/** Reads one page of a model's checkpoints, newest first. */
export type CheckpointSource = (modelId: string, query: CheckpointQuery, signal: AbortSignal) => Promise<Page<Checkpoint>>;

/**
 * One model's checkpoints: the pages read by "Load more…", and above them the checkpoints that
 * appeared since (a job still trains the model). Reading the newest page again adds what is new
 * without dropping the pages already loaded.
 */
export class CheckpointList {
  private readonly pager: CursorPager<Checkpoint>;
  private arrived: Checkpoint[] = [];
  private reading: AbortController | undefined;

  constructor(
    private readonly modelId: string,
    private readonly source: CheckpointSource,
  ) {
    this.pager = new CursorPager<Checkpoint>((after, signal) => source(modelId, { after, limit: checkpointPageSize, order: 'desc' }, signal));
  }

  /** Newest first: the ones that arrived, then the loaded pages. */
  get items(): readonly Checkpoint[] {
    return this.arrived.length ? [...this.arrived, ...this.pager.items] : this.pager.items;
  }

  get hasMore(): boolean {
    return this.pager.hasMore;
  }

  get started(): boolean {
    return this.pager.started;
  }

  get loading(): boolean {
    return this.pager.loading;
  }

  get error(): unknown {
    return this.pager.error;
  }

  async first(): Promise<readonly Checkpoint[]> {
    await this.pager.first();
    return this.items;
  }

  async loadMore(): Promise<readonly Checkpoint[]> {
    await this.pager.loadMore();
    return this.items;
  }

  /**
   * Reads the newest page again and puts what is new on top. Returns whether anything changed.
   * When the whole page is new (more arrived than a page holds), the list starts over instead,
   * so it never shows a gap.
   */
  async readNewest(): Promise<boolean> {
    if (!this.pager.started || this.pager.loading || this.reading) return false;
    const controller = new AbortController();
    this.reading = controller;
    try {
      const page = await this.source(this.modelId, { limit: checkpointPageSize, order: 'desc' }, controller.signal);
      if (controller.signal.aborted) return false;
      const known = new Set(this.items.map((checkpoint) => checkpoint.id));
      const fresh = page.data.filter((checkpoint) => checkpoint && typeof checkpoint.id === 'string' && !known.has(checkpoint.id));
      if (fresh.length === 0) return false;
      if ((fresh.length === page.data.length && page.has_more) || this.arrived.length + fresh.length > maxArrivedCheckpoints) {
        this.reset();
        return true;
      }
      this.arrived = [...fresh, ...this.arrived];
      return true;
    } finally {
      if (this.reading === controller) this.reading = undefined;
    }
  }

  /** Removes items locally, after the server confirmed they are gone. */
  remove(predicate: (item: Checkpoint) => boolean): void {
    this.arrived = this.arrived.filter((item) => !predicate(item));
    this.pager.remove(predicate);
  }

  /** Drops what is loaded (and any request in flight); the next `first()` starts over. */
  reset(): void {
    this.reading?.abort();
    this.reading = undefined;
    this.arrived = [];
    this.pager.reset();
  }
}

/**
 * One checkpoint list per training model, kept while the view lives so expanding again costs
 * nothing; and the throttle that keeps the lists of models being trained current.
 */
export class CheckpointPages {
  private readonly lists = new Map<string, CheckpointList>();
  /** When each model's newest page was last read, and the one read waiting for its turn. */
  private readonly live = new Map<string, { lastAt: number; timer?: unknown }>();
  private readonly clock: Clock;

  constructor(
    private readonly source: CheckpointSource,
    clock?: Clock,
  ) {
    this.clock = clock ?? systemClock;
  }

  of(modelId: string): CheckpointList {
    let list = this.lists.get(modelId);
    if (!list) {
      list = new CheckpointList(modelId, this.source);
      this.lists.set(modelId, list);
    }
    return list;
  }

  /** True when the model's list was read (it is or was expanded): only then is there anything to keep current. */
  isShown(modelId: string): boolean {
    return this.lists.get(modelId)?.started ?? false;
  }

  /**
   * A job reported a new checkpoint of this model: read its newest page, at most once every
   * `liveRefreshIntervalMs` per model (a burst of steps makes one read, and one more after the
   * interval), and call `changed` when something new arrived. One timer per model at most.
   */
  newCheckpointsExpected(modelId: string, changed: () => void, onError?: (error: unknown) => void): void {
    if (!this.isShown(modelId)) return;
    const entry = this.live.get(modelId) ?? { lastAt: -Infinity };
    this.live.set(modelId, entry);
    if (entry.timer !== undefined) return;
    const wait = entry.lastAt + liveRefreshIntervalMs - this.clock.now();
    const read = () => {
      entry.timer = undefined;
      entry.lastAt = this.clock.now();
      const list = this.lists.get(modelId);
      if (!list) return;
      void list.readNewest().then(
        (fresh) => {
          if (fresh) changed();
        },
        (error: unknown) => onError?.(error),
      );
    };
    if (wait <= 0) read();
    else entry.timer = this.clock.setTimeout(read, wait);
  }

  /** Timers waiting to read a model's newest page (for tests: never more than one per model). */
  pendingLiveReads(): number {
    let count = 0;
    for (const entry of this.live.values()) if (entry.timer !== undefined) count++;
    return count;
  }

  /** Forgets every loaded page (and aborts loads in flight). */
  resetAll(): void {
    for (const list of this.lists.values()) list.reset();
    this.lists.clear();
    this.stopLive();
  }

  forget(modelId: string): void {
    this.lists.get(modelId)?.reset();
    this.lists.delete(modelId);
    const entry = this.live.get(modelId);
    if (entry?.timer !== undefined) this.clock.clearTimeout(entry.timer);
    this.live.delete(modelId);
  }

  private stopLive(): void {
    for (const entry of this.live.values()) if (entry.timer !== undefined) this.clock.clearTimeout(entry.timer);
    this.live.clear();
  }
}
