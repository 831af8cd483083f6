import type { AnswerEntry } from '../model/conversationTypes';
import { applyDelta } from '../model/deltaBatcher';
import { cutNotice } from '../model/limits';
import { shortModelLabel } from '../../platform/kit/modelIds';
import type { ShownLength } from '../protocol';
import { formatStats } from '../model/stats';
import { button, h } from '../../platform/pages/page/dom';
import type { FrameScheduler, Redrawable } from './frameScheduler';
import type { MarkdownRenderer } from './markdownRenderer';
import { StreamingMarkdownView } from './streamingMarkdown';

export interface AnswerActions {
  retry(messageId: string): void;
  regenerate(): void;
  runAction(action: 'signIn' | 'configure'): void;
  copy(text: string): void;
}

export interface AnswerContext {
  renderer: MarkdownRenderer;
  scheduler: FrameScheduler;
  actions: AnswerActions;
}

const statusLabels: Record<AnswerEntry['status'], string> = { streaming: 'answering…', done: '', stopped: 'stopped', error: 'failed' };

/** Characters of a finished answer drawn in one step when it is drawn later (an opened conversation). */
const sliceChars = 4096;

/**
 * What tells two states of one answer apart without comparing their text: Stop, Retry and the end
 * of a stream all change the status, a length or the footer's facts.
 */
function versionOf(answer: AnswerEntry): string {
  return JSON.stringify([answer.status, answer.content.length, answer.reasoning.length, answer.finishReason, answer.error, answer.cut, answer.stats, answer.model]);
}

/**
 * One answer. While it streams, deltas only update the local text and ask for a frame; the frame
 * redraws this answer alone. After Stop the view is frozen: it shows exactly what was on screen and
 * ignores anything still in flight, until the host's final word replaces it.
 */
export class AnswerView implements Redrawable {
  readonly element: HTMLElement;
  private answer: AnswerEntry;
  private readonly body: StreamingMarkdownView;
  private readonly reasoning: HTMLDetailsElement;
  private readonly reasoningText = document.createTextNode('');
  private readonly status: HTMLElement;
  private readonly footer: HTMLElement;
  private frozen = false;
  private lastTurn = false;
  private version: string;
  /** Characters of a finished answer's text drawn so far, while it is drawn a slice at a time. */
  private drawnUpTo: number | undefined;

  /**
   * With `drawLater`, a long finished answer shows its header and footer now and its text through
   * `drawSlice`, a slice at a time, so opening a long conversation never draws it in one frame.
   */
  constructor(
    answer: AnswerEntry,
    private readonly context: AnswerContext,
    options: { drawLater?: boolean } = {},
  ) {
    this.answer = { ...answer };
    this.status = h('span', { class: 'message-status' });
    const header = h('div', { class: 'message-header' }, h('span', { class: 'message-role', title: answer.model }, shortModelLabel(answer.model)), this.status);
    if (answer.historyFrom?.length) {
      // Compare turned on mid-conversation: this column answered the first column's history.
      const names = answer.historyFrom.map(shortModelLabel).join(', ');
      header.append(
        h(
          'span',
          {
            class: 'message-note',
            title: `Earlier turns had no answer of ${shortModelLabel(answer.model)}: it was asked with the answers of ${answer.historyFrom.join(', ')} instead, so both columns answer the same conversation.`,
          },
          `history: ${names}'s answers`,
        ),
      );
    }
    this.reasoning = h('details', { class: 'reasoning', hidden: true }, h('summary', {}, 'Reasoning'), h('div', { class: 'reasoning-text' }, this.reasoningText));
    const bodyElement = h('div', { class: 'message-body' });
    this.body = new StreamingMarkdownView(bodyElement, context.renderer);
    this.footer = h('div', { class: 'message-footer' });
    this.element = h('article', { class: 'message answer', data: { messageId: answer.id } }, header, this.reasoning, bodyElement, this.footer);
    this.version = versionOf(this.answer);
    if (options.drawLater && answer.status !== 'streaming' && answer.content.length > sliceChars) this.drawnUpTo = 0;
    this.show(this.answer);
  }

  /** Whether the answer's whole text is on screen (false while it is drawn a slice at a time). */
  get fullyDrawn(): boolean {
    return this.drawnUpTo === undefined;
  }

  /** Draws the next slice of a finished answer's text; true once all of it is drawn. */
  drawSlice(): boolean {
    if (this.drawnUpTo === undefined) return true;
    const next = this.drawnUpTo + sliceChars;
    if (next >= this.answer.content.length) {
      this.drawnUpTo = undefined;
      this.show(this.answer);
      return true;
    }
    this.drawnUpTo = next;
    this.body.update(this.answer.content.slice(0, next));
    return false;
  }

  /** Whether `entry` is another state of this answer than the one drawn. */
  differsFrom(entry: AnswerEntry): boolean {
    return versionOf(entry) !== this.version;
  }

