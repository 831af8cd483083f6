/**
 * A streamed chat completion: an async iterable of chunks read straight off the socket.
 *
 * Iterating sends the request (once: a second iteration is refused, since the POST is not
 * idempotent). Every chunk received is yielded before any failure is thrown, so a stream cut in the
 * middle loses nothing that arrived. Breaking out of the loop or aborting the signal destroys the
 * body at once: no more reads, and the socket is closed rather than kept in the pool half-read.
 */
import type { ApiCaller } from './apiCaller';
import { redactError } from './apiCaller';
import { ChatChunkDecoder, completionAsChunk } from './chatChunks';
import { isPlatformError, PlatformError } from './errors';
import { classifyFailure } from './failures';
import { errorFromResponse, header, isSuccess, parseJsonAnswer, type AnswerContext } from './responses';
import { BodyReads } from './bodyReads';
import { SseParser } from './sse';
import type { TransportResponse } from './transport';
import type { ChatCompletion, ChatCompletionChunk, ChatCompletionRequest } from './types';

/** AsyncIterable of chunks; iterating starts the request. Breaking out of the loop or aborting the signal stops reading the socket at once. */
export interface ChatStream extends AsyncIterable<ChatCompletionChunk> {}

export interface ChatStreamSource {
  caller: ApiCaller;
  path: string;
  request: ChatCompletionRequest;
  signal?: AbortSignal;
}

export function createChatStream(source: ChatStreamSource): ChatStream {
  let started = false;
  return {
    [Symbol.asyncIterator](): AsyncIterator<ChatCompletionChunk> {
      if (started) throw new Error('a chat stream can be read only once');
      started = true;
      return readChatStream(source);
    },
  };
}

interface OpenedStream {
  response: TransportResponse;
  context: AnswerContext;
}

async function* readChatStream(source: ChatStreamSource): AsyncGenerator<ChatCompletionChunk, void, undefined> {
  const { caller, signal } = source;
  const body = {
    ...source.request,
    stream: true,
    // Usage arrives only when asked for; the chat view shows token counts.
    stream_options: source.request.stream_options ?? { include_usage: true },
  };
  const opened = await caller.call<OpenedStream>({
    method: 'POST',
    path: source.path,
    body,
    auth: true,
    stream: true,
    signal,
    read: async (response, context) => {
      if (!isSuccess(response.statusCode)) throw await errorFromResponse(response, context);
      return { response, context };
    },
  });
  const { response, context } = opened;
  const { method, path } = context;
  const abortedError = () => new PlatformError({ kind: 'aborted', message: `${method} ${path} was cancelled`, api: context.api, method, path });
  let received = 0;
  let completed = false;
  try {
    const contentType = header(response, 'content-type') ?? '';
    if (/\bapplication\/json\b/i.test(contentType)) {
      const completion = parseJsonAnswer<ChatCompletion>(await response.body.text(), response.statusCode, contentType, context);
      completed = true;
      if (signal?.aborted) throw abortedError();
      yield completionAsChunk(completion);
      return;
    }
    const parser = new SseParser();
    const decoder = new ChatChunkDecoder(context);
    const reads = new BodyReads(response.body);
    for (let batch = await reads.next(); batch !== null; batch = await reads.next()) {
      for (const read of batch) {
        for (const data of parser.feed(read)) {
          const chunk = decoder.decode(data);
          if (chunk === null) {
            completed = true;
            return;
          }
          if (signal?.aborted) throw abortedError();
          received++;
          yield chunk;
        }
      }
    }
    // The body ended without [DONE]: whatever complete data is left still counts.
    for (const data of parser.end()) {
      let chunk: ChatCompletionChunk | null;
      try {
        chunk = decoder.decode(data);
      } catch (error) {
        // A last event cut in the middle of its JSON is the cut itself, not a malformed answer.
        if (isPlatformError(error) && error.kind === 'invalid-response') break;
        throw error;
      }
      if (chunk === null) {
        completed = true;
        return;
      }
      if (signal?.aborted) throw abortedError();
      received++;
      yield chunk;
    }
    throw streamCut(context, received);
  } catch (raw) {
    throw redactError(streamFailure(raw, source, context, received), context.secrets);
  } finally {
    if (completed) {
      // Reading the (normally empty) rest lets the socket go back to the pool.
      response.body.dump().catch(() => undefined);
    } else {
      response.body.destroy();
    }
  }
}

function streamFailure(raw: unknown, source: ChatStreamSource, context: AnswerContext, received: number): PlatformError {
  const { method, path, api } = context;
  if (source.signal?.aborted) return new PlatformError({ kind: 'aborted', message: `${method} ${path} was cancelled`, api, method, path });
  if (isPlatformError(raw)) return raw;
  const failure = classifyFailure(raw, {
    api,
    method,
    path,
    hostAndPort: source.caller.hostAndPort,
    timeoutMs: source.caller.options.timeoutMs,
    connectTimeoutMs: source.caller.options.connectTimeoutMs,
  });
  // A connection lost after the answer began is a cut stream, whatever the socket said.
  if (failure.error.kind === 'network') return streamCut(context, received, raw);
  return failure.error;
}

function streamCut(context: AnswerContext, received: number, cause?: unknown): PlatformError {
  const { method, path, api } = context;
  return new PlatformError({
    kind: 'stream-cut',
    message: `${method} ${path}: the answer stream ended before it was complete (${received} chunk${received === 1 ? '' : 's'} received)`,
    api,
    method,
    path,
    cause,
  });
}
