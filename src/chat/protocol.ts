/**
 * The chat's methods and events, on the wire format every webview shares (../common/wire.ts). The
 * webview asks the host to act (send, stop, export…); the host streams events (deltas, updated
 * answers, lists); the host may also ask the webview what it shows (used by tests and diagnostics).
 */
import type { AnswerDelta } from './model/deltaBatcher';
import type { AnswerEntry, ChatEntry, ChatParameters, Conversation, ConversationSettings, ConversationSummary } from './model/conversationTypes';
import { maxIdChars, maxTurnEntries, maxModelIdChars, maxShownEntries, maxStopSequenceChars, maxStopSequences, maxSystemPromptChars } from './model/limits';
import type { ModelCatalogue } from './model/modelOptions';
import { isCount, ownValue, params, ProtocolError, tooLong } from '../platform/pages/wire';

export interface ShownLength {
  messageId: string;
  contentLength: number;
  reasoningLength: number;
}

export type ExportFormat = 'markdown' | 'json';

/** Everything the webview needs to draw itself from nothing. */
export interface PanelSnapshot {
  conversations: ConversationSummary[];
  conversation: Conversation;
  models: ModelCatalogue;
  modelsLoading: boolean;
}

/** Requests the webview sends to the host. */
export type HostMethods = {
  ready: { params: { conversationId?: string }; result: PanelSnapshot };
  newConversation: { params: Record<string, never>; result: Conversation };
  openConversation: { params: { conversationId: string }; result: Conversation };
  renameConversation: { params: { conversationId: string }; result: { title: string } | null };
  deleteConversation: { params: { conversationId: string }; result: { deleted: boolean; conversation: Conversation } };
  exportConversation: { params: { conversationId: string; format?: ExportFormat }; result: { exported: boolean } };
  updateSettings: { params: { conversationId: string; settings: ConversationSettings }; result: ConversationSettings };
  send: { params: { conversationId: string; text: string }; result: { userMessageId: string } };
  /** `shown` is what the webview displayed when Stop was pressed; the kept text is cut to it. */
  stop: { params: { conversationId: string; shown: ShownLength[] }; result: { answers: AnswerEntry[] } };
  retry: { params: { conversationId: string; messageId: string }; result: { messageId: string } };
  regenerate: { params: { conversationId: string }; result: { messageIds: string[] } };
  editLastUserMessage: { params: { conversationId: string; text: string }; result: { messageIds: string[] } };
  refreshModels: { params: Record<string, never>; result: ModelCatalogue };
  saveDraft: { params: { conversationId: string; text: string }; result: null };
  copyText: { params: { text: string }; result: null };
  insertText: { params: { text: string }; result: null };
  openLink: { params: { href: string }; result: { opened: boolean } };
  runAction: { params: { action: 'signIn' | 'configure' | 'showLog' }; result: null };
};

/** What the webview reports about itself when the host asks. */
export interface WebviewReport {
  conversationId: string;
  /** The values the model pickers show right now. */
  selectedModels: string[];
  compare: boolean;
  messageCount: number;
  streamingMessageIds: string[];
  /** Rendered text of each message, in order (for tests: what the user actually sees). */
  messages: { id: string; role: string; status?: string; text: string }[];
  draft: string;
}

/** Requests the host sends to the webview. */
export type WebviewMethods = {
  report: { params: Record<string, never>; result: WebviewReport };
};

/** Events the host sends to the webview. */
export type HostEvent =
  | { type: 'conversations'; items: ConversationSummary[] }
  /**
   * The conversation changed structurally (messages added or removed, settings, title). With
   * `reveal`, the host opened it (a model chosen in the Models view, a new chat): the webview
   * switches to it; without, only the conversation on screen is updated.
   */
  | { type: 'conversation'; conversation: Conversation; reveal?: boolean }
  /**
   * The last turn changed: a message was sent, or the last one was edited, retried or answered
   * again. The messages from index `from` on are replaced by `messages`; the ones before it are
   * unchanged and are neither posted nor drawn again, so a turn costs the same in a long
   * conversation as in a short one. `previousCount` is how many messages the conversation had just
   * before: a webview holding another count missed something and asks for the whole conversation.
   */
  | { type: 'turnChanged'; conversationId: string; from: number; previousCount: number; messages: ChatEntry[] }
  /** The settings of a conversation changed without the user (a model chosen once the list came in). */
  | { type: 'settings'; conversationId: string; settings: ConversationSettings }
  | ({ type: 'answerDelta'; conversationId: string; messageId: string } & AnswerDelta)
  /** One answer reached a new state (finished, stopped, failed); carries its whole text. */
  | { type: 'answerUpdated'; conversationId: string; answer: AnswerEntry }
  | { type: 'models'; catalogue: ModelCatalogue; loading: boolean };

