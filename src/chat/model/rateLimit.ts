import { monotonicClock, type Clock } from '../../platform/kit/clock';

/**
 * A token bucket: up to `burst` actions at once, then one more every `refillMs`. Used for what the
 * webview can ask the editor to do on its own (open a link, insert text, run a command, write to
 * the log): a person clicks a few times; a compromised webview looping on it gets refused.
 */
export class RateLimit {
  private tokens: number;
  private updatedAt: number;

  constructor(
    private readonly burst: number,
    private readonly refillMs: number,
    private readonly clock: Pick<Clock, 'now'> = monotonicClock,
  ) {
    this.tokens = burst;
    this.updatedAt = clock.now();
  }

  /** Takes one token; false when none is left (the action is refused). */
  take(): boolean {
    const now = this.clock.now();
    const refilled = Math.floor((now - this.updatedAt) / this.refillMs);
    if (refilled > 0) {
      this.tokens = Math.min(this.burst, this.tokens + refilled);
      this.updatedAt = this.tokens === this.burst ? now : this.updatedAt + refilled * this.refillMs;
    }
    if (this.tokens <= 0) return false;
    this.tokens--;
    return true;
  }
}
