/**
 * How often one rule may act: at most `limit` firings in any `windowMs`, so a metric flapping around
 * its bound, or a job restarted in a loop, cannot flood the person with notifications or a webhook
 * with requests. A firing over the budget is only logged.
 */
export class FiringBudget {
  /** When each key last acted, newest last: `limit` times at most per key. */
  private readonly recent = new Map<string, number[]>();

  constructor(
    private readonly limit = 3,
    private readonly windowMs = 60_000,
    /** Keys remembered at most; the one that acted longest ago goes first. */
    private readonly maxKeys = 1_000,
  ) {}

  /** True (and counted) when `key` may act at `now`. */
  take(key: string, now: number): boolean {
    const times = (this.recent.get(key) ?? []).filter((time) => now - time < this.windowMs && time <= now);
    if (times.length >= this.limit) {
      this.recent.set(key, times);
      return false;
    }
    times.push(now);
    // Re-inserted so the map's order is the order keys last acted in.
    this.recent.delete(key);
    this.recent.set(key, times);
    while (this.recent.size > this.maxKeys) this.recent.delete(this.recent.keys().next().value!);
    return true;
  }
}
