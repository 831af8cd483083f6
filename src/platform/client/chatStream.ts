/**
 * A streamed chat completion: an async iterable of chunks read straight off the socket.
 *
 * Iterating sends the request (once: a second iteration is refused, since the POST is not
 * idempotent). Every chunk received is yielded before any failure is thrown, so a stream cut in the
 * middle loses nothing that arrived. Breaking out of the loop or aborting the signal destroys the
 * body at once: no more reads, and the socket is closed rather than kept in the pool half-read.
 *
 * Time: the request and the headers are bounded by the call's timeout; from then on a stream has
 * no total deadline (an answer may take minutes), only an idle timeout: no byte at all for
 * streamIdleTimeoutMs fails it. Keep-alive comments are bytes and so count as activity: a server
 * that sends nothing but comments keeps the stream open, which is what comments are for, and costs
 * nothing since comments are not kept. What ends such a stream is the caller's signal (Stop, a
 * closed view), which destroys the body at once, whatever the server sends.
 *
 * Memory: one event may hold at most maxStreamEventSize characters (see SseParser); the reads not
 * yet parsed are bounded by BodyReads.
 */
import type { ApiCaller } from './apiCaller';
import { redactError } from './apiCaller';
import { BodyIdleTimeoutError, BodyReads } from './bodyReads';
import { abandonBody, describeSize } from './bodyLimits';
import { ChatChunkDecoder, completionAsChunk } from './chatChunks';
import { isPlatformError, PlatformError } from './errors';
import { classifyFailure, seconds } from './networkFailures';
import { errorFromResponse, header, isSuccess, parseJsonAnswer, readAnswerText, type AnswerContext } from './responses';
import { SseEventTooLargeError, SseParser } from './sse';
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

/** The answer once its headers arrived: an event stream, or a whole completion already read. */
type OpenedStream = { context: AnswerContext } & ({ response: TransportResponse; completion?: undefined } | { completion: ChatCompletion; response?: undefined });

async function* readChatStream(source: ChatStreamSource): AsyncGenerator<ChatCompletionChunk, void, undefined> {
  const { caller, signal } = source;
  const options = caller.options;
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
      const contentType = header(response, 'content-type') ?? '';
      // A server that ignored stream: true sends one JSON completion: it is read here, within the
      // attempt's deadline and the JSON size cap, like any other JSON answer.
      if (/\bapplication\/json\b/i.test(contentType)) {
        const completion = parseJsonAnswer<ChatCompletion>(await readAnswerText(response, context), response.statusCode, contentType, context);
        return { context, completion };
      }
      return { context, response };
    },
  });
  const { context } = opened;
  const { method, path } = context;
  const abortedError = () => new PlatformError({ kind: 'aborted', message: `${method} ${path} was cancelled`, api: context.api, method, path });
  if (opened.completion) {
    if (signal?.aborted) throw redactError(abortedError(), context.secrets);
    yield completionAsChunk(opened.completion);
    return;
  }
  const response = opened.response;
  let received = 0;
  let completed = false;
  const reads = new BodyReads(response.body, { idleTimeoutMs: options.streamIdleTimeoutMs });
  // The caller's signal ends the stream at once, even while waiting for the next byte.
  const onAbort = () => abandonBody(response.body);
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const parser = new SseParser({ maxEventSize: options.maxStreamEventSize });
    const decoder = new ChatChunkDecoder(context);
    /** The chunk an event carries, or null at [DONE]; a caller who stopped gets no more chunks. */
    const nextChunk = (data: string): ChatCompletionChunk | null => {
      const chunk = decoder.decode(data);
      if (chunk !== null && signal?.aborted) throw abortedError();
      return chunk;
    };
    for (let batch = await reads.next(); batch !== null; batch = await reads.next()) {
      for (const read of batch) {
        for (const data of parser.feed(read)) {
          const chunk = nextChunk(data);
          if (chunk === null) return void (completed = true);
          received++;
          yield chunk;
        }
        if (parser.failure) throw parser.failure;
      }
    }
    // The body ended without [DONE]: whatever complete data is left still counts.
    for (const data of parser.end()) {
      let chunk: ChatCompletionChunk | null;
      try {
        chunk = nextChunk(data);
      } catch (error) {
        // A last event cut in the middle of its JSON is the cut itself, not a malformed answer.
        if (isPlatformError(error) && error.kind === 'invalid-response') break;
        throw error;
      }
      if (chunk === null) return void (completed = true);
      received++;
      yield chunk;
    }
    throw streamCut(context, received);
  } catch (raw) {
    throw redactError(streamFailure(raw, source, context, received), context.secrets);
  } finally {
    signal?.removeEventListener('abort', onAbort);
    reads.stop();
    if (completed) {
      // Reading the (normally empty) rest lets the socket go back to the pool.
      response.body.dump().catch(() => undefined);
    } else {
      abandonBody(response.body);
    }
  }
}

function streamFailure(raw: unknown, source: ChatStreamSource, context: AnswerContext, received: number): PlatformError {
  const { method, path, api } = context;
  if (source.signal?.aborted) return new PlatformError({ kind: 'aborted', message: `${method} ${path} was cancelled`, api, method, path });
  if (isPlatformError(raw)) return raw;
  if (raw instanceof SseEventTooLargeError) {
    return new PlatformError({
      kind: 'too-large',
      message: `${method} ${path}: an event of the answer stream was larger than ${describeSize(raw.maxEventSize)}; the stream was stopped (${chunksReceived(received)})`,
      api,
      method,
      path,
    });
  }
  if (raw instanceof BodyIdleTimeoutError) {
    return new PlatformError({
      kind: 'timeout',
      message: `${method} ${path} timed out after ${seconds(raw.idleTimeoutMs)} without any part of the answer stream arriving (${chunksReceived(received)})`,
      api,
      method,
      path,
    });
  }
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
    message: `${method} ${path}: the answer stream ended before it was complete (${chunksReceived(received)})`,
    api,
    method,
    path,
    cause,
  });
}

function chunksReceived(count: number): string {
  return `${count} chunk${count === 1 ? '' : 's'} received`;
}
