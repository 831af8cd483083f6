/**
 * A rollout file as the inspector reads it, whatever its format: its groups as records, one group
 * again, the texts of groups, and a text search. `.jsonl` and `.json` files are read from their
 * bytes (a group is a range of bytes, found again by its offset); a Parquet trajectory log is read
 * with the Parquet library (a group is a run of rows, found again by its first row) —
 * parquetGroupFile.ts.
 */
import type { GroupSummary } from './groupSummaryShape';
import type { RolloutReadOptions } from './rolloutReader';
import type { RolloutPosition, RolloutRecord } from './rolloutRecords';

export interface GroupSearchOptions {
  signal: AbortSignal;
  /** Called now and then with how far the search is, in the file's `unit`. */
  onProgress: (read: number) => void;
}

/** A group's value as read for re-scoring, with its place; or why the text there is no group. */
export type GroupValueRecord = { kind: 'group'; value: unknown; line: number } | { kind: 'unreadable'; line: number; message: string };

export interface GroupValuesOptions {
  signal?: AbortSignal;
  /** Called after each batch with how far the reading is, in the file's `unit`. */
  onProgress?: (read: number) => void;
  /** The longest group read (text files), in bytes; a longer one is unreadable. */
  maxGroupBytes?: number;
}

export interface GroupFile {
  /** What places and progress count: bytes of a text file, rows of a Parquet log. */
  readonly unit: 'bytes' | 'rows';
  /**
   * The file's extent now, in its `unit`, before a reading starts. Throws when the file cannot be
   * read at all (gone, or not a file of this format).
   */
  extent(): Promise<number>;
  /** Whether the file only grew since reading stopped at `next`: it is then read on from there, else again whole. */
  appendedOnly(extent: number, next: RolloutPosition): Promise<boolean>;
  /** The records from `from` (the start, or where an earlier reading of the same file stopped). */
  records(from: RolloutPosition, options: RolloutReadOptions): AsyncIterable<RolloutRecord>;
  /** A reading ended at `next` (what it keeps to tell an appended file later). */
  readEnded(next: RolloutPosition): Promise<void>;
  /** A group read again from its place: its value, or undefined when what is there now is no group. */
  groupValue(summary: GroupSummary): Promise<unknown>;
  /** The text of each group, in the order given (file order); the same text a JSON file would hold. */
  groupTexts(summaries: readonly GroupSummary[]): AsyncGenerator<string>;
  /**
   * Every group's value in file order, in batches (a chunk's groups at a time: a promise per group
   * would cost more than re-scoring it), with none of the summaries and checks of `records`.
   */
  groupValues(options: GroupValuesOptions): AsyncIterable<GroupValueRecord[]>;
  /** A mask by position among `groups` (file order): 1 where the group's messages hold `needle`. */
  search(groups: readonly GroupSummary[], needle: string, options: GroupSearchOptions): Promise<Uint8Array>;
}
