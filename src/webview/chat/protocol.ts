/**
 * The typed message protocol between the chat panel (extension host) and its webview.
 *
 * Three kinds of wire messages travel both ways: a request (id, method, params) that always gets
 * exactly one reply (the result, or an error), the reply itself, and an event (no reply). The
 * webview asks the host to act (send, stop, export…); the host streams events (deltas, updated
 * answers, lists); the host may also ask the webview what it shows (used by tests and diagnostics).
 */
import type { AnswerDelta } from '../../chat/deltaBatcher';
import type {
  AnswerEntry,
  ChatParameters,
  Conversation,
  ConversationSettings,
  ConversationSummary,
} from '../../chat/conversationTypes';
import { maxIdChars, maxModelIdChars, maxShownEntries, maxStopSequenceChars, maxStopSequences, maxSystemPromptChars } from '../../chat/limits';
import type { ModelCatalogue } from '../../chat/modelOptions';

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
  | ({ type: 'answerDelta'; conversationId: string; messageId: string } & AnswerDelta)
  /** One answer reached a new state (finished, stopped, failed); carries its whole text. */
  | { type: 'answerUpdated'; conversationId: string; answer: AnswerEntry }
  | { type: 'models'; catalogue: ModelCatalogue; loading: boolean };

/** Events the webview sends to the host (none carry a reply). */
export type WebviewEvent = { type: 'log'; level: 'warn' | 'error'; message: string };

export type MethodMap = Record<string, { params: unknown; result: unknown }>;

export interface RequestMessage {
  kind: 'request';
  id: number;
  method: string;
  params: unknown;
}

export type ReplyMessage =
  | { kind: 'reply'; id: number; ok: true; result: unknown }
  | { kind: 'reply'; id: number; ok: false; error: { message: string; code?: string } };

export interface EventMessage {
  kind: 'event';
  event: unknown;
}

export type WireMessage = RequestMessage | ReplyMessage | EventMessage;

/** A structurally valid wire message, or undefined: messages from the other side are not trusted blindly. */
export function parseWireMessage(raw: unknown): WireMessage | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const message = raw as Record<string, unknown>;
  const id = ownValue(message, 'id');
  const validId = typeof id === 'number' && Number.isSafeInteger(id) && id >= 0;
  switch (ownValue(message, 'kind')) {
    case 'request': {
      const method = ownValue(message, 'method');
      if (!validId || typeof method !== 'string') return undefined;
      return { kind: 'request', id: id as number, method, params: ownValue(message, 'params') };
    }
    case 'reply': {
      const ok = ownValue(message, 'ok');
      if (!validId || typeof ok !== 'boolean') return undefined;
      if (ok) return { kind: 'reply', id: id as number, ok: true, result: ownValue(message, 'result') };
      return { kind: 'reply', id: id as number, ok: false, error: parseErrorBody(ownValue(message, 'error')) };
    }
    case 'event': {
      const event = ownValue(message, 'event');
      if (typeof event !== 'object' || event === null) return undefined;
      return { kind: 'event', event };
    }
    default:
      return undefined;
  }
}

function parseErrorBody(raw: unknown): { message: string; code?: string } {
  if (typeof raw === 'object' && raw !== null) {
    const body = raw as Record<string, unknown>;
    const text = ownValue(body, 'message');
    const code = ownValue(body, 'code');
    const message = typeof text === 'string' ? text.slice(0, 2_000) : 'the request failed';
    return typeof code === 'string' ? { message, code: code.slice(0, 100) } : { message };
  }
  return { message: 'the request failed' };
}

/** Thrown by a request handler for invalid parameters; the caller receives it as an error reply. */
export class ProtocolError extends Error {
  constructor(
    message: string,
    readonly code = 'invalid-params',
  ) {
    super(message);
    this.name = 'ProtocolError';
  }
}

/** A property the object has itself: never one inherited from Object.prototype (`constructor`, a polluted key). */
export function ownValue(record: Record<string, unknown>, name: string): unknown {
  return Object.prototype.hasOwnProperty.call(record, name) ? record[name] : undefined;
}

/**
 * Checks for the untyped params of incoming requests. The webview is not trusted: only own
 * properties are read, every string has a length limit, every list a count limit, and the values
 * returned are fresh objects built from checked fields, never the objects that arrived.
 */
export const params = {
  object(raw: unknown): Record<string, unknown> {
    if (raw === undefined || raw === null) return {};
    if (typeof raw !== 'object' || Array.isArray(raw)) throw new ProtocolError('params must be an object');
    return raw as Record<string, unknown>;
  },
  /** `label` names the value for a person ("the message") in the error shown under the message box. */
  string(raw: unknown, name: string, maxLength: number, label = name): string {
    const value = ownValue(params.object(raw), name);
    if (typeof value !== 'string') throw new ProtocolError(`${name} must be a string`);
    if (value.length > maxLength) throw new ProtocolError(tooLong(label, value.length, maxLength), 'too-long');
    return value;
  },
  /** An id (conversation, message): short, or the request is refused. */
  id(raw: unknown, name: string): string {
    return params.string(raw, name, maxIdChars);
  },
  optionalId(raw: unknown, name: string): string | undefined {
    const value = ownValue(params.object(raw), name);
    if (value === undefined || value === null) return undefined;
    return params.id(raw, name);
  },
  optionalString(raw: unknown, name: string, maxLength: number): string | undefined {
    const value = ownValue(params.object(raw), name);
    if (value === undefined || value === null) return undefined;
    return params.string(raw, name, maxLength);
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
};

/** "The message is too long (1,200,000 characters; at most 1,000,000) and was not sent." reads as what happened. */
export function tooLong(label: string, length: number, maxLength: number): string {
  return `${label} is too long (${length.toLocaleString('en-US')} characters; at most ${maxLength.toLocaleString('en-US')})`;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}
