import { isAnswer, type AnswerEntry, type ChatEntry, type Conversation, type UserEntry } from '../model/conversationTypes';
import { shortModelLabel } from '../../platform/kit/modelIds';
import type { ShownLength } from '../protocol';
import { AnswerView, type AnswerContext } from './answerView';
import { h } from '../../platform/pages/page/dom';
import { UserView } from './userView';

/** How close to the bottom (in pixels) still counts as at the bottom. */
const bottomSlackPx = 48;
/** Scroll events this soon after the user's wheel, touch, key or pointer are the user's. */
const userScrollWindowMs = 1_000;
/** Main-thread time one frame may spend drawing an opened conversation; the rest waits for the next frames. */
const stepBudgetMs = 8;

/** A question and the answers to it (side by side in compare mode); the key is the question's id. */
interface Turn {
  key: string;
  user?: UserEntry;
  answers: AnswerEntry[];
}

interface TurnView {
  section: HTMLElement;
  answers: HTMLElement;
}

/**
 * The list of messages. Every change reconciles views by message id: a message whose entry did not
 * change keeps its DOM and is not drawn again, so a new turn costs the same in a long conversation
 * as in a short one, and an answer that is streaming keeps its view and its rendered blocks.
 *
 * An opened conversation is drawn newest first: what fits in a few milliseconds at once (a short
 * conversation whole), the rest a few milliseconds per frame, a long answer a slice at a time and
 * the older turns one by one above it, so no frame draws the whole conversation. `aria-busy` is set until every turn is drawn; `shownMessages` draws what
 * is left first, so reports always see the whole conversation.
 *
 * The transcript stays at the bottom while it was there. A ResizeObserver on the turns scrolls it
 * down when they grow: it runs after the frame's layout, so no change of any answer ever reads
 * layout itself. Only the user's own scrolling (wheel, touch, keys, the scroll bar) decides whether
 * it is at the bottom; scrolls of its own, or of scroll anchoring as turns appear above, do not.
 */
export class Transcript {
  readonly element: HTMLElement;
  private readonly answers = new Map<string, AnswerView>();
  private readonly users = new Map<string, UserView>();
  private readonly turnViews = new Map<string, TurnView>();
  private readonly empty: HTMLElement;
  private conversationId = '';
  /** The conversation's turns, oldest first. */
  private turns: Turn[] = [];
  /** `turns[0 .. undrawn)` have no DOM yet: they are drawn newest first, a few per frame. */
  private undrawn = 0;
  /** Answers whose text is still being drawn a slice at a time, in the order they are finished. */
  private readonly partlyDrawn = new Set<AnswerView>();
  private lastUserId: string | undefined;
  private busy = false;
  private atBottom = true;
  private userScrollAt = -Infinity;
  private readonly resizes: ResizeObserver;
  private readonly stepper = { renderFrame: () => this.drawStep(stepBudgetMs) };

  constructor(
    private readonly context: AnswerContext,
    private readonly onEdit: (entry: UserEntry) => void,
  ) {
    this.element = h('main', { class: 'transcript', ariaLabel: 'Conversation' });
    this.element.setAttribute('role', 'log');
    this.empty = h('div', { class: 'empty-state' });
    this.resizes = new ResizeObserver(() => this.pin());
    for (const type of ['wheel', 'touchmove', 'keydown', 'pointerdown']) {
      this.element.addEventListener(type, () => (this.userScrollAt = performance.now()), { passive: true });
    }
    this.element.addEventListener('scroll', () => this.recordPosition(), { passive: true });
  }

