/**
 * The shapes of a chat conversation as the extension stores it and the webview shows it.
 * Plain JSON-able data: the same objects are persisted, exported and posted to the webview.
 */

/** Sampling and output options sent with every request of a conversation. */
export interface ChatParameters {
  temperature?: number;
  topP?: number;
  maxTokens?: number;
  seed?: number;
  /** Stop sequences, in the order the user gave them (at most four are sent). */
  stop: string[];
  /** Ask for a JSON object answer (`response_format: {type: 'json_object'}`). */
  jsonOutput: boolean;
}

export interface ConversationSettings {
  /** The model that answers in the first (or only) column; '' until one is chosen. */
  model: string;
  /** The second model, used when `compare` is on. */
  compareModel: string;
  compare: boolean;
  systemPrompt: string;
  parameters: ChatParameters;
}

export interface UserEntry {
  id: string;
  role: 'user';
  content: string;
  createdAt: number;
}

export type AnswerStatus = 'streaming' | 'done' | 'stopped' | 'error';

/** 0 is the main model; 1 is the second model of compare mode. */
export type AnswerColumn = 0 | 1;

export interface AnswerError {
  /** Why it failed: describeFailure's kind ('rate-limited', 'stream-cut', 'unreachable', …); older saves hold the client's kind. */
  kind: string;
  status?: number;
  /** One readable line for the message footer. */
  message: string;
  /** Whether trying again may help (a Retry button is always offered; this changes its emphasis). */
  retryable: boolean;
  retryAfterMs?: number;
  /** A command that fixes the cause, offered next to Retry. */
  action?: 'signIn' | 'configure';
}

/** The answer (or its reasoning) reached its length limit: RL Studio stopped the request there. */
export interface AnswerCut {
  part: 'answer' | 'reasoning';
  /** The limit that applied, in characters. */
  limitChars: number;
}

export interface AnswerStats {
  promptTokens?: number;
  completionTokens?: number;
  totalTokens?: number;
  /** True when the server sent usage; false when only the streamed chunks could be counted. */
  usageReported: boolean;
  /** Number of chunks that carried text: an estimate of completion tokens when usage is missing. */
  streamedChunks: number;
  /** Time to first token (content or reasoning), ms from the request start. */
  ttftMs?: number;
  /** Whole request duration, ms. */
  totalMs: number;
  /** Completion tokens per second after the first token. */
  tokensPerSecond?: number;
}

export interface AnswerEntry {
  id: string;
  role: 'assistant';
  /** The user message this answers. */
  replyTo: string;
  column: AnswerColumn;
  model: string;
  content: string;
  /** Reasoning text (`delta.reasoning`), shown folded. */
  reasoning: string;
  status: AnswerStatus;
  finishReason?: string;
  error?: AnswerError;
  /** Set when the text was cut at its limit; the footer says so. */
  cut?: AnswerCut;
  stats?: AnswerStats;
  /**
   * The models whose answers stood in for this column's own in the history it was asked with (Compare
   * turned on mid-conversation): both columns answer the same conversation, and the panel says so.
   */
  historyFrom?: string[];
  createdAt: number;
}

export type ChatEntry = UserEntry | AnswerEntry;

export interface Conversation {
  id: string;
  title: string;
  /** True once the user renamed it; automatic titles stop then. */
  titleFromUser: boolean;
  createdAt: number;
  updatedAt: number;
  settings: ConversationSettings;
  messages: ChatEntry[];
  /** Unsent text of the composer, kept so a reload or an error never loses it. */
  draft: string;
}

export interface ConversationSummary {
  id: string;
  title: string;
  updatedAt: number;
  messageCount: number;
}

export function isAnswer(entry: ChatEntry): entry is AnswerEntry {
  return entry.role === 'assistant';
}

export function isUser(entry: ChatEntry): entry is UserEntry {
  return entry.role === 'user';
}

export function defaultParameters(): ChatParameters {
  return { stop: [], jsonOutput: false };
}

export function defaultSettings(model = ''): ConversationSettings {
  return { model, compareModel: '', compare: false, systemPrompt: '', parameters: defaultParameters() };
}

export function summarize(conversation: Conversation): ConversationSummary {
  return {
    id: conversation.id,
    title: conversation.title,
    updatedAt: conversation.updatedAt,
    messageCount: conversation.messages.length,
  };
}
