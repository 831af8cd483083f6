/**
 * The evaluation report's methods and events, on the wire format every webview shares
 * (../common/wire.ts). The page asks for the run when it (re)loads; while a run is going the host
 * pushes each batch of new answers and the progress. Answers travel cut to `previewChars`; the page
 * asks for one whole when it shows it side by side.
 */
import type { AnswerRecord, EvalRunFile, LeaderboardRow } from '../../evals/evalModel';
import type { NoMethods } from '../common/wire';

/** Characters of each answer in a snapshot; the rest comes with `answer`. */
export const previewChars = 2_000;

export interface RunProgress {
  done: number;
  total: number;
  failed: number;
  /** Requests waiting because the platform asked to slow down (429), and until when (host clock, ms). */
  rateLimitedUntil?: number;
}

/** An answer as a snapshot or an `answers` event carries it: its text cut at `previewChars` when `cut`. */
export type PreviewAnswer = AnswerRecord & { cut?: boolean };

export interface SampleMessage {
  role: string;
  content: string;
}

/** A sample of the eval set as the page shows it: its prompt and reference, each text cut. */
export interface SampleView {
  id: string;
  line: number;
  messages: SampleMessage[];
  reference?: string;
}

/** Everything the page shows, the reply to `ready`. */
export interface ReportSnapshot {
  fileName: string;
  /** The run, with every answer's text cut at `previewChars` (`cut` on those that were). */
  run: Omit<EvalRunFile, 'answers'> & { answers: PreviewAnswer[] };
  /** The eval set's samples in set order (empty when the set file can no longer be read). */
  samples: SampleView[];
  /** The scorer the leaderboard ranks by (the first). */
  primaryScorer: string;
  leaderboard: LeaderboardRow[];
  /** Present while the run is going. */
  progress?: RunProgress;
  /** Whether the step can be promoted and the others deleted (signed in, checkpoints of one training model). */
  canPromote: boolean;
}

export type ReportHostEvent =
  /** New answers; without `progress` the run has ended. */
  { type: 'answers'; answers: PreviewAnswer[]; leaderboard: LeaderboardRow[]; progress?: RunProgress } | { type: 'snapshot'; snapshot: ReportSnapshot };

/** Requests the page sends to the host. */
export type ReportHostMethods = {
  ready: { params: Record<string, never>; result: ReportSnapshot };
  /** One answer whole, by its key; null when the file no longer has it. */
  answer: { params: { key: string }; result: AnswerRecord | null };
  /** Asks the failed answers again (all of them when `keys` is empty). */
  retry: { params: { keys: string[] }; result: null };
  /** Promotes a checkpoint: copies its id, pins it in the chat and the model picker, makes it the chat's default. */
  useModel: { params: { model: string }; result: null };
  /** Deletes every checkpoint of the run's training model except this one, the best and the latest, after a confirmation. */
  deleteOthers: { params: { keep: string }; result: null };
  cancel: { params: Record<string, never>; result: null };
};

export type ReportPageMethods = NoMethods;
export type ReportPageEvent = never;