  setConversation(conversation: Conversation, busy: boolean): void {
    const switched = conversation.id !== this.conversationId;
    this.conversationId = conversation.id;
    this.turns = turnsOf(conversation.messages);
    this.busy = busy;
    const lastUserId = [...this.turns].reverse().find((turn) => turn.user)?.user?.id;
    // A new question: the user wants to see its answer, wherever they had scrolled to.
    if (lastUserId !== this.lastUserId) this.atBottom = true;
    this.lastUserId = lastUserId;
    const reset = switched || this.undrawn > this.turns.length;
    if (reset) this.reset();
    this.empty.textContent = conversation.settings.model ? `Ask anything. ${shortModelLabel(conversation.settings.model)} answers here, streaming.` : 'Choose a model above, then ask anything.';
    this.reconcile();
    // As much as fits in one step at once: a short conversation appears whole, a long one newest first.
    if (reset && this.drawing) this.drawStep(stepBudgetMs);
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

  /** Whether turns or long answers of an opened conversation are still being drawn. */
  get drawing(): boolean {
    return this.undrawn > 0 || this.partlyDrawn.size > 0;
  }

  /** What the user sees, message by message, in order: the whole conversation, drawn first if it was not yet. */
  shownMessages(): { id: string; role: string; status?: string; text: string }[] {
    while (this.drawing) this.drawStep(Infinity);
    // Turns out of view are not laid out (content-visibility), and text that is not laid out has no innerText.
    this.element.classList.add('reading-all');
    try {
      return [...this.element.querySelectorAll<HTMLElement>('article.message')].map((element) => {
        const id = element.dataset.messageId ?? '';
        const answer = this.answers.get(id);
        if (answer) return { id, role: 'assistant', status: answer.displayStatus, text: answer.shownText };
        return { id, role: 'user', text: this.users.get(id)?.shownText ?? '' };
      });
    } finally {
      this.element.classList.remove('reading-all');
    }
  }

  /** Another conversation: nothing is kept, the newest turn is drawn now and the older ones later. */
  private reset(): void {
    this.answers.clear();
    this.users.clear();
    this.turnViews.clear();
    this.partlyDrawn.clear();
    this.element.replaceChildren();
    this.undrawn = Math.max(0, this.turns.length - 1);
    this.atBottom = true;
    this.resizes.disconnect();
  }

  /** Brings the drawn turns (`turns[undrawn ..]`) up to date, touching only what changed. */
  private reconcile(): void {
    const drawn = this.turns.slice(this.undrawn);
    const sections = drawn.map((turn) => this.turnView(turn).section);
    if (this.turns.length === 0) {
      if (this.element.firstChild !== this.empty || this.element.childNodes.length !== 1) this.element.replaceChildren(this.empty);
    } else {
      placeInOrder(this.element, sections);
    }
    const seen = new Set<string>();
    for (const turn of drawn) {
      seen.add(turn.key);
      if (turn.user) seen.add(turn.user.id);
      for (const answer of turn.answers) seen.add(answer.id);
    }
    for (const [id, view] of this.answers) {
      if (seen.has(id)) continue;
      this.answers.delete(id);
      this.partlyDrawn.delete(view);
    }
    for (const id of this.users.keys()) if (!seen.has(id)) this.users.delete(id);
    for (const [key, view] of this.turnViews) {
      if (seen.has(key)) continue;
      this.turnViews.delete(key);
      this.resizes.unobserve(view.section);
    }
    this.scheduleStep();
  }

  /** The view of one turn, created or brought up to date. */
  private turnView(turn: Turn): TurnView {
    let view = this.turnViews.get(turn.key);
    if (!view) {
      const answers = h('div', { class: 'answers' });
      view = { section: h('section', { class: 'turn' }, answers), answers };
      this.turnViews.set(turn.key, view);
      this.resizes.observe(view.section);
    }
    if (turn.user) {
      const user = this.userView(turn.user);
      if (view.section.firstElementChild !== user.element) view.section.insertBefore(user.element, view.answers);
    }
    const lastTurn = turn.user !== undefined && turn.user.id === this.lastUserId;
    placeInOrder(
      view.answers,
      turn.answers.map((entry) => {
        const answer = this.answerView(entry);
        answer.setLastTurn(lastTurn);
        return answer.element;
      }),
    );
    const compare = turn.answers.length > 1;
    if (view.answers.classList.contains('compare') !== compare) view.answers.classList.toggle('compare', compare);
    return view;
  }

  private userView(entry: UserEntry): UserView {
    let view = this.users.get(entry.id);
    if (!view) {
      view = new UserView(entry, this.onEdit);
      this.users.set(entry.id, view);
    }
    view.setEntry(entry);
    view.setEditable(entry.id === this.lastUserId && !this.busy);
    return view;
  }

  /** An answer's view: a new one, or the existing one redrawn only when its entry changed. */
  private answerView(entry: AnswerEntry): AnswerView {
    let view = this.answers.get(entry.id);
    if (!view) {
      view = new AnswerView(entry, this.context, { drawLater: true });
      this.answers.set(entry.id, view);
      if (!view.fullyDrawn) this.partlyDrawn.add(view);
    } else if (!view.isFrozen && view.differsFrom(entry) && (entry.status !== 'streaming' || view.displayStatus !== 'streaming')) {
      view.setAnswer(entry);
      this.partlyDrawn.delete(view);
    }
    return view;
  }

  private scheduleStep(): void {
    if (this.drawing) {
      this.element.setAttribute('aria-busy', 'true');
      this.context.scheduler.schedule(this.stepper);
    } else {
      this.element.removeAttribute('aria-busy');
      this.context.scheduler.cancel(this.stepper);
    }
  }

  /**
   * Draws part of an opened conversation within `budgetMs`, at least one slice or one turn: first
   * the rest of long answers already on screen, then the next older turn above the drawn ones.
   */
  private drawStep(budgetMs: number): void {
    const started = performance.now();
    do {
      const partial = this.partlyDrawn.values().next().value;
      if (partial) {
        if (partial.drawSlice()) this.partlyDrawn.delete(partial);
      } else if (this.undrawn > 0) {
        this.undrawn--;
        this.element.insertBefore(this.turnView(this.turns[this.undrawn]!).section, this.element.firstElementChild);
      } else {
        break;
      }
    } while (performance.now() - started < budgetMs);
    this.scheduleStep();
  }

  /** After the user scrolled: is the transcript at the bottom now? */
  private recordPosition(): void {
    if (performance.now() - this.userScrollAt > userScrollWindowMs) return;
    const element = this.element;
    this.atBottom = element.scrollHeight - element.scrollTop - element.clientHeight < bottomSlackPx;
  }

  /** Turns changed size (after layout, so reading it costs nothing more): back to the bottom if the transcript was there. */
  private pin(): void {
    if (this.atBottom) this.element.scrollTop = this.element.scrollHeight;
  }
}

/** Groups messages by question; answers before any question form a turn of their own. */
function turnsOf(messages: readonly ChatEntry[]): Turn[] {
  const turns: Turn[] = [];
  let current: Turn | undefined;
  for (const entry of messages) {
    if (!isAnswer(entry)) {
      current = { key: entry.id, user: entry, answers: [] };
      turns.push(current);
    } else {
      if (!current) {
        current = { key: `before:${entry.id}`, answers: [] };
        turns.push(current);
      }
      current.answers.push(entry);
    }
  }
  return turns;
}

/** Makes `children` the element's children, in order, moving or removing only what differs. */
function placeInOrder(parent: HTMLElement, children: readonly HTMLElement[]): void {
  let at = parent.firstElementChild;
  for (const child of children) {
    if (at === child) {
      at = at.nextElementSibling;
      continue;
    }
    parent.insertBefore(child, at);
  }
  while (at) {
    const next = at.nextElementSibling;
    at.remove();
    at = next;
  }
}
