/** Keys waited for at once, at most, unless told otherwise. */
export const defaultMaxWaitedKeys = 100;

/**
 * Callers waiting for a list that is read again and again (a tree view's items) to hold an item:
 * a view can reveal a row only once it has read the list that holds it. Each wait settles on the
 * next read: with the item when that read listed it, undefined when it did not. So nobody guesses
 * how long a read takes, and nobody waits past a read that could have listed their item. When more
 * than `maxKeys` keys are waited for, the oldest wait settles with undefined.
 */
export class ListingWaits<K, V> {
  /** Insertion order: the first key has waited longest. */
  private readonly waiting = new Map<K, Array<(item: V | undefined) => void>>();

  constructor(private readonly maxKeys = defaultMaxWaitedKeys) {}

  /** The item once a read lists it; at once when the list already holds it (`current`). */
  when(key: K, current: V | undefined): Promise<V | undefined> {
    if (current !== undefined) return Promise.resolve(current);
    return new Promise((resolve) => {
      const waiters = this.waiting.get(key);
      if (waiters) {
        waiters.push(resolve);
        return;
      }
      while (this.waiting.size >= Math.max(1, this.maxKeys)) this.settle(this.waiting.keys().next().value as K, undefined);
      this.waiting.set(key, [resolve]);
    });
  }

  /** A read of the list finished: every wait hears whether its item is in it. */
  read(lookup: (key: K) => V | undefined): void {
    for (const key of [...this.waiting.keys()]) this.settle(key, lookup(key));
  }

  /** Keys waited for now. */
  get size(): number {
    return this.waiting.size;
  }

  /** Settles every wait with undefined (the list goes away). */
  dispose(): void {
    this.read(() => undefined);
  }

  private settle(key: K, item: V | undefined): void {
    const waiters = this.waiting.get(key) ?? [];
    this.waiting.delete(key);
    for (const resolve of waiters) resolve(item);
  }
}
