/** The messages between a results file's reader (resultsFileReader) and its worker thread (resultsFileWorker). */
import type { AnswerRecord, EvalRunFile, LeaderboardRow } from './evalModel';

/** What the report shows before any answer: the run without its answers, the count, the leaderboard. */
export interface RunFileHead {
  run: EvalRunFile;
  notes: string[];
  answerCount: number;
  leaderboard: LeaderboardRow[];
}

export type WorkerRequest =
  | { id: number; kind: 'parse'; bytes: Uint8Array }
  | { id: number; kind: 'page'; offset: number; limit: number; previewChars: number }
  | { id: number; kind: 'answer'; key: string }
  | { id: number; kind: 'digests' }
  | { id: number; kind: 'batch'; from: number };

export type WorkerReply =
  | { id: number; kind: 'failed'; error: string }
  | { id: number; kind: 'head'; head: RunFileHead }
  | { id: number; kind: 'answers'; answers: AnswerRecord[] }
  | { id: number; kind: 'answer'; answer: AnswerRecord | null }
  /** Every answer's digest in order, joined: one string crosses threads in one copy, a million do not. */
  | { id: number; kind: 'digests'; joined: string };

/** Answers in one batch at most, and characters of answer text: a batch takes the host a few milliseconds to take in. */
export const maxBatchAnswers = 2_000;
export const maxBatchChars = 2_000_000;

/** Where the batch that starts at `from` ends: at least one answer, then up to either bound. */
export function batchEnd(answers: readonly AnswerRecord[], from: number): number {
  let chars = 0;
  let end = from;
  while (end < answers.length && end - from < maxBatchAnswers) {
    chars += (answers[end]!.text?.length ?? 0) + (answers[end]!.error?.length ?? 0);
    if (end > from && chars > maxBatchChars) break;
    end++;
  }
  return end;
}
