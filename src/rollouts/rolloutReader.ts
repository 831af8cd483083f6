/**
 * Reads a rollout file (trajectory groups) from its bytes as they arrive and hands back, per group,
 * its summary and, for the file, statistics that grow as it is read. A line or element that is not
 * a trajectory group becomes a problem with its line number, and the reading goes on.
 *
 * `.jsonl` holds one group per line. `.json` holds an array of groups; its elements are cut out of
 * the byte stream one by one (jsonArrayElements.ts), so neither form is ever held whole.
 */
import { defaultThresholds, summarizeGroup, type GroupSummary, type SummaryThresholds } from './groupSummary';
import { jsonArrayElements } from './jsonArrayElements';
import { RolloutStatisticsBuilder, type RolloutStatistics } from './rolloutStatistics';
import { defaultMaxLineBytes, sourceLines, type SourceLine } from './sourceLines';

export type RolloutFormat = 'jsonl' | 'json';

export interface RolloutProblem {
  /** Zero-based line where the group (or the text that should have been one) starts. */
  line: number;
  offset: number;
  message: string;
}

export type RolloutRecord = { kind: 'group'; summary: GroupSummary } | { kind: 'problem'; problem: RolloutProblem };

export interface RolloutReadOptions {
  /** The longest line (.jsonl) or array element (.json) read, in bytes; longer ones become problems. */
  maxGroupBytes?: number;
  thresholds?: SummaryThresholds;
}

/** `.jsonl` is one group per line; anything else is read as a JSON array of groups. */
export function rolloutFormatOf(fileName: string): RolloutFormat {
  return /\.jsonl$/i.test(fileName) ? 'jsonl' : 'json';
}

/** Each group's summary or problem, in file order. */
export async function* readRolloutRecords(chunks: AsyncIterable<Uint8Array>, format: RolloutFormat, options: RolloutReadOptions = {}): AsyncGenerator<RolloutRecord> {
  const maxBytes = options.maxGroupBytes ?? defaultMaxLineBytes;
  const thresholds = options.thresholds ?? defaultThresholds;
  const pieces = format === 'jsonl' ? nonBlank(sourceLines(chunks, { maxLineBytes: maxBytes })) : jsonArrayElements(chunks, { maxElementBytes: maxBytes });
  let index = 0;
  for await (const piece of pieces) {
    if (piece.kind === 'problem') {
      yield { kind: 'problem', problem: { line: piece.line, offset: piece.offset, message: piece.message } };
      continue;
    }
    if (piece.kind === 'tooLong') {
      yield { kind: 'problem', problem: { line: piece.line, offset: piece.offset, message: `this group is ${piece.bytes} bytes, more than the ${maxBytes} read: it was skipped` } };
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(piece.text);
    } catch (error) {
      yield { kind: 'problem', problem: { line: piece.line, offset: piece.offset, message: `not valid JSON (${error instanceof Error ? error.message : String(error)})` } };
      continue;
    }
    const result = summarizeGroup(value, { index, line: piece.line, offset: piece.offset }, thresholds);
    if (result.ok) {
      index++;
      yield { kind: 'group', summary: result.summary };
    } else {
      yield { kind: 'problem', problem: { line: piece.line, offset: piece.offset, message: result.message } };
    }
  }
}

export interface RolloutInspection {
  groups: GroupSummary[];
  statistics: RolloutStatistics;
  /** The first `maxProblems` problems. */
  problems: RolloutProblem[];
  /** Problems beyond those listed. */
  problemsNotListed: number;
  /** Groups beyond `maxGroups`: counted in the statistics, their summaries not kept. */
  groupsNotKept: number;
}

export interface InspectOptions extends RolloutReadOptions {
  maxProblems?: number;
  maxGroups?: number;
  /** Called every `progressEvery` groups with the figures so far, so a view can paint early. */
  onProgress?: (statistics: RolloutStatistics, groupsRead: number) => void;
  progressEvery?: number;
}

export const defaultMaxProblems = 200;
/**
 * Summaries kept. The benchmark's 12,500 groups of 8 (a 196 MB file) grow the heap by about 35 MB
 * while read, some 3 KB a group at the peak, so the cap keeps a file of any size under about 300 MB.
 */
export const defaultMaxGroups = 100_000;

/** Reads the whole file into summaries, statistics and problems, each bounded. */
export async function inspectRollouts(chunks: AsyncIterable<Uint8Array>, format: RolloutFormat, options: InspectOptions = {}): Promise<RolloutInspection> {
  const maxProblems = options.maxProblems ?? defaultMaxProblems;
  const maxGroups = options.maxGroups ?? defaultMaxGroups;
  const progressEvery = options.progressEvery ?? 1000;
  const statistics = new RolloutStatisticsBuilder();
  const inspection: RolloutInspection = { groups: [], statistics: statistics.snapshot(), problems: [], problemsNotListed: 0, groupsNotKept: 0 };
  let read = 0;
  for await (const record of readRolloutRecords(chunks, format, options)) {
    if (record.kind === 'problem') {
      if (inspection.problems.length < maxProblems) inspection.problems.push(record.problem);
      else inspection.problemsNotListed++;
      continue;
    }
    statistics.add(record.summary);
    if (inspection.groups.length < maxGroups) inspection.groups.push(record.summary);
    else inspection.groupsNotKept++;
    if (++read % progressEvery === 0) options.onProgress?.(statistics.snapshot(), read);
  }
  inspection.statistics = statistics.snapshot();
  return inspection;
}

async function* nonBlank(lines: AsyncIterable<SourceLine>): AsyncGenerator<SourceLine> {
  for await (const line of lines) {
    if (line.kind === 'tooLong' || line.text.trim() !== '') yield line;
  }
}
