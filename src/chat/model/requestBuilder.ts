import type { ChatCompletionRequest, ChatMessage } from '../../platform/client/types';
import { historyFor } from './conversation';
import type { AnswerEntry, ChatParameters, Conversation } from './conversationTypes';
import { maxStopSequences } from './limits';

/** The streamed request that produces `answer`, with the conversation's system prompt and options. */
export function buildChatRequest(conversation: Conversation, answer: AnswerEntry): ChatCompletionRequest {
  const messages: ChatMessage[] = [];
  const system = conversation.settings.systemPrompt.trim();
  if (system) messages.push({ role: 'system', content: conversation.settings.systemPrompt });
  for (const entry of historyFor(conversation, answer)) messages.push({ role: entry.role, content: entry.content });
  return {
    model: answer.model,
    messages,
    ...parameterFields(conversation.settings.parameters),
    stream: true,
    stream_options: { include_usage: true },
  };
}

/** The optional request fields for the given parameters; unset ones are left out entirely. */
export function parameterFields(parameters: ChatParameters): Partial<ChatCompletionRequest> {
  const fields: Partial<ChatCompletionRequest> = {};
  if (parameters.temperature !== undefined) fields.temperature = parameters.temperature;
  if (parameters.topP !== undefined) fields.top_p = parameters.topP;
  if (parameters.maxTokens !== undefined) fields.max_tokens = parameters.maxTokens;
  if (parameters.seed !== undefined) fields.seed = parameters.seed;
  const stop = parameters.stop.filter((sequence) => sequence !== '').slice(0, maxStopSequences);
  if (stop.length > 0) fields.stop = stop;
  if (parameters.jsonOutput) fields.response_format = { type: 'json_object' };
  return fields;
}

/**
 * Cleans parameters that came from the webview form: out-of-range numbers are clamped, fractional
 * counts rounded, anything not a finite number is treated as unset.
 */
export function normalizeParameters(raw: Partial<Record<keyof ChatParameters, unknown>>): ChatParameters {
  const parameters: ChatParameters = {
    stop: Array.isArray(raw.stop) ? raw.stop.filter((item): item is string => typeof item === 'string' && item !== '').slice(0, maxStopSequences) : [],
    jsonOutput: raw.jsonOutput === true,
  };
  const temperature = finite(raw.temperature);
  if (temperature !== undefined) parameters.temperature = clamp(temperature, 0, 2);
  const topP = finite(raw.topP);
  if (topP !== undefined) parameters.topP = clamp(topP, 0, 1);
  const maxTokens = finite(raw.maxTokens);
  if (maxTokens !== undefined) parameters.maxTokens = clamp(Math.round(maxTokens), 1, 1_000_000);
  const seed = finite(raw.seed);
  if (seed !== undefined) parameters.seed = Math.trunc(seed);
  return parameters;
}

function finite(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return undefined;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
