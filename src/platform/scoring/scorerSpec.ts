/**
 * What a scorer is, as a results file, a task file or a dialog names it: a kind and its fields
 * (`ScorerSpec`), under a name (`NamedScorer`). Scoring is shared by every feature that grades an
 * answer: evaluations, canaries, training from a task file, and re-scoring trajectories.
 */

import type { ChatMessage } from '../client/types';

/** How a built-in scorer or a judge scores one answer: a number in [0, 1] (1 best). */
export type ScorerSpec =
  /** The answer equals the reference (white space at the ends ignored; case too unless `caseSensitive`). */
  | { kind: 'exactMatch'; caseSensitive?: boolean }
  /** The answer contains `text`, or the reference when no text is given. */
  | { kind: 'contains'; text?: string; caseSensitive?: boolean }
  /** The answer matches a regular expression (run on at most `maxScoredChars` of it). */
  | { kind: 'regex'; pattern: string; flags?: string }
  /** The answer (or its first fenced code block) parses as JSON. */
  | { kind: 'validJson' }
  /** The answer parses as JSON and satisfies a JSON Schema (the subset the validator supports). */
  | { kind: 'jsonSchema'; schema: unknown }
  /** The answer's length lies within bounds. */
  | { kind: 'length'; unit: 'chars' | 'words'; min?: number; max?: number }
  /** A catalogue model grades the answer against a rubric, through the same client; its verdict is parsed from its answer. */
  | { kind: 'judge'; model: string; rubric: string }
  /** A program of the workspace reads `{sample, answer}` as JSON on stdin and prints a score; trusted workspaces only. */
  | { kind: 'command'; command: string; args?: string[]; timeoutMs?: number };

export interface NamedScorer {
  /** Shown in the report; unique within a run. */
  name: string;
  spec: ScorerSpec;
}

/** What an answer is scored against: its prompt and, for the scorers that compare, a reference. */
export interface ScoredSample {
  id?: string;
  messages: ChatMessage[];
  reference?: string;
  metadata?: Record<string, unknown>;
}

/** The bounds of scoring, whoever scores. */
export const scoringLimits = {
  /** Scorers of one run or file. */
  scorers: 16,
  /** A command scorer's arguments, and the characters of its program and of each argument. */
  commandArgs: 64,
  commandChars: 1_000,
  /** Characters of an answer scored (regex, JSON) and kept in a results file. */
  maxScoredChars: 200_000,
} as const;
