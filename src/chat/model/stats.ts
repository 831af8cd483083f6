import type { Usage } from '../../platform/client/types';
import { formatDuration } from '../../platform/kit/format';
import type { AnswerStats } from './conversationTypes';

/**
 * Below this decoding time a rate says nothing (a whole answer in one network read gives millions
 * of tokens per second), so none is shown.
 */
export const minimumRateWindowMs = 50;

/** Moments of one streamed answer, in ms of one clock. */
export interface StreamTiming {
  startedAt: number;
  /** When the first content or reasoning text arrived. */
  firstTokenAt?: number;
  endedAt: number;
}

/**
 * Token counts come from the server's usage chunk when it sent one; otherwise the number of text
 * chunks stands in for completion tokens (one chunk is about one token on these servers) and the
 * figures say so. Tokens per second measure decoding: the tokens after the first one, over the time
 * after the first one, so a slow start (queueing, prompt processing) does not hide a fast decoder.
 */
export function computeStats(timing: StreamTiming, usage: Usage | undefined, streamedChunks: number): AnswerStats {
  const stats: AnswerStats = {
    usageReported: usage !== undefined,
    streamedChunks,
    totalMs: Math.max(0, timing.endedAt - timing.startedAt),
  };
  if (usage) {
    stats.promptTokens = usage.prompt_tokens;
    stats.completionTokens = usage.completion_tokens;
    stats.totalTokens = usage.total_tokens;
  }
  if (timing.firstTokenAt !== undefined) {
    stats.ttftMs = Math.max(0, timing.firstTokenAt - timing.startedAt);
    const decodeMs = timing.endedAt - timing.firstTokenAt;
    const tokens = usage?.completion_tokens ?? streamedChunks;
    if (decodeMs >= minimumRateWindowMs && tokens > 1) stats.tokensPerSecond = ((tokens - 1) * 1000) / decodeMs;
  }
  return stats;
}

/** One line for a message footer, e.g. "12 prompt + 345 completion tokens · first token 230 ms · 48.2 tok/s · 7 s". */
export function formatStats(stats: AnswerStats): string {
  const parts: string[] = [];
  if (stats.usageReported && stats.completionTokens !== undefined) {
    parts.push(`${stats.promptTokens ?? '?'} prompt + ${stats.completionTokens} completion tokens`);
  } else {
    parts.push(`≈${stats.streamedChunks} completion tokens (usage not reported)`);
  }
  if (stats.ttftMs !== undefined) parts.push(`first token ${formatDuration(stats.ttftMs)}`);
  if (stats.tokensPerSecond !== undefined) parts.push(`${stats.tokensPerSecond.toFixed(1)} tok/s`);
  parts.push(formatDuration(stats.totalMs));
  return parts.join(' · ');
}
