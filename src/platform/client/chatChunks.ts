/**
 * Turns the data of one server-sent event of a chat-completion stream into a chunk: `[DONE]` ends
 * the stream, an `{"error": …}` object is the server failing mid-answer, anything that is not a
 * JSON object is an invalid answer.
 */
import { describeErrorValue } from './errorBody';
import { PlatformError } from './errors';
import type { AnswerContext } from './responses';
import type { ChatCompletion, ChatCompletionChunk } from './types';

export class ChatChunkDecoder {
  constructor(private readonly context: Pick<AnswerContext, 'api' | 'method' | 'path'>) {}

  /** The chunk carried by `data`, or null for the `[DONE]` marker. */
  decode(data: string): ChatCompletionChunk | null {
    if (data.length === 6 && data === '[DONE]') return null;
    let value: unknown;
    try {
      value = JSON.parse(data);
    } catch {
      if (data.trim() === '[DONE]') return null;
      throw this.invalid(`an event of the stream is not JSON: "${data.slice(0, 60)}"`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw this.invalid('an event of the stream is not a JSON object');
    }
    const chunk = value as ChatCompletionChunk & { error?: unknown };
    if (chunk.error !== undefined && chunk.error !== null) throw this.streamedError(chunk.error);
    // Some servers leave `choices` out of the final usage chunk instead of sending it empty.
    if (!Array.isArray(chunk.choices)) chunk.choices = [];
    return chunk;
  }

  private streamedError(error: unknown): PlatformError {
    const { text, details } = describeErrorValue({ error });
    const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
    const status = typeof code === 'number' && code >= 400 && code <= 599 ? code : undefined;
    const { api, method, path } = this.context;
    return new PlatformError({
      kind: 'http',
      message: `${method} ${path}: the server reported an error during the stream: ${text ?? 'no message'}`,
      api,
      method,
      path,
      status,
      details,
    });
  }

  private invalid(what: string): PlatformError {
    const { api, method, path } = this.context;
    return new PlatformError({ kind: 'invalid-response', message: `${method} ${path}: ${what}`, api, method, path });
  }
}

/** A whole completion (from a server that ignored `stream: true`) as the chunk it amounts to. */
export function completionAsChunk(completion: ChatCompletion): ChatCompletionChunk {
  return {
    id: completion.id,
    object: 'chat.completion.chunk',
    created: completion.created,
    model: completion.model,
    choices: (completion.choices ?? []).map((choice) => ({
      index: choice.index,
      delta: {
        role: 'assistant',
        content: choice.message?.content ?? null,
        ...(choice.message?.reasoning ? { reasoning: choice.message.reasoning } : {}),
        ...(choice.message?.tool_calls ? { tool_calls: choice.message.tool_calls } : {}),
      },
      finish_reason: choice.finish_reason,
    })),
    usage: completion.usage ?? null,
  };
}
