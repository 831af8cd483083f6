import { systemClock, type Clock } from './clock';

/** Keys with work waiting, at most, unless told otherwise: far more documents than anyone keeps open. */
export const defaultMaxPendingKeys = 1000;

/**
 * Work per key (a document, by its URI) that waits until changes to that key pause: scheduling
 * again restarts the key's wait and replaces its work, so only the last one runs. One timer per key
 * at most, and a key leaves as soon as its work runs or is cancelled. Should more keys than
 * `maxPendingKeys` wait at once, the one waiting longest runs at once: nothing is dropped, and the
 * map stays bounded.
 */
export class KeyedDebounce<K> {
  /** Insertion order is scheduling order: the first entry has waited longest. */
  private readonly pending = new Map<K, { handle: unknown; run: () => void }>();
  private disposed = false;

  constructor(
    private readonly clock: Clock = systemClock,
    private readonly maxPendingKeys = defaultMaxPendingKeys,
  ) {}

  /**
   * Runs `run` after `waitMs` without another schedule of the same key; a wait of 0 still runs it
   * later, never inside this call (only work pushed out by the bound runs inside it).
   */
  schedule(key: K, waitMs: number, run: () => void): void {
    if (this.disposed) return;
    this.cancel(key);
    while (this.pending.size >= Math.max(1, this.maxPendingKeys)) this.runNow(this.pending.keys().next().value as K);
    const handle = this.clock.setTimeout(() => {
      this.pending.delete(key);
      run();
    }, waitMs);
    this.pending.set(key, { handle, run });
  }

  /** Drops the key's waiting work, if any. */
  cancel(key: K): void {
    const entry = this.pending.get(key);
    if (!entry) return;
    this.clock.clearTimeout(entry.handle);
    this.pending.delete(key);
  }

  isPending(key: K): boolean {
    return this.pending.has(key);
  }

  /** Keys with work waiting. */
  get size(): number {
    return this.pending.size;
  }

  /** Drops all waiting work; later schedules are ignored. */
  dispose(): void {
    this.disposed = true;
    for (const entry of this.pending.values()) this.clock.clearTimeout(entry.handle);
    this.pending.clear();
  }

  private runNow(key: K): void {
    const entry = this.pending.get(key);
    if (!entry) return;
    this.cancel(key);
    entry.run();
  }
}
