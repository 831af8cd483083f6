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
import { readAhead } from './readAhead';
import { ColumnStore } from './columnStore';
import { summarizeGroup } from './groupSummary';
import { defaultThresholds, type GroupPlace, type GroupSummary, type SummaryThresholds } from './groupSummaryShape';
import { validateTrajectoryGroup, type JsonPath } from '../../platform/kit/trajectoryShape';
import { JsonArraySplitter, type ArrayPiece } from '../../platform/kit/jsonArrayElements';
import { RolloutCollection, type RolloutCollectionOptions, type RolloutSnapshot } from './rolloutCollection';
import { defaultMaxLineBytes, LineSplitter, type SourceLine } from '../../platform/kit/sourceLines';
import type { TrajectoryTextFormat } from '../../platform/kit/trajectoryFile';
import { startOfFile, type RolloutPosition, type RolloutProblem, type RolloutRecord } from './rolloutRecords';
import { errorMessage } from '../../platform/client/errorMessage';

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

/** The reading itself, one chunk at a time and without awaiting (a promise per group costs more than its summary). */
export class RolloutRecordReader {
  private readonly splitter: LineSplitter | JsonArraySplitter;
  private readonly maxBytes: number;
  private readonly maxProblemsPerGroup: number;
  private readonly thresholds: SummaryThresholds;
  private readonly store = new ColumnStore();
  private readonly format: TrajectoryTextFormat;
  private index: number;

  constructor(format: TrajectoryTextFormat, options: RolloutReadOptions = {}) {
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
    return this.recordsOf(this.split(chunk), this.readHere.bind(this));
  }

  /** The records the end of the file completes. */
  end(): RolloutRecord[] {
    return this.recordsOf(this.splitEnd(), this.readHere.bind(this));
  }

  /**
   * The reading in two steps: `split` cuts a chunk into pieces, the groups among them (`toRead`)
   * are read into outcomes, in order, and `recordsOf` turns pieces and outcomes into records. (The
   * steps are apart so that groups could be read elsewhere, e.g. on worker threads, the outcomes
   * coming back in order.)
   */
  private split(chunk: Uint8Array): ArrayPiece[] {
    return this.splitter.push(chunk);
  }

  private splitEnd(): ArrayPiece[] {
    const last = this.splitter.end();
    return last ? [last] : [];
  }

  /** The text of a piece that holds a group to read, or undefined. */
  private toRead(piece: ArrayPiece): string | undefined {
    if (piece.kind !== 'line' || (this.format === 'jsonl' && isBlank(piece.text))) return undefined;
    return piece.text;
  }

  /** The records of `pieces`; `outcome` gives, in order, the outcome of each piece with a group to read. */
  private recordsOf(pieces: ArrayPiece[], outcome: (text: string, place: GroupPlace) => GroupOutcome): RolloutRecord[] {
    const records: RolloutRecord[] = [];
    for (const piece of pieces) {
      const text = this.toRead(piece);
      if (text === undefined) this.readNothing(piece, records);
      else this.take(piece as SourceLine, outcome(text, { index: this.index, line: piece.line, offset: piece.offset, bytes: (piece as SourceLine).bytes }), records);
    }
    return records;
  }

  private readHere(text: string, place: GroupPlace): GroupOutcome {
    return readGroup(text, place, this.thresholds, this.maxProblemsPerGroup, this.store);
  }

  /** A piece with no group to read: a problem of the file's structure, a group too long, or a blank line. */
  private readNothing(piece: ArrayPiece, records: RolloutRecord[]): void {
    if (piece.kind === 'problem') {
      const problem: RolloutProblem = { line: piece.line, offset: piece.offset, bytes: 0, message: piece.message, severity: 'error' };
      records.push({ kind: 'problem', problem, next: { line: piece.line, offset: piece.offset, index: this.index } });
    } else if (piece.kind === 'tooLong') {
      if (this.format === 'jsonl' && !piece.terminated) records.push({ kind: 'incomplete', line: piece.line, offset: piece.offset, bytes: piece.bytes });
      else this.problem(piece, `this group is ${piece.bytes} bytes, more than the ${this.maxBytes} read: it was skipped`, 'error', records);
    }
  }

