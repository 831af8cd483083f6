import { systemClock, type Clock } from '../core/clock';

/** Text appended to one answer since the last flush, with where it starts. */
export interface AnswerDelta {
  /** Length of the content before `content` was appended. */
  contentOffset: number;
  content: string;
  reasoningOffset: number;
  reasoning: string;
}

/**
 * Coalesces the many small deltas of a streamed answer into at most one message per interval, so
 * a fast model does not flood the webview channel with one post per token. Offsets let the
 * receiver drop text it already has (after a full snapshot) and notice a gap.
 */
export class DeltaBatcher {
  private content = '';
  private reasoning = '';
  private contentOffset: number;
  private reasoningOffset: number;
  private timer: unknown;

  constructor(
    private readonly emit: (delta: AnswerDelta) => void,
    private readonly intervalMs = 16,
    start: { content: number; reasoning: number } = { content: 0, reasoning: 0 },
    private readonly clock: Clock = systemClock,
  ) {
    this.contentOffset = start.content;
    this.reasoningOffset = start.reasoning;
  }

  push(content: string, reasoning: string): void {
    this.content += content;
    this.reasoning += reasoning;
    if (this.timer === undefined && (this.content || this.reasoning)) {
      this.timer = this.clock.setTimeout(() => {
        this.timer = undefined;
        this.flush();
      }, this.intervalMs);
    }
  }

  flush(): void {
    this.clearTimer();
    if (!this.content && !this.reasoning) return;
    const delta: AnswerDelta = {
      contentOffset: this.contentOffset,
      content: this.content,
      reasoningOffset: this.reasoningOffset,
      reasoning: this.reasoning,
    };
    this.contentOffset += this.content.length;
    this.reasoningOffset += this.reasoning.length;
    this.content = '';
    this.reasoning = '';
    this.emit(delta);
  }

  /** Drops what is pending: the final message that follows carries the whole text anyway. */
  cancel(): void {
    this.clearTimer();
    this.content = '';
    this.reasoning = '';
  }

  private clearTimer(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }
}

/**
 * The receiving side: applies a delta to text of known length. Returns the new text, or undefined
 * when the delta starts after the end (a gap: the receiver needs a fresh snapshot).
 */
export function applyDelta(current: string, offset: number, text: string): string | undefined {
  if (offset > current.length) return undefined;
  const end = offset + text.length;
  if (end <= current.length) return current;
  return current + text.slice(current.length - offset);
}