  get id(): string {
    return this.answer.id;
  }

  get isStreaming(): boolean {
    return this.answer.status === 'streaming' && !this.frozen;
  }

  /** Applies streamed text; false when it does not fit (a gap: the caller resynchronizes). */
  applyDelta(contentOffset: number, content: string, reasoningOffset: number, reasoning: string): boolean {
    if (this.frozen || this.answer.status !== 'streaming') return true;
    const nextContent = applyDelta(this.answer.content, contentOffset, content);
    const nextReasoning = applyDelta(this.answer.reasoning, reasoningOffset, reasoning);
    if (nextContent === undefined || nextReasoning === undefined) return false;
    this.answer.content = nextContent;
    this.answer.reasoning = nextReasoning;
    this.context.scheduler.schedule(this);
    return true;
  }

  renderFrame(): void {
    this.body.update(this.answer.content);
    this.renderReasoning();
  }

  /**
   * Stop was pressed: drop what arrived but was not drawn yet, freeze, and report what was shown.
   * Returns undefined when the answer was not streaming.
   */
  freeze(): ShownLength | undefined {
    if (this.answer.status !== 'streaming' || this.frozen) return undefined;
    this.frozen = true;
    this.context.scheduler.cancel(this);
    this.answer.content = this.answer.content.slice(0, this.body.renderedLength);
    this.answer.reasoning = this.answer.reasoning.slice(0, this.reasoningText.data.length);
    this.status.textContent = 'stopping…';
    return { messageId: this.answer.id, contentLength: this.answer.content.length, reasoningLength: this.answer.reasoning.length };
  }

  get isFrozen(): boolean {
    return this.frozen;
  }

  /** The host's version of the answer (final state, or a snapshot while it streams). */
  setAnswer(answer: AnswerEntry): void {
    this.frozen = false;
    this.answer = { ...answer };
    this.version = versionOf(this.answer);
    this.drawnUpTo = undefined;
    this.context.scheduler.cancel(this);
    this.show(this.answer);
  }

  setLastTurn(lastTurn: boolean): void {
    if (this.lastTurn === lastTurn) return;
    this.lastTurn = lastTurn;
    this.renderFooter();
  }

  /** The text on screen, for reports. */
  get shownText(): string {
    return this.body.element.innerText ?? this.body.element.textContent ?? '';
  }

  get displayStatus(): string {
    return this.frozen ? 'stopping' : this.answer.status;
  }

  private show(answer: AnswerEntry): void {
    if (this.drawnUpTo !== undefined) this.body.update(answer.content.slice(0, this.drawnUpTo));
    else if (answer.status === 'streaming') this.body.update(answer.content);
    else this.body.finish(answer.content);
    this.renderReasoning();
    this.element.dataset.status = answer.status;
    this.status.textContent = statusLabels[answer.status];
    this.renderFooter();
  }

  private renderReasoning(): void {
    const text = this.answer.reasoning;
    if (text.length === this.reasoningText.data.length) return;
    this.reasoning.hidden = text.length === 0;
    if (text.startsWith(this.reasoningText.data)) this.reasoningText.appendData(text.slice(this.reasoningText.data.length));
    else this.reasoningText.data = text;
  }

  private renderFooter(): void {
    const answer = this.answer;
    const parts: Node[] = [];
    if (answer.stats && answer.status !== 'streaming') parts.push(h('span', { class: 'message-stats' }, formatStats(answer.stats)));
    if (answer.cut && answer.status !== 'streaming') parts.push(h('div', { class: 'message-error message-cut' }, cutNotice(answer.cut)));
    if (answer.status === 'error' && answer.error) {
      parts.push(h('div', { class: 'message-error', data: { errorKind: answer.error.kind } }, answer.error.message));
    }
    const actions = h('div', { class: 'message-actions' });
    if (answer.status !== 'streaming') {
      if (answer.content) actions.append(button('Copy', () => this.context.actions.copy(answer.content), { title: 'Copy the answer as Markdown' }));
      if (this.lastTurn && (answer.status === 'error' || answer.status === 'stopped')) {
        actions.append(button('Retry', () => this.context.actions.retry(answer.id), { class: answer.status === 'error' ? 'primary' : 'secondary', title: 'Ask this model again' }));
      }
      const action = answer.error?.action;
      if (action === 'signIn') actions.append(button('Sign In', () => this.context.actions.runAction(action), { title: 'Enter your platform API key' }));
      else if (action) actions.append(button('Configure Endpoints', () => this.context.actions.runAction(action), { title: "Open RL Studio's settings for the platform addresses" }));
      if (this.lastTurn && answer.column === 0) actions.append(button('Regenerate', () => this.context.actions.regenerate(), { title: 'Answer the last message again' }));
    }
    if (actions.childElementCount > 0) parts.push(actions);
    this.footer.replaceChildren(...parts);
  }
}
