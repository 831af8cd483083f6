/**
 * A parsed results file as the report reads it, on whichever thread holds it: the first screen
 * (the run without its answers, the count, the leaderboard), a page of previews, one answer whole,
 * the digests of the answers, and the answers in bounded batches.
 */
import { answerDigest } from './answerProvenance';
import type { AnswerRecord, EvalRunFile } from './evalModel';
import { primaryScorer } from './evalRun';
import { answerPage } from './reportPaging';
import { batchEnd, type RunFileHead } from './resultsFileWorkerProtocol';
import { leaderboard } from './statistics';

export class RunFileAnswers {
  private byKey: Map<string, AnswerRecord> | undefined;

  constructor(
    private readonly run: EvalRunFile,
    private readonly notes: string[],
  ) {}

  head(): RunFileHead {
    return { run: { ...this.run, answers: [] }, notes: this.notes, answerCount: this.run.answers.length, leaderboard: leaderboard(this.run, primaryScorer(this.run.scorers)) };
  }

  page(offset: number, limit: number, previewChars: number): AnswerRecord[] {
    return answerPage(this.run.answers, offset, limit, previewChars);
  }

  answer(key: string): AnswerRecord | null {
    this.byKey ??= new Map(this.run.answers.map((answer) => [answer.key, answer]));
    return this.byKey.get(key) ?? null;
  }

  joinedDigests(): string {
    return this.run.answers.map(answerDigest).join('');
  }

  batch(from: number): AnswerRecord[] {
    return this.run.answers.slice(from, batchEnd(this.run.answers, from));
  }
}
