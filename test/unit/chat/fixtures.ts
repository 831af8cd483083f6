/**
 * Builders of the chat's data for tests, so each test states only the fields it is about, and
 * readers of what the webview received (the answers that ended, the text it shows).
 */
import { createConversation } from '../../../src/chat/model/conversation';
import type { AnswerEntry, Conversation, UserEntry } from '../../../src/chat/model/conversationTypes';
import { applyDelta } from '../../../src/chat/model/deltaBatcher';
import type { PlatformApi } from '../../../src/platform/client/types';
import type { ModelCatalogue, ModelOption } from '../../../src/chat/model/modelOptions';
import type { HostEvent, ShownLength } from '../../../src/chat/protocol';
import { testEnv } from './support';

export function userEntry(fields: Partial<UserEntry> = {}): UserEntry {
  return { id: 'u', role: 'user', content: 'q', createdAt: 1, ...fields };
}

/** A finished answer to the user entry 'u', empty unless told otherwise. */
export function answerEntry(fields: Partial<AnswerEntry> = {}): AnswerEntry {
  return { id: 'a', role: 'assistant', replyTo: 'u', column: 0, model: 'm', content: '', reasoning: '', status: 'done', createdAt: 1, ...fields };
}

/** A new conversation holding one question and its answer. */
export function conversationWithAnswer(answer: Partial<AnswerEntry> = {}, question: Partial<UserEntry> = {}): Conversation {
  const conversation = createConversation(testEnv());
  const user = userEntry(question);
  conversation.messages.push(user, answerEntry({ replyTo: user.id, ...answer }));
  return conversation;
}

/** A catalogue model as the picker lists it. */
export function modelOption(id: string, api: PlatformApi = 'inference'): ModelOption {
  return { id, label: id, group: 'Inference models', api };
}

export function catalogueOf(...ids: string[]): ModelCatalogue {
  return { options: ids.map((id) => modelOption(id)), problems: [] };
}

/** What a webview reports as shown of one answer when Stop is pressed. */
export function shownLength(messageId: string, contentLength: number, reasoningLength = 0): ShownLength {
  return { messageId, contentLength, reasoningLength };
}

/** The answers that reached an end (finished, stopped, failed), in the order the webview heard of it. */
export function finishedAnswers(events: readonly HostEvent[]): AnswerEntry[] {
  return events.flatMap((event) => (event.type === 'answerUpdated' ? [event.answer] : []));
}

/** The text a webview following the events shows for each answer; a gap in the deltas fails. */
export function shownText(events: readonly HostEvent[]): Map<string, string> {
  const text = new Map<string, string>();
  for (const event of events) {
    if (event.type === 'answerDelta') {
      const next = applyDelta(text.get(event.messageId) ?? '', event.contentOffset, event.content);
      if (next === undefined) throw new Error(`a gap in the deltas of ${event.messageId}`);
      text.set(event.messageId, next);
    } else if (event.type === 'answerUpdated') {
      text.set(event.answer.id, event.answer.content);
    }
  }
  return text;
}

/** Events about one answer (its deltas and its updates). */
export function eventsAbout(events: readonly HostEvent[], messageId: string): HostEvent[] {
  return events.filter((event) => (event.type === 'answerDelta' && event.messageId === messageId) || (event.type === 'answerUpdated' && event.answer.id === messageId));
}

/** The receiving end of a streamed answer: keeps what `onDelta` hands out. */
export function textReceiver() {
  const text = { content: '', reasoning: '' };
  return {
    text,
    onDelta: (content: string, reasoning: string) => {
      text.content += content;
      text.reasoning += reasoning;
    },
  };
}
