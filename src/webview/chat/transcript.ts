import { isAnswer, type AnswerEntry, type Conversation, type UserEntry } from '../../chat/conversationTypes';
import { shortModelLabel } from '../../chat/modelIds';
import type { ShownLength } from './chatProtocol';
import { AnswerView, type AnswerContext } from './answerView';
import { h } from '../common/dom';
import { UserView } from './userView';

/**
 * The list of messages. Structural changes (a new turn, a retry, another conversation) reconcile
 * views by message id, so an answer that is streaming keeps its view and its rendered blocks;
 * answers to the same message sit side by side (compare mode).
 */
export class Transcript {
  readonly element: HTMLElement;
  private readonly answers = new Map<string, AnswerView>();
  private readonly users = new Map<string, UserView>();
  private readonly empty: HTMLElement;
  private conversationId = '';

  constructor(
    private readonly context: Omit<AnswerContext, 'keepBottom'>,
    private readonly onEdit: (entry: UserEntry) => void,
  ) {
    this.element = h('main', { class: 'transcript', ariaLabel: 'Conversation' });
    this.element.setAttribute('role', 'log');
    this.empty = h('div', { class: 'empty-state' });
  }

  /** Runs a change and keeps the view pinned to the bottom if it was (within a few pixels). */
  keepBottom(change: () => void): void {
    const element = this.element;
    const pinned = element.scrollHeight - element.scrollTop - element.clientHeight < 48;
    change();
    if (pinned) element.scrollTop = element.scrollHeight;
  }

  setConversation(conversation: Conversation, busy: boolean): void {
    const switched = conversation.id !== this.conversationId;
    this.conversationId = conversation.id;
    if (switched) {
      this.answers.clear();
      this.users.clear();
    }
    const seen = new Set<string>();
    const turns: HTMLElement[] = [];
    let currentAnswers: HTMLElement | undefined;
    const lastUser = [...conversation.messages].reverse().find((entry) => entry.role === 'user');
    for (const entry of conversation.messages) {
      seen.add(entry.id);
      if (!isAnswer(entry)) {
        const view = this.users.get(entry.id) ?? new UserView(entry, this.onEdit);
        this.users.set(entry.id, view);
        view.setEntry(entry);
        view.setEditable(entry === lastUser && !busy);
        currentAnswers = h('div', { class: 'answers' });
        turns.push(h('section', { class: 'turn' }, view.element, currentAnswers));
        continue;
      }
      const view = this.answerView(entry);
      view.setLastTurn(entry.replyTo === lastUser?.id);
      if (!currentAnswers) {
        currentAnswers = h('div', { class: 'answers' });
        turns.push(h('section', { class: 'turn' }, currentAnswers));
      }
      currentAnswers.append(view.element);
    }
    for (const answers of turns.map((turn) => turn.querySelector('.answers')).filter(Boolean)) {
      answers!.classList.toggle('compare', answers!.childElementCount > 1);
    }
    for (const id of [...this.answers.keys()]) if (!seen.has(id)) this.answers.delete(id);
    for (const id of [...this.users.keys()]) if (!seen.has(id)) this.users.delete(id);
    this.empty.textContent = conversation.settings.model ? `Ask anything. ${shortModelLabel(conversation.settings.model)} answers here, streaming.` : 'Choose a model above, then ask anything.';
    this.keepBottom(() => this.element.replaceChildren(...(turns.length > 0 ? turns : [this.empty])));
    if (switched) this.element.scrollTop = this.element.scrollHeight;
  }

  answer(id: string): AnswerView | undefined {
    return this.answers.get(id);
  }

  streamingAnswers(): AnswerView[] {
    return [...this.answers.values()].filter((view) => view.isStreaming);
  }

  /** Freezes every streaming answer and returns what each showed. */
  freezeStreaming(): ShownLength[] {
    return [...this.answers.values()].flatMap((view) => view.freeze() ?? []);
  }

  /** What the user sees, message by message, in order. */
  shownMessages(): { id: string; role: string; status?: string; text: string }[] {
    return [...this.element.querySelectorAll<HTMLElement>('article.message')].map((element) => {
      const id = element.dataset.messageId ?? '';
      const answer = this.answers.get(id);
      if (answer) return { id, role: 'assistant', status: answer.displayStatus, text: answer.shownText };
      return { id, role: 'user', text: this.users.get(id)?.shownText ?? '' };
    });
  }

  private answerView(entry: AnswerEntry): AnswerView {
    let view = this.answers.get(entry.id);
    if (!view) {
      view = new AnswerView(entry, { ...this.context, keepBottom: (change) => this.keepBottom(change) });
      this.answers.set(entry.id, view);
    } else if (!view.isFrozen && (entry.status !== 'streaming' || view.displayStatus !== 'streaming')) {
      view.setAnswer(entry);
    }
    return view;
  }
}
