import { systemClock, type Clock } from '../../platform/kit/clock';
import { defaultSettings, isAnswer, isUser, type AnswerColumn, type AnswerEntry, type ChatEntry, type Conversation, type ConversationSettings, type UserEntry } from './conversationTypes';

/** Ids and time (a Clock's wall time: conversations show when they were written), injected so tests are deterministic. */
export interface ConversationEnv extends Pick<Clock, 'now'> {
  newId(): string;
}

export const defaultEnv: ConversationEnv = {
  newId: () => globalThis.crypto.randomUUID(),
  now: () => systemClock.now(),
};

export const untitled = 'New chat';

export function createConversation(env: ConversationEnv, settings: ConversationSettings = defaultSettings()): Conversation {
  const now = env.now();
  return { id: env.newId(), title: untitled, titleFromUser: false, createdAt: now, updatedAt: now, settings, messages: [], draft: '' };
}

/** The columns that answer under the current settings, each with its model. */
export function activeColumns(settings: ConversationSettings): { column: AnswerColumn; model: string }[] {
  const columns: { column: AnswerColumn; model: string }[] = [{ column: 0, model: settings.model }];
  if (settings.compare && settings.compareModel) columns.push({ column: 1, model: settings.compareModel });
  return columns;
}

export function lastUserMessage(conversation: Conversation): UserEntry | undefined {
  for (let i = conversation.messages.length - 1; i >= 0; i--) {
    const entry = conversation.messages[i]!;
    if (isUser(entry)) return entry;
  }
  return undefined;
}

/** Where the last turn starts: the index of the last user message (0 when there is none). */
export function lastTurnStart(conversation: Conversation): number {
  const last = lastUserMessage(conversation);
  return last ? conversation.messages.lastIndexOf(last) : 0;
}

/** Answers to the last user message: the ones Regenerate and Retry may replace. */
export function lastTurnAnswers(conversation: Conversation): AnswerEntry[] {
  const last = lastUserMessage(conversation);
  if (!last) return [];
  return conversation.messages.filter((entry): entry is AnswerEntry => isAnswer(entry) && entry.replyTo === last.id);
}

export function streamingAnswers(conversation: Conversation): AnswerEntry[] {
  return conversation.messages.filter((entry): entry is AnswerEntry => isAnswer(entry) && entry.status === 'streaming');
}

function newAnswer(env: ConversationEnv, replyTo: string, column: AnswerColumn, model: string): AnswerEntry {
  return { id: env.newId(), role: 'assistant', replyTo, column, model, content: '', reasoning: '', status: 'streaming', createdAt: env.now() };
}

/** Notes on each new answer whose history borrows the first column's answers, so the panel says so. */
function noteBorrowedHistory(conversation: Conversation, answers: readonly AnswerEntry[]): void {
  for (const answer of answers) {
    const { borrowedFrom } = historyOf(conversation, answer);
    if (borrowedFrom.length > 0) answer.historyFrom = borrowedFrom;
  }
}

/**
 * Adds the user's message and one streaming answer per active column. The title follows the first
 * message until the user renames the conversation.
 */
export function appendUserTurn(conversation: Conversation, text: string, env: ConversationEnv): { user: UserEntry; answers: AnswerEntry[] } {
  const user: UserEntry = { id: env.newId(), role: 'user', content: text, createdAt: env.now() };
  conversation.messages.push(user);
  const answers = activeColumns(conversation.settings).map(({ column, model }) => newAnswer(env, user.id, column, model));
  conversation.messages.push(...answers);
  noteBorrowedHistory(conversation, answers);
  if (!conversation.titleFromUser && conversation.messages.filter(isUser).length === 1) conversation.title = titleFrom(text);
  conversation.draft = '';
  conversation.updatedAt = env.now();
  return { user, answers };
}

/**
 * Replaces the last user message's text and drops everything after it, then adds fresh answers
 * under the current settings.
 */
