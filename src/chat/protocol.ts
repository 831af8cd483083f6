/**
 * The typed message protocol between the chat panel (extension host) and its webview.
 *
 * Three kinds of wire messages travel both ways: a request (id, method, params) that always gets
 * exactly one reply (the result, or an error), the reply itself, and an event (no reply). The
 * webview asks the host to act (send, stop, export…); the host streams events (deltas, updated
 * answers, lists); the host may also ask the webview what it shows (used by tests and diagnostics).
 */
import type { AnswerDelta } from './deltaBatcher';
import type {
  AnswerEntry,
  ChatParameters,
  Conversation,
  ConversationSettings,
  ConversationSummary,
} from './conversationTypes';
import type { ModelCatalogue } from './modelOptions';

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
  if (typeof raw !== 'object' || raw === null) return undefined;
  const message = raw as Record<string, unknown>;
  const validId = typeof message.id === 'number' && Number.isSafeInteger(message.id) && message.id >= 0;
  switch (message.kind) {
    case 'request':
      if (!validId || typeof message.method !== 'string') return undefined;
      return { kind: 'request', id: message.id as number, method: message.method, params: message.params };
    case 'reply':
      if (!validId || typeof message.ok !== 'boolean') return undefined;
      if (message.ok) return { kind: 'reply', id: message.id as number, ok: true, result: message.result };
      return { kind: 'reply', id: message.id as number, ok: false, error: parseErrorBody(message.error) };
    case 'event':
      if (typeof message.event !== 'object' || message.event === null) return undefined;
      return { kind: 'event', event: message.event };
    default:
      return undefined;
  }
}

function parseErrorBody(raw: unknown): { message: string; code?: string } {
  if (typeof raw === 'object' && raw !== null) {
    const body = raw as Record<string, unknown>;
    const message = typeof body.message === 'string' ? body.message : 'the request failed';
    return typeof body.code === 'string' ? { message, code: body.code } : { message };
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

/** Checks for the untyped params of incoming requests. */
export const params = {
  object(raw: unknown): Record<string, unknown> {
    if (raw === undefined || raw === null) return {};
    if (typeof raw !== 'object' || Array.isArray(raw)) throw new ProtocolError('params must be an object');
    return raw as Record<string, unknown>;
  },
  string(raw: unknown, name: string, maxLength = 5_000_000): string {
    const value = params.object(raw)[name];
    if (typeof value !== 'string') throw new ProtocolError(`${name} must be a string`);
    if (value.length > maxLength) throw new ProtocolError(`${name} is too long`);
    return value;
  },
  optionalString(raw: unknown, name: string): string | undefined {
    const value = params.object(raw)[name];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string') throw new ProtocolError(`${name} must be a string`);
    return value;
  },
  shownLengths(raw: unknown): ShownLength[] {
    const value = params.object(raw).shown;
    if (value === undefined) return [];
    if (!Array.isArray(value)) throw new ProtocolError('shown must be a list');
    return value.map((item) => {
      const entry = params.object(item);
      const contentLength = entry.contentLength;
      const reasoningLength = entry.reasoningLength;
      if (typeof entry.messageId !== 'string' || !isCount(contentLength) || !isCount(reasoningLength)) {
        throw new ProtocolError('shown entries need messageId, contentLength and reasoningLength');
      }
      return { messageId: entry.messageId, contentLength, reasoningLength };
    });
  },
  settings(raw: unknown): { models: [string, string]; compare: boolean; systemPrompt: string; parameters: Partial<Record<keyof ChatParameters, unknown>> } {
    const settings = params.object(params.object(raw).settings);
    const model = typeof settings.model === 'string' ? settings.model : '';
    const compareModel = typeof settings.compareModel === 'string' ? settings.compareModel : '';
    const systemPrompt = typeof settings.systemPrompt === 'string' ? settings.systemPrompt : '';
    return {
      models: [model, compareModel],
      compare: settings.compare === true,
      systemPrompt,
      parameters: params.object(settings.parameters) as Partial<Record<keyof ChatParameters, unknown>>,
    };
  },
};

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}
