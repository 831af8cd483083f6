import { systemClock, type Clock } from '../../platform/kit/clock';

/** Text appended to one answer since the last post, with where it starts. */
export interface AnswerDelta {
  /** Length of the content before `content` was appended. */
  contentOffset: number;
  content: string;
  reasoningOffset: number;
  reasoning: string;
}

/** The text of the answer being streamed, as its one owner holds it right now. */
export interface StreamedText {
  readonly content: string;
  readonly reasoning: string;
}

/**
 * Coalesces the many small deltas of a streamed answer into at most one message per interval, so
 * a fast model does not flood the webview channel with one post per token. It keeps no text of
 * its own: it remembers how much of the answer was posted, and a flush posts what the answer has
 * gained since. Offsets let the receiver drop text it already has (after a full snapshot) and
 * notice a gap.
 */
export class DeltaBatcher {
  private postedContent = 0;
  private postedReasoning = 0;
  private timer: unknown;
  private cancelled = false;

  constructor(
    private readonly text: () => StreamedText,
    private readonly emit: (delta: AnswerDelta) => void,
    private readonly intervalMs = 16,
    private readonly clock: Clock = systemClock,
  ) {}

  /** The answer gained text: it is posted within the interval (one timer, however many tokens). */
  changed(): void {
    if (this.timer !== undefined || this.cancelled) return;
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, this.intervalMs);
  }

  /** Posts what the answer gained since the last post, if anything. */
  flush(): void {
    this.clearTimer();
    if (this.cancelled) return;
    const { content, reasoning } = this.text();
    if (content.length <= this.postedContent && reasoning.length <= this.postedReasoning) return;
    const delta: AnswerDelta = {
      contentOffset: this.postedContent,
      content: content.slice(this.postedContent),
      reasoningOffset: this.postedReasoning,
      reasoning: reasoning.slice(this.postedReasoning),
    };
    this.postedContent += delta.content.length;
    this.postedReasoning += delta.reasoning.length;
    this.emit(delta);
  }

  /** Posts nothing more, for good: the final message that follows carries the whole text anyway. */
  cancel(): void {
    this.cancelled = true;
    this.clearTimer();
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
