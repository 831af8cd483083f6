/**
 * What reading a rollout file yields, record by record, and where it stands: the words the reader
 * (rolloutReader.ts) and the collection of what was read (rolloutCollection.ts) share.
 */
import type { GroupSummary } from './groupSummaryShape';

/** Where reading stands: the zero-based line and byte offset it goes on from, and the index the next group gets. */
export interface RolloutPosition {
  line: number;
  offset: number;
  index: number;
}

export const startOfFile: RolloutPosition = { line: 0, offset: 0, index: 0 };

export interface RolloutProblem {
  /** Zero-based line where the group (or the text that should have been one) starts. */
  line: number;
  offset: number;
  /** Its length in bytes from `offset` (0 for a problem of the file's structure rather than of one group). */
  bytes: number;
  message: string;
  /** A warning points at something unusual that the platform still accepts. */
  severity: 'error' | 'warning';
}

/** A last line with no newline after it that does not read as JSON: perhaps still being written. */
export interface IncompleteLine {
  line: number;
  offset: number;
  bytes: number;
}

export type RolloutRecord =
  { kind: 'group'; summary: GroupSummary; next: RolloutPosition } | { kind: 'problem'; problem: RolloutProblem; next: RolloutPosition } | ({ kind: 'incomplete' } & IncompleteLine);
