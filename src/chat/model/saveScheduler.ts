import type { Conversation } from './conversationTypes';
import { monotonicClock, type Clock } from '../../platform/kit/clock';

export interface SaveSchedulerOptions {
  /** Writes the conversation now; resolves with the characters written, undefined when nothing was. */
  write(conversation: Conversation): Promise<number | undefined>;
  /** Shortest pause between a write of a conversation and a coalesced write of it. */
  minIntervalMs?: number;
  /** Coalesced writes of one conversation average at most this many characters a second. */
  charsPerSecond?: number;
  /** Default: the monotonic clock, whose timers never keep the process alive (closing the panel flushes what is pending). */
  clock?: Clock;
}

/**
 * When conversations are written. A change that matters (a new turn, an answer's end, a stop, an
 * edit) is written at once; the small changes that come in streams (the draft as the user types,
 * settings, an answer's text while it streams) are coalesced into one write that waits at least
 * `minIntervalMs` after the previous write, and longer after a large one, so that those writes never
 * add up to more than `charsPerSecond` on average however large the conversation is.
 */
export class SaveScheduler {
  private readonly pending = new Map<string, { timer: unknown; conversation: Conversation }>();
  private readonly last = new Map<string, { at: number; chars: number }>();
  private readonly minIntervalMs: number;
  private readonly charsPerSecond: number;
  private readonly clock: Clock;

  constructor(private readonly options: SaveSchedulerOptions) {
    this.minIntervalMs = options.minIntervalMs ?? 5_000;
    this.charsPerSecond = options.charsPerSecond ?? 256 * 1024;
    this.clock = options.clock ?? monotonicClock;
  }

  /** Writes the conversation after `delayMs` or when the throttle allows, whichever is later; one pending write per conversation. */
  schedule(conversation: Conversation, delayMs: number): void {
    if (this.pending.has(conversation.id)) return;
    const wait = Math.max(delayMs, this.earliestWrite(conversation.id) - this.clock.now());
    const timer = this.clock.setTimeout(() => {
      this.pending.delete(conversation.id);
      void this.writeNow(conversation);
    }, wait);
    this.pending.set(conversation.id, { timer, conversation });
  }

  /** Writes at once, replacing a pending coalesced write. */
  async writeNow(conversation: Conversation): Promise<void> {
    this.cancel(conversation.id);
    // Counted from the start too: a change while this write runs waits for the interval as well,
    // and a store that keeps failing is not retried at once.
    const previousChars = this.last.get(conversation.id)?.chars ?? 0;
    this.last.set(conversation.id, { at: this.clock.now(), chars: previousChars });
    const chars = await this.options.write(conversation);
    if (chars !== undefined) this.last.set(conversation.id, { at: this.clock.now(), chars });
  }

  cancel(conversationId: string): void {
    const entry = this.pending.get(conversationId);
    if (entry) this.clock.clearTimeout(entry.timer);
    this.pending.delete(conversationId);
  }

  /** Writes every pending change now (the panel closes). */
  async flush(): Promise<void> {
    await Promise.all([...this.pending.values()].map(({ conversation }) => this.writeNow(conversation)));
  }

  private earliestWrite(conversationId: string): number {
    const last = this.last.get(conversationId);
    if (!last) return 0;
    return last.at + Math.max(this.minIntervalMs, (last.chars / this.charsPerSecond) * 1000);
  }
}
