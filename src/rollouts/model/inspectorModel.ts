/**
 * What the rollout inspector's page and its editor in the extension host say to each other about a
 * file: the queries the page asks (filter, sort, a page of rows) and the group it opens, rendered
 * into plain, bounded data. The extension host builds these from the file (groupQuery.ts,
 * groupDetail.ts); the page only draws them. Every list and text here has a cap, so no file can
 * make a message (or the page) unbounded.
 */
import type { GroupFlag } from './groupSummaryShape';
import { maxDiffWords, type DiffSpan } from '../../platform/kit/wordDiff';
import type { RolloutProblem } from './rolloutRecords';
import type { RolloutStatistics } from './rolloutStatistics';
import type { TrajectoryFileFormat } from '../../platform/kit/trajectoryFile';

/** A per-trajectory value a histogram shows and a range filters on. */
export type SeriesName = 'reward' | 'completionLength' | `metric:${string}`;

/** Groups with at least one trajectory whose `series` value lies in [min, max]. */
export interface ValueRange {
  series: SeriesName;
  min: number;
  max: number;
}

export interface GroupFilter {
  /** Groups carrying every one of these flags. */
  flags: GroupFlag[];
  /** Every range must hold (each by some trajectory of the group). */
  ranges: ValueRange[];
  /** Groups whose metadata has each key with exactly this value (as the value's text). */
  metadata: { key: string; value: string }[];
  /** Groups whose messages contain this text, case-insensitively; empty for no search. */
  text: string;
}

export type SortColumn = 'index' | 'trajectories' | 'mean' | 'std' | 'min' | 'max' | 'exceptions' | 'completionLength';

export interface GroupQuery {
  filter: GroupFilter;
  sort: { column: SortColumn; descending: boolean };
}

export const emptyFilter: GroupFilter = { flags: [], ranges: [], metadata: [], text: '' };
export const defaultQuery: GroupQuery = { filter: emptyFilter, sort: { column: 'index', descending: false } };

/** Limits on what a query may carry (the page is not trusted). */
export const queryLimits = { ranges: 8, metadata: 8, textChars: 200, keyChars: 200, valueChars: 200 } as const;

/** One row of the groups list. */
export interface GroupRow {
  /** Zero-based position of the group among the file's groups. */
  index: number;
  /** Zero-based line where the group starts. */
  line: number;
  trajectories: number;
  mean: number;
  std: number;
  min: number;
  max: number;
  /** Mean characters of the trajectories' trained turns. */
  completionLength: number;
  exceptions: number;
  flags: GroupFlag[];
  /** The group's metadata as short texts (at most `maxMetadataKeys` keys). */
  metadata: Record<string, string>;
}

/** Rows asked for at once: more than a screen, far less than a file. */
export const maxRowsPerPage = 500;

export interface RowsPage {
  /** Groups that match the query. */
  total: number;
  /** The rows from `start`, at most the count asked for. */
  start: number;
  rows: GroupRow[];
  /** The file's version these rows come from (see `RolloutFileState.version`). */
  version: number;
}

/** A metadata key of the file's groups and its most frequent values, for the filter's choices. */
export interface MetadataChoices {
  key: string;
  /** Up to `maxMetadataChoices` values, most frequent first, with how many groups have each. */
  values: { value: string; groups: number }[];
  /** Groups with a value not listed. */
  otherGroups: number;
}
export const maxMetadataChoices = 20;
export const maxMetadataChoiceKeys = 16;

/** Everything the page shows before a group is opened. */
export interface RolloutFileState {
  fileName: string;
  format: TrajectoryFileFormat;
  /**
   * Bytes read of the file's size while it is read; undefined once done. A Parquet log counts rows
   * (`unit: 'rows'`): its groups' places are rows, not bytes.
   */
  reading?: { bytesRead: number; totalBytes: number; unit?: 'rows' };
  /** Grows whenever the groups change (more read, appended, re-read): the page asks its rows again. */
  version: number;
  statistics: RolloutStatistics;
  problems: RolloutProblem[];
  problemsNotListed: number;
  /** Groups beyond the kept summaries: counted in the statistics, not listed. */
  groupsNotKept: number;
  metadata: MetadataChoices[];
  /** Why the file could not be read (at all, or any further), in words; undefined when it could. */
  error?: string;
  /** Nothing of the file could be read (gone, or refused): the page shows why and nothing else. */
  unreadable?: boolean;
  /** A Parquet file that is not a trajectory log (or not Parquet): the page offers another editor for it. */
  notTrajectoryLog?: boolean;
}

export interface TokenLogprob {
  token: string;
  logprob: number;
}

export interface ToolCallView {
  id: string;
  name: string;
  /** The arguments text, cut at `maxMessageChars`. */
  arguments: string;
}

/** One message or choice of a conversation, as the page shows it. */
export interface MessageView {
  role: string;
  /** A choice: the model's own turn, the tokens trained on. */
  trained: boolean;
  finishReason?: string;
  /** The text, cut at `maxMessageChars`; `omittedChars` says how much is not shown. */
  content: string;
  omittedChars: number;
  toolCalls: ToolCallView[];
  /** For a tool result: the call it answers. */
  toolCallId?: string;
  /** The choice's token log-probabilities, at most `maxTokens`. */
  logprobs?: TokenLogprob[];
  /** For a trained turn of a sibling other than the best: its difference from the best's turn at the same place. */
  diff?: DiffSpan[];
  /** Why there is no diff for a trained turn (too long to compare, no turn to compare with). */
  diffNote?: string;
}

export interface TrajectoryView {
  /** Zero-based position in the group, as in the file. */
  position: number;
  reward: number;
  /** reward − the group's mean. */
  advantage: number;
  /** The advantage divided by the group's standard deviation; 0 when that is 0. */
  normalizedAdvantage: number;
  /** The trajectory's metrics as short texts. */
  metrics: Record<string, string>;
  metadata: Record<string, string>;
  messages: MessageView[];
  /** Messages beyond `maxMessages`. */
  omittedMessages: number;
  /** Names of the tools offered. */
  tools: string[];
  /** Other histories of the trajectory, each as a conversation (at most `maxAdditionalHistories`). */
  additionalHistories: MessageView[][];
  /** The log lines, at most `maxLogLines`, each cut. */
  logs: string[];
  /** Flags that apply to this trajectory alone. */
  truncated: boolean;
  repetition: number;
  doesNothing: boolean;
}

export interface GroupDetail {
  index: number;
  line: number;
  reward: { mean: number; std: number; min: number; max: number };
  flags: GroupFlag[];
  /** The group's exceptions as short texts. */
  exceptions: string[];
  metadata: Record<string, string>;
  /** The siblings sorted by reward, best first. */
  trajectories: TrajectoryView[];
  /** Trajectories beyond `maxTrajectories`. */
  omittedTrajectories: number;
  /** Shape problems of this group (the checks run before a file is sent), each with its path. */
  problems: string[];
}

export const detailLimits = {
  maxTrajectories: 64,
  maxMessages: 200,
  maxMessageChars: 20_000,
  maxTokens: 4_000,
  maxAdditionalHistories: 8,
  maxLogLines: 200,
  maxLogChars: 2_000,
  maxShortText: 200,
  /** Words compared per turn; longer turns get a `diffNote` instead of a diff. */
  maxDiffWords,
} as const;