  private take(piece: SourceLine, outcome: GroupOutcome, records: RolloutRecord[]): void {
    if (outcome.kind === 'invalid') {
      if (this.format === 'jsonl' && !piece.terminated) records.push({ kind: 'incomplete', line: piece.line, offset: piece.offset, bytes: piece.bytes });
      else this.problem(piece, `not valid JSON (${outcome.error})`, 'error', records);
      return;
    }
    const summary = outcome.summary;
    if (summary) {
      // Read elsewhere, a summary could not know its index (only the groups before it tell).
      summary.index = this.index;
      this.index++;
    }
    for (const issue of outcome.issues) this.problem(piece, issue.message, issue.severity, records);
    if (summary) records.push({ kind: 'group', summary, next: { line: piece.endLine, offset: piece.end, index: this.index } });
  }

  private problem(piece: SourceLine, message: string, severity: RolloutProblem['severity'], records: RolloutRecord[]): void {
    const problem: RolloutProblem = { line: piece.line, offset: piece.offset, bytes: piece.bytes, message, severity };
    records.push({ kind: 'problem', problem, next: { line: piece.endLine, offset: piece.end, index: this.index } });
  }
}

/** What reading one group's text gives: its summary and shape problems, or why it is not JSON. */
type GroupOutcome = { kind: 'invalid'; error: string } | { kind: 'read'; summary: GroupSummary | undefined; issues: { message: string; severity: RolloutProblem['severity'] }[] };

/** Parses and summarises one group's text, and checks its shape when the summary's walk did not find it well-formed. */
function readGroup(text: string, place: GroupPlace, thresholds: SummaryThresholds, maxProblemsPerGroup: number, store?: ColumnStore): GroupOutcome {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { kind: 'invalid', error: cut(errorMessage(error)) };
  }
  return { kind: 'read', ...readGroupValue(value, place, thresholds, maxProblemsPerGroup, store) };
}

/** Summarises one group already parsed (a Parquet log's rows), and checks its shape as `readGroup` does. */
export function readGroupValue(
  value: unknown,
  place: GroupPlace,
  thresholds: SummaryThresholds,
  maxProblemsPerGroup: number,
  store?: ColumnStore,
): { summary: GroupSummary | undefined; issues: { message: string; severity: RolloutProblem['severity'] }[] } {
  const result = summarizeGroup(value, place, thresholds, store);
  const issues: { message: string; severity: RolloutProblem['severity'] }[] = [];
  if (!result.wellFormed) {
    for (const issue of validateTrajectoryGroup(value, maxProblemsPerGroup)) issues.push({ message: cut(describeIssue(issue.path, issue.message)), severity: issue.severity });
    if (!result.summary && issues.length === 0) issues.push({ message: 'not a trajectory group: no trajectory with a numeric "reward"', severity: 'error' });
  }
  return { summary: result.summary, issues };
}

function cut(message: string): string {
  return message.length > maxMessageChars ? `${message.slice(0, maxMessageChars - 1)}…` : message;
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
export async function inspectRollouts(
  chunks: AsyncIterable<Uint8Array>,
  format: TrajectoryTextFormat,
  options: InspectOptions = {},
  collection = new RolloutCollection(options),
): Promise<RolloutCollection> {
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
  for await (const chunk of readAhead(chunks)) take(reader.push(chunk));
  take(reader.end());
  return collection;
}

/** Each group's records, in file order. */
export async function* readRolloutRecords(chunks: AsyncIterable<Uint8Array>, format: TrajectoryTextFormat, options: RolloutReadOptions = {}): AsyncGenerator<RolloutRecord> {
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
