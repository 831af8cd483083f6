/**
 * The evaluation report's methods and events, on the wire format every webview shares
 * (../common/wire.ts). The page asks for the run when it (re)loads and gets its first screen: the
 * leaderboard, the models, the counts and the first page of answers; it asks for the other pages
 * one at a time. While a run is going the host pushes each batch of new answers and the progress.
 * Answers travel cut to `previewChars`; the page asks for one whole when it shows it side by side.
 */
import type { AnswerRecord, EvalRunFile, LeaderboardRow } from './model/evalModel';
import type { NoMethods } from '../platform/pages/wire';
import type { ChartFile } from '../platform/pages/chartFile';

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

/** How many of the answers a run on this machine produced; the others came with the file. */
export interface ProvenanceView {
  total: number;
  producedHere: number;
  fromFile: number;
}

/** The first screen, the reply to `ready`. */
export interface ReportSnapshot {
  fileName: string;
  /** The run with the first page of its answers, each text cut at `previewChars` (`cut` on those that were). */
  run: Omit<EvalRunFile, 'answers'> & { answers: PreviewAnswer[] };
  /** Answers the run holds in all; the page asks for those past the first page with `answers`. */
  answerCount: number;
  /** The eval set's samples in set order (empty when the set file can no longer be read). */
  samples: SampleView[];
  /** The scorer the leaderboard ranks by (the first). */
  primaryScorer: string;
  leaderboard: LeaderboardRow[];
  /** Present while the run is going. */
  progress?: RunProgress;
  /** Whether the step can be promoted and the others deleted (signed in, checkpoints of one training model). */
  canPromote: boolean;
  /** Checkpoints of the report (model ids) the platform no longer lists: deleted since. */
  gone: string[];
}

export type ReportHostEvent =
  /** New answers; without `progress` the run has ended. */
  | { type: 'answers'; answers: PreviewAnswer[]; leaderboard: LeaderboardRow[]; progress?: RunProgress }
  | { type: 'snapshot'; snapshot: ReportSnapshot }
  /** Which answers were produced here, known shortly after the first screen. */
  | { type: 'provenance'; provenance: ProvenanceView }
  /** Checkpoints of the report deleted since it was drawn (after "Delete the others", read again from the platform). */
  | { type: 'checkpoints'; gone: string[] };

/** Requests the page sends to the host. */
export type ReportHostMethods = {
  ready: { params: Record<string, never>; result: ReportSnapshot };
  /** A page of answers, cut to previews, from `offset` (at most `answersPerPage`); `total` is the count now. */
  answers: { params: { offset: number; limit: number }; result: { answers: PreviewAnswer[]; total: number } };
  /** One answer whole, by its key; null when the file no longer has it. */
  answer: { params: { key: string }; result: AnswerRecord | null };
  /** Asks the failed answers again (all of them when `keys` is empty). */
  retry: { params: { keys: string[] }; result: null };
  /** Promotes a checkpoint: copies its id, pins it in the chat and the model picker, makes it the chat's default. */
  useModel: { params: { model: string }; result: null };
  /** Deletes the checkpoints this evaluation scored below this one (never the best, the latest or one it did not score), after a confirmation. */
  deleteOthers: { params: { keep: string }; result: null };
  cancel: { params: Record<string, never>; result: null };
  /** Saves the score chart's data (CSV) or image (PNG) where the person chooses; the host checks the file first. */
  saveChart: { params: ChartFile; result: null };
};

export type ReportPageMethods = NoMethods;
export type ReportPageEvent = never;

/** The evaluation report: the editor of results files (`*.rleval.json`). */
export const evalReportViewType = 'rlStudio.evalReport';
