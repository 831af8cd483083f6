import type { ChatCompletionChunk, Usage } from '../../platform/client/types';
import { monotonicClock, type Clock } from '../../platform/kit/clock';
import { describeAnswerError, type FailureWords } from './answerErrors';
import type { AnswerCut, AnswerError, AnswerStats } from './conversationTypes';
import { computeStats } from './stats';

export type StreamOutcomeStatus = 'done' | 'stopped' | 'error';

/**
 * A stream that puts its own failures into words: the platform backend's streams describe them as
 * the extension's views do (naming the API's address). Any other stream's are described plainly.
 */
export interface SelfDescribingStream {
  readonly describeFailure?: FailureWords;
}

/**
 * How a streamed answer ended. The text itself is not here: it went to `onDelta` piece by piece,
 * and whoever keeps the answer keeps it (one copy of a long answer, not one per layer).
 */
export interface StreamOutcome {
  status: StreamOutcomeStatus;
  finishReason?: string;
  usage?: Usage;
  stats: AnswerStats;
  error?: AnswerError;
  /** Set when the text reached its limit and reading stopped there. */
  cut?: AnswerCut;
}

export interface StreamRunOptions {
  signal: AbortSignal;
  /** Called for each chunk that carries text, never after the signal is aborted: the only copy of the text handed out. */
  onDelta(content: string, reasoning: string): void;
  /** Times the answer (time to first token, decoding speed). Default: the monotonic clock. */
  clock?: Pick<Clock, 'now'>;
  /**
   * Most characters kept of the content and of the reasoning. At a limit the text is cut there,
   * reading stops, `onLimit` is told (it aborts the request) and the outcome is 'stopped' with `cut`.
   */
  limits?: { content: number; reasoning: number };
  onLimit?(): void;
}

/**
 * Reads one streamed answer to its end. Stop is the abort signal: the moment it is aborted no
 * further text is passed on, even when the transport still hands over a chunk it had buffered,
 * and the answer ends as 'stopped' whatever error the cancelled request raises. A failure after
 * some text (a cut stream) keeps that text and reports the error beside it.
 */
export async function runStream(stream: AsyncIterable<ChatCompletionChunk>, options: StreamRunOptions): Promise<StreamOutcome> {
  const clock = options.clock ?? monotonicClock;
  const now = () => clock.now();
  const startedAt = now();
  let firstTokenAt: number | undefined;
  // Lengths only, for the limits: the text is the receiver's.
  let contentChars = 0;
  let reasoningChars = 0;
  let finishReason: string | undefined;
  let usage: Usage | undefined;
  let streamedChunks = 0;
  let failure: unknown;
  let cut: AnswerCut | undefined;
  const contentLimit = options.limits?.content ?? Infinity;
  const reasoningLimit = options.limits?.reasoning ?? Infinity;

  try {
    reading: for await (const chunk of untilAborted(stream, options.signal)) {
      if (chunk.usage) usage = chunk.usage;
      for (const choice of chunk.choices ?? []) {
        if (choice.index !== 0 && choice.index !== undefined) continue;
        let contentDelta = typeof choice.delta?.content === 'string' ? choice.delta.content : '';
        let reasoningDelta = typeof choice.delta?.reasoning === 'string' ? choice.delta.reasoning : '';
        if (contentChars + contentDelta.length > contentLimit) {
          contentDelta = cutAt(contentDelta, contentLimit - contentChars);
          cut = { part: 'answer', limitChars: contentLimit };
        }
        if (reasoningChars + reasoningDelta.length > reasoningLimit) {
          reasoningDelta = cutAt(reasoningDelta, reasoningLimit - reasoningChars);
          cut ??= { part: 'reasoning', limitChars: reasoningLimit };
        }
        if (contentDelta || reasoningDelta) {
          firstTokenAt ??= now();
          streamedChunks++;
          contentChars += contentDelta.length;
          reasoningChars += reasoningDelta.length;
          options.onDelta(contentDelta, reasoningDelta);
        }
        if (cut) {
          // Leaving the loop releases the stream; the caller aborts the request itself.
          options.onLimit?.();
          break reading;
        }
        if (choice.finish_reason) finishReason = choice.finish_reason;
      }
    }
  } catch (error) {
    failure = error;
  }

  const stats = computeStats({ startedAt, firstTokenAt, endedAt: now() }, usage, streamedChunks);
  const base = { finishReason, usage, stats };
  if (cut) return { ...base, status: 'stopped', cut };
  if (options.signal.aborted) return { ...base, status: 'stopped' };
  if (failure !== undefined) return { ...base, status: 'error', error: describeAnswerError(failure, [], (stream as SelfDescribingStream).describeFailure) };
  return { ...base, status: 'done' };
}

/** The first `length` characters, one fewer when that would split a surrogate pair. */
function cutAt(text: string, length: number): string {
  if (length <= 0) return '';
  const code = text.charCodeAt(length - 1);
  return code >= 0xd800 && code <= 0xdbff ? text.slice(0, length - 1) : text.slice(0, length);
}

/**
 * Yields the stream's chunks until the signal is aborted, and ends at the abort itself rather than
 * when the transport gets round to failing the pending read: Stop never waits on the network.
 */
async function* untilAborted<T>(stream: AsyncIterable<T>, signal: AbortSignal): AsyncGenerator<T> {
  if (signal.aborted) return;
  const iterator = stream[Symbol.asyncIterator]();
  let onAbort: () => void = () => undefined;
  const aborted = new Promise<'aborted'>((resolve) => {
    onAbort = () => resolve('aborted');
    signal.addEventListener('abort', onAbort, { once: true });
  });
  let finished = false;
  try {
    while (true) {
      const next = await Promise.race([iterator.next(), aborted]);
      if (next === 'aborted' || signal.aborted) return;
      if (next.done) {
        finished = true;
        return;
      }
      yield next.value;
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
    // Releases the socket; a read still pending settles later and is ignored.
    if (!finished) void Promise.resolve(iterator.return?.()).catch(() => undefined);
  }
}