export function editLastUserMessage(conversation: Conversation, text: string, env: ConversationEnv): { user: UserEntry; answers: AnswerEntry[] } | undefined {
  const user = lastUserMessage(conversation);
  if (!user) return undefined;
  const index = conversation.messages.indexOf(user);
  conversation.messages.splice(index + 1);
  user.content = text;
  const answers = activeColumns(conversation.settings).map(({ column, model }) => newAnswer(env, user.id, column, model));
  conversation.messages.push(...answers);
  noteBorrowedHistory(conversation, answers);
  if (!conversation.titleFromUser && conversation.messages.filter(isUser).length === 1) conversation.title = titleFrom(text);
  conversation.updatedAt = env.now();
  return { user, answers };
}

/** Replaces every answer of the last turn by a fresh one under the current settings. */
export function regenerateLastTurn(conversation: Conversation, env: ConversationEnv): AnswerEntry[] | undefined {
  const user = lastUserMessage(conversation);
  if (!user) return undefined;
  conversation.messages.splice(conversation.messages.indexOf(user) + 1);
  const answers = activeColumns(conversation.settings).map(({ column, model }) => newAnswer(env, user.id, column, model));
  conversation.messages.push(...answers);
  noteBorrowedHistory(conversation, answers);
  conversation.updatedAt = env.now();
  return answers;
}

/**
 * Replaces one answer of the last turn by a fresh one with the same model and column. The new id
 * guarantees that late text of the old request can never land in the new answer.
 */
export function retryAnswer(conversation: Conversation, messageId: string, env: ConversationEnv): AnswerEntry | undefined {
  const old = lastTurnAnswers(conversation).find((answer) => answer.id === messageId);
  if (!old || old.status === 'streaming') return undefined;
  const fresh = newAnswer(env, old.replyTo, old.column, old.model);
  conversation.messages.splice(conversation.messages.indexOf(old), 1, fresh);
  noteBorrowedHistory(conversation, [fresh]);
  conversation.updatedAt = env.now();
  return fresh;
}

/**
 * What one column's model sees as history: every user message and that column's finished or
 * stopped answers, up to and including the user message being answered. Failed answers are left
 * out: their partial text was never a real reply.
 */
export function historyFor(conversation: Conversation, answer: AnswerEntry): ChatEntry[] {
  return historyOf(conversation, answer).entries;
}

/**
 * The history an answer is asked with, and whose answers filled it: each earlier user message with
 * the answer of the same column, or, where that column has none (Compare turned on mid-conversation,
 * a failed answer), the first column's answer to the same message. So both columns of a comparison
 * answer the same conversation, like for like; `borrowedFrom` names the models whose answers stood in.
 */
export function historyOf(conversation: Conversation, answer: AnswerEntry): { entries: ChatEntry[]; borrowedFrom: string[] } {
  const usable = (entry: ChatEntry): entry is AnswerEntry => isAnswer(entry) && (entry.status === 'done' || entry.status === 'stopped') && entry.content !== '';
  const entries: ChatEntry[] = [];
  const borrowed = new Set<string>();
  let turn: { user: UserEntry; own?: AnswerEntry; first?: AnswerEntry } | undefined;
  const closeTurn = (): void => {
    if (!turn) return;
    entries.push(turn.user);
    const reply = turn.own ?? turn.first;
    if (reply) entries.push(reply);
    if (!turn.own && turn.first && answer.column !== 0) borrowed.add(turn.first.model);
  };
  for (const entry of conversation.messages) {
    if (isUser(entry)) {
      closeTurn();
      if (entry.id === answer.replyTo) {
        entries.push(entry);
        return { entries, borrowedFrom: [...borrowed] };
      }
      turn = { user: entry };
    } else if (turn && entry.replyTo === turn.user.id && usable(entry)) {
      if (entry.column === answer.column) turn.own = entry;
      else if (entry.column === 0) turn.first = entry;
    }
  }
  // The message answered is gone (never for answers made here): the history as it stands.
  closeTurn();
  return { entries, borrowedFrom: [...borrowed] };
}

export function titleFrom(text: string): string {
  const line =
    text
      .replace(/```[\s\S]*?(```|$)/g, ' ')
      .replace(/\s+/g, ' ')
      .trim() || text.replace(/\s+/g, ' ').trim();
  if (!line) return untitled;
  return line.length > 60 ? `${line.slice(0, 59).trimEnd()}…` : line;
}
