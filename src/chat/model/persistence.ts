import { normalizeParameters } from './requestBuilder';
import {
  defaultSettings,
  type AnswerCut,
  type AnswerEntry,
  type AnswerError,
  type AnswerStats,
  type ChatEntry,
  type Conversation,
  type ConversationSettings,
  type ConversationSummary,
} from './conversationTypes';

/**
 * The stored format of conversations: one JSON document per conversation plus an index of
 * summaries, so the list shows without reading every conversation. Reading is forgiving: a damaged
 * or older document yields what can be recovered, never an exception that hides the rest.
 */
export const storageVersion = 1;

export interface StoredIndex {
  version: number;
  conversations: ConversationSummary[];
  /** The conversation the panel showed last. */
  lastOpenedId?: string;
}

export interface StoredConversation extends Conversation {
  version: number;
}

export function serializeConversation(conversation: Conversation): string {
  const stored: StoredConversation = { version: storageVersion, ...conversation };
  return JSON.stringify(stored);
}

export function serializeIndex(index: StoredIndex): string {
  return JSON.stringify({ ...index, version: storageVersion });
}

export function parseIndex(text: string | undefined): StoredIndex {
  const empty: StoredIndex = { version: storageVersion, conversations: [] };
  const raw = safeParse(text);
  if (!isRecord(raw) || !Array.isArray(raw.conversations)) return empty;
  const conversations = raw.conversations.flatMap((item): ConversationSummary[] => {
    if (!isRecord(item) || typeof item.id !== 'string' || !isSafeId(item.id)) return [];
    return [
      {
        id: item.id,
        title: typeof item.title === 'string' ? item.title : 'Untitled',
        updatedAt: number(item.updatedAt) ?? 0,
        messageCount: number(item.messageCount) ?? 0,
      },
    ];
  });
  const index: StoredIndex = { version: storageVersion, conversations };
  if (typeof raw.lastOpenedId === 'string') index.lastOpenedId = raw.lastOpenedId;
  return index;
}

/**
 * A conversation read back from storage. An answer still marked streaming was interrupted (the
 * window closed mid-answer): it becomes 'stopped' so it can be retried and is never shown as live.
 */
export function parseConversation(text: string | undefined): Conversation | undefined {
  const raw = safeParse(text);
  if (!isRecord(raw) || typeof raw.id !== 'string' || !isSafeId(raw.id)) return undefined;
  const createdAt = number(raw.createdAt) ?? 0;
  return {
    id: raw.id,
    title: typeof raw.title === 'string' ? raw.title : 'Untitled',
    titleFromUser: raw.titleFromUser === true,
    createdAt,
    updatedAt: number(raw.updatedAt) ?? createdAt,
    settings: parseSettings(raw.settings),
    messages: Array.isArray(raw.messages) ? raw.messages.flatMap((entry) => parseEntry(entry)) : [],
    draft: typeof raw.draft === 'string' ? raw.draft : '',
  };
}

function parseSettings(raw: unknown): ConversationSettings {
  const settings = defaultSettings();
  if (!isRecord(raw)) return settings;
  if (typeof raw.model === 'string') settings.model = raw.model;
  if (typeof raw.compareModel === 'string') settings.compareModel = raw.compareModel;
  settings.compare = raw.compare === true;
  if (typeof raw.systemPrompt === 'string') settings.systemPrompt = raw.systemPrompt;
  if (isRecord(raw.parameters)) settings.parameters = normalizeParameters(raw.parameters);
  return settings;
}

function parseEntry(raw: unknown): ChatEntry[] {
  if (!isRecord(raw) || typeof raw.id !== 'string' || typeof raw.content !== 'string') return [];
  const createdAt = number(raw.createdAt) ?? 0;
  if (raw.role === 'user') return [{ id: raw.id, role: 'user', content: raw.content, createdAt }];
  if (raw.role !== 'assistant' || typeof raw.replyTo !== 'string' || typeof raw.model !== 'string') return [];
  const status = raw.status === 'done' || raw.status === 'error' || raw.status === 'stopped' ? raw.status : 'stopped';
  const answer: AnswerEntry = {
    id: raw.id,
    role: 'assistant',
    replyTo: raw.replyTo,
    column: raw.column === 1 ? 1 : 0,
    model: raw.model,
    content: raw.content,
    reasoning: typeof raw.reasoning === 'string' ? raw.reasoning : '',
    status,
    createdAt,
  };
  if (typeof raw.finishReason === 'string') answer.finishReason = raw.finishReason;
  const error = parseError(raw.error);
  if (error) answer.error = error;
  const stats = parseStats(raw.stats);
  if (stats) answer.stats = stats;
  const cut = parseCut(raw.cut);
  if (cut) answer.cut = cut;
  const historyFrom = Array.isArray(raw.historyFrom)
    ? raw.historyFrom
        .filter((model): model is string => typeof model === 'string')
        .slice(0, 4)
        .map((model) => model.slice(0, 300))
    : [];
  if (historyFrom.length > 0) answer.historyFrom = historyFrom;
  return [answer];
}

function parseError(raw: unknown): AnswerError | undefined {
  if (!isRecord(raw) || typeof raw.message !== 'string') return undefined;
  const error: AnswerError = { kind: typeof raw.kind === 'string' ? raw.kind : 'unknown', message: raw.message, retryable: raw.retryable === true };
  const status = number(raw.status);
  if (status !== undefined) error.status = status;
  if (raw.action === 'signIn' || raw.action === 'configure') error.action = raw.action;
  return error;
}

function parseCut(raw: unknown): AnswerCut | undefined {
  if (!isRecord(raw) || (raw.part !== 'answer' && raw.part !== 'reasoning')) return undefined;
  const limitChars = number(raw.limitChars);
  return limitChars === undefined ? undefined : { part: raw.part, limitChars };
}

function parseStats(raw: unknown): AnswerStats | undefined {
  if (!isRecord(raw)) return undefined;
  const stats: AnswerStats = {
    usageReported: raw.usageReported === true,
    streamedChunks: number(raw.streamedChunks) ?? 0,
    totalMs: number(raw.totalMs) ?? 0,
  };
  for (const key of ['promptTokens', 'completionTokens', 'totalTokens', 'ttftMs', 'tokensPerSecond'] as const) {
    const value = number(raw[key]);
    if (value !== undefined) stats[key] = value;
  }
  return stats;
}

/** Ids become file names: only plain characters, so a crafted id can never name another path. */
export function isSafeId(id: string): boolean {
  return /^[A-Za-z0-9_-]{1,80}$/.test(id);
}

function safeParse(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function number(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
