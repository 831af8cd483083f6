/**
 * Reads a rollout file (trajectory groups) from its bytes as they arrive and hands back, per group,
 * its summary, and per line or element that is not a well-formed group, its problems with the line
 * number; the reading goes on after a problem.
 *
 * `.jsonl` holds one group per line. `.json` holds an array of groups; its elements are cut out of
 * the byte stream one by one (jsonArrayElements.ts), so neither form is ever held whole.
 *
 * A group that fails the trajectory-group shape (core/trajectoryShape.ts, the checks run before a
 * file is sent) gives its issues as problems, each naming the path of the value, and still its
 * summary when some of its trajectories have a numeric reward: a file with errors opens with what
 * can be read. The full check runs only for groups the summary's walk did not find well-formed
 * (see `SummaryResult.wellFormed`), so a clean file costs no second walk.
 *
 * Every record says where reading goes on after it (`next`), so a file that grows can be read on
 * from there: `from` continues line numbers, offsets and group indices. The last line of a .jsonl
 * file with no newline after it may still be being written: when it does not read as JSON it is
 * an `incomplete` record, not a problem, and the `next` of the record before stays at its start.
 */
import { ColumnStore, defaultThresholds, summarizeGroup, type SummaryThresholds } from './groupSummary';
import type { GroupSummary } from './groupSummary';
import { validateTrajectoryGroup, type JsonPath } from '../core/trajectoryShape';
import { JsonArraySplitter, type ArrayPiece } from './jsonArrayElements';
import { RolloutCollection, type RolloutCollectionOptions, type RolloutSnapshot } from './rolloutCollection';
import { defaultMaxLineBytes, LineSplitter, type SourceLine } from './sourceLines';

export type RolloutFormat = 'jsonl' | 'json';

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

export interface RolloutReadOptions {
  /** The longest line (.jsonl) or array element (.json) read, in bytes; longer ones become problems. */
  maxGroupBytes?: number;
  /** Shape problems listed per group; one more problem counts the rest. */
  maxProblemsPerGroup?: number;
  thresholds?: SummaryThresholds;
  /**
   * Where the chunks begin: a `next` of an earlier reading of the same file (the chunks then start
   * at its byte `offset`). Line numbers, offsets and group indices go on from it.
   */
  from?: RolloutPosition;
}

export const defaultMaxProblemsPerGroup = 20;
/** Characters of a problem's message: a path into a group can be long. */
const maxMessageChars = 400;

/** `.jsonl` is one group per line; anything else is read as a JSON array of groups. */
export function rolloutFormatOf(fileName: string): RolloutFormat {
  return /\.jsonl$/i.test(fileName) ? 'jsonl' : 'json';
}

/** The reading itself, one chunk at a time and without awaiting (a promise per group costs more than its summary). */
export class RolloutRecordReader {
  private readonly splitter: LineSplitter | JsonArraySplitter;
  private readonly maxBytes: number;
  private readonly maxProblemsPerGroup: number;
  private readonly thresholds: SummaryThresholds;
  private readonly store = new ColumnStore();
  private readonly format: RolloutFormat;
  private index: number;

  constructor(format: RolloutFormat, options: RolloutReadOptions = {}) {
    const from = options.from ?? startOfFile;
    this.format = format;
    this.maxBytes = options.maxGroupBytes ?? defaultMaxLineBytes;
    this.maxProblemsPerGroup = options.maxProblemsPerGroup ?? defaultMaxProblemsPerGroup;
    this.thresholds = options.thresholds ?? defaultThresholds;
    this.index = from.index;
    this.splitter = format === 'jsonl' ? new LineSplitter(this.maxBytes, from) : new JsonArraySplitter(this.maxBytes, from);
  }

  /** The records of the groups this chunk completes, in file order. */
  push(chunk: Uint8Array): RolloutRecord[] {
    const records: RolloutRecord[] = [];
    for (const piece of this.splitter.push(chunk)) this.read(piece, records);
    return records;
  }

  /** The records the end of the file completes. */
  end(): RolloutRecord[] {
    const records: RolloutRecord[] = [];
    const last = this.splitter.end();
    if (last) this.read(last, records);
    return records;
  }