/**
 * Whether a `turnChanged` event applies to the `count` messages the webview holds: the counts agree,
 * `from` is inside them, and the new part is one turn (a question and its answers) of entries with
 * ids. Anything else means the two sides differ, and the webview reads the whole conversation again.
 */
export function turnChangeFits(event: { from: unknown; previousCount: unknown; messages: unknown }, count: number): event is { from: number; previousCount: number; messages: ChatEntry[] } {
  const { from, previousCount, messages } = event;
  if (!isCount(from) || previousCount !== count || from > count || !Array.isArray(messages) || messages.length > maxTurnEntries) return false;
  return messages.every((entry: unknown) => {
    if (typeof entry !== 'object' || entry === null) return false;
    const { id, role } = entry as Record<string, unknown>;
    return typeof id === 'string' && id.length <= maxIdChars && (role === 'user' || role === 'assistant');
  });
}

/** Events the webview sends to the host (none carry a reply). */
export type WebviewEvent = { type: 'log'; level: 'warn' | 'error'; message: string };

/**
 * The chat's checks of incoming params, on top of the shared ones: ids are short, the Stop request
 * and the settings form are read field by field, and every list has a count limit.
 */
// Built by a call marked pure, so that a bundle that takes only this file's constants (activation
// takes the view type) leaves the checks out.
export const chatParams = /* @__PURE__ */ Object.assign({}, params, {
  /** An id (conversation, message): short, or the request is refused. */
  id(raw: unknown, name: string): string {
    return params.string(raw, name, maxIdChars);
  },
  optionalId(raw: unknown, name: string): string | undefined {
    const value = ownValue(params.object(raw), name);
    if (value === undefined || value === null) return undefined;
    return chatParams.id(raw, name);
  },
  shownLengths(raw: unknown): ShownLength[] {
    const value = ownValue(params.object(raw), 'shown');
    if (value === undefined) return [];
    if (!Array.isArray(value)) throw new ProtocolError('shown must be a list');
    if (value.length > maxShownEntries) throw new ProtocolError(`shown has more than ${maxShownEntries} entries`);
    return value.map((item) => {
      const entry = params.object(item);
      const messageId = ownValue(entry, 'messageId');
      const contentLength = ownValue(entry, 'contentLength');
      const reasoningLength = ownValue(entry, 'reasoningLength');
      if (typeof messageId !== 'string' || messageId.length > maxIdChars || !isCount(contentLength) || !isCount(reasoningLength)) {
        throw new ProtocolError('shown entries need messageId, contentLength and reasoningLength');
      }
      return { messageId, contentLength, reasoningLength };
    });
  },
  /**
   * The settings form. Model ids longer than any real one are refused; the system prompt over its
   * limit is refused too (the form's field has the same limit, so only a crafted message gets
   * there); stop sequences are cut to their limits.
   */
  settings(raw: unknown): { models: [string, string]; compare: boolean; systemPrompt: string; parameters: Partial<Record<keyof ChatParameters, unknown>> } {
    const settings = params.object(ownValue(params.object(raw), 'settings'));
    const text = (name: string, maxLength: number): string => {
      const value = ownValue(settings, name);
      if (typeof value !== 'string') return '';
      if (value.length > maxLength) throw new ProtocolError(tooLong(name, value.length, maxLength), 'too-long');
      return value;
    };
    const rawParameters = params.object(ownValue(settings, 'parameters'));
    const parameters: Partial<Record<keyof ChatParameters, unknown>> = {};
    for (const key of ['temperature', 'topP', 'maxTokens', 'seed', 'jsonOutput'] as const) {
      const value = ownValue(rawParameters, key);
      // Numbers and flags only: a string here may be a number typed in a form, but never a long one.
      if (typeof value === 'number' || typeof value === 'boolean' || (typeof value === 'string' && value.length <= 64)) parameters[key] = value;
    }
    const stop = ownValue(rawParameters, 'stop');
    if (Array.isArray(stop)) {
      parameters.stop = stop
        .slice(0, maxStopSequences)
        .filter((item): item is string => typeof item === 'string')
        .map((item) => item.slice(0, maxStopSequenceChars));
    }
    return {
      models: [text('model', maxModelIdChars), text('compareModel', maxModelIdChars)],
      compare: ownValue(settings, 'compare') === true,
      systemPrompt: text('systemPrompt', maxSystemPromptChars),
      parameters,
    };
  },
});

/**
 * The webview type of the chat panel: activation registers its serializer with it,
 * without loading the chat (package.json's onWebviewPanel event names it too).
 */
export const chatViewType = 'rlStudio.chat';
