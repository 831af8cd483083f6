import type { ChatCompletionRequest, ChatMessage } from '../../platform/client/types';

/**
 * Conversion between VS Code's language-model chat messages and the platform's chat format, kept
 * free of the `vscode` module: messages are read by shape (role numbers, text parts with `value`).
 */
export interface LanguageModelMessageLike {
  /** 1 user, 2 assistant, 3 system (newer editors). */
  role: number;
  content: readonly unknown[];
}

const roleNames: Record<number, ChatMessage['role']> = { 1: 'user', 2: 'assistant', 3: 'system' };

export function toChatMessages(messages: readonly LanguageModelMessageLike[]): ChatMessage[] {
  const result: ChatMessage[] = [];
  for (const message of messages) {
    const role = roleNames[message.role] ?? 'user';
    const text = message.content.map(partText).join('');
    if (!text) continue;
    const previous = result.at(-1);
    // Consecutive messages of one role (text split across parts) become one message.
    if (previous && previous.role === role) previous.content += `\n\n${text}`;
    else result.push({ role, content: text });
  }
  return result;
}

function partText(part: unknown): string {
  if (typeof part === 'string') return part;
  if (typeof part === 'object' && part !== null) {
    const value = (part as { value?: unknown }).value;
    if (typeof value === 'string') return value;
    // Tool results carry their own text parts.
    const content = (part as { content?: unknown }).content;
    if (Array.isArray(content)) return content.map(partText).join('');
  }
  return '';
}

/** The request fields a caller may set through `modelOptions`; anything else is ignored. */
export function requestOptionsFrom(modelOptions: Readonly<Record<string, unknown>> | undefined): Partial<ChatCompletionRequest> {
  const options: Partial<ChatCompletionRequest> = {};
  if (!modelOptions) return options;
  const number = (key: string) => (typeof modelOptions[key] === 'number' && Number.isFinite(modelOptions[key]) ? (modelOptions[key] as number) : undefined);
  const temperature = number('temperature');
  if (temperature !== undefined) options.temperature = temperature;
  const topP = number('top_p') ?? number('topP');
  if (topP !== undefined) options.top_p = topP;
  const maxTokens = number('max_tokens') ?? number('maxTokens');
  if (maxTokens !== undefined) options.max_tokens = Math.max(1, Math.round(maxTokens));
  const seed = number('seed');
  if (seed !== undefined) options.seed = Math.trunc(seed);
  const stop = modelOptions.stop;
  if (typeof stop === 'string' || (Array.isArray(stop) && stop.every((item) => typeof item === 'string'))) options.stop = stop as string | string[];
  return options;
}

/**
 * The platform has no token-counting endpoint, so counts are estimated: about four characters per
 * token for English text and code, which is what the editor uses to trim context.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