  private read(piece: ArrayPiece, records: RolloutRecord[]): void {
    if (piece.kind === 'problem') {
      const problem: RolloutProblem = { line: piece.line, offset: piece.offset, bytes: 0, message: piece.message, severity: 'error' };
      records.push({ kind: 'problem', problem, next: { line: piece.line, offset: piece.offset, index: this.index } });
      return;
    }
    const unfinished = this.format === 'jsonl' && !piece.terminated;
    if (piece.kind === 'tooLong') {
      if (unfinished) records.push({ kind: 'incomplete', line: piece.line, offset: piece.offset, bytes: piece.bytes });
      else this.problem(piece, `this group is ${piece.bytes} bytes, more than the ${this.maxBytes} read: it was skipped`, 'error', records);
      return;
    }
    if (this.format === 'jsonl' && isBlank(piece.text)) return;
    let value: unknown;
    try {
      value = JSON.parse(piece.text);
    } catch (error) {
      if (unfinished) records.push({ kind: 'incomplete', line: piece.line, offset: piece.offset, bytes: piece.bytes });
      else this.problem(piece, `not valid JSON (${error instanceof Error ? error.message : String(error)})`, 'error', records);
      return;
    }
    const result = summarizeGroup(value, { index: this.index, line: piece.line, offset: piece.offset, bytes: piece.bytes }, this.thresholds, this.store);
    if (result.summary) this.index++;
    if (!result.wellFormed) {
      const issues = validateTrajectoryGroup(value, this.maxProblemsPerGroup);
      for (const issue of issues) this.problem(piece, describeIssue(issue.path, issue.message), issue.severity, records);
      if (!result.summary && issues.length === 0) this.problem(piece, 'not a trajectory group: no trajectory with a numeric "reward"', 'error', records);
    }
    if (result.summary) records.push({ kind: 'group', summary: result.summary, next: { line: piece.endLine, offset: piece.end, index: this.index } });
  }

  private problem(piece: SourceLine, message: string, severity: RolloutProblem['severity'], records: RolloutRecord[]): void {
    const text = message.length > maxMessageChars ? `${message.slice(0, maxMessageChars - 1)}…` : message;
    const problem: RolloutProblem = { line: piece.line, offset: piece.offset, bytes: piece.bytes, message: text, severity };
    records.push({ kind: 'problem', problem, next: { line: piece.endLine, offset: piece.end, index: this.index } });
  }
}

export interface InspectOptions extends RolloutReadOptions, RolloutCollectionOptions {
  /** Called every `progressEvery` groups with the figures so far, so a view can paint early. */
  onProgress?: (snapshot: RolloutSnapshot) => void;
  progressEvery?: number;
}

/**
 * Reads a file into a collection of summaries, statistics and problems, each bounded. Given a
 * collection, it reads on from the collection's `next` (the chunks then start at its offset).
 */
export async function inspectRollouts(chunks: AsyncIterable<Uint8Array>, format: RolloutFormat, options: InspectOptions = {}, collection = new RolloutCollection(options)): Promise<RolloutCollection> {
  const reader = new RolloutRecordReader(format, { ...options, from: options.from ?? collection.next });
  const progressEvery = options.progressEvery ?? 1000;
  let nextProgress = collection.groupsRead + progressEvery;
  const take = (records: RolloutRecord[]): void => {
    for (const record of records) collection.add(record);
    if (options.onProgress && collection.groupsRead >= nextProgress) {
      nextProgress = collection.groupsRead + progressEvery;
      options.onProgress(collection.snapshot());
    }
  };
  for await (const chunk of chunks) take(reader.push(chunk));
  take(reader.end());
  return collection;
}

/** Each group's records, in file order. */
export async function* readRolloutRecords(chunks: AsyncIterable<Uint8Array>, format: RolloutFormat, options: RolloutReadOptions = {}): AsyncGenerator<RolloutRecord> {
  const reader = new RolloutRecordReader(format, options);
  for await (const chunk of chunks) yield* reader.push(chunk);
  yield* reader.end();
}

/** "trajectories[2].reward: …": the path of the value an issue is about, then the issue. */
function describeIssue(path: JsonPath, message: string): string {
  if (path.length === 0) return message;
  let text = '';
  for (const part of path) {
    if (typeof part === 'number') text += `[${part}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(part)) text += text === '' ? part : `.${part}`;
    else text += `[${JSON.stringify(part.length > 40 ? `${part.slice(0, 40)}…` : part)}]`;
  }
  return `${text}: ${message}`;
}

/** Whether a line holds only white space, without copying it (lines start with `{` almost always). */
function isBlank(text: string): boolean {
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code > 0x7f) return text.trim() === '';
    if (code !== 0x20 && code !== 0x09 && code !== 0x0d && code !== 0x0a && code !== 0x0b && code !== 0x0c) return false;
  }
  return true;
}
