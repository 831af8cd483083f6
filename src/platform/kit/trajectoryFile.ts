import { describeSize, maxTrajectoryFileSize } from './trajectoryLimits';
import { arrayItems, extentOf, isArrayNode, nodeAtPath, parseStrictJson, type JsonNode, type JsonSyntaxProblem } from './strictJson';
import type { TrajectoryGroup } from '../client/types';
import { validateTrajectoryGroup, type JsonPath, type ShapeIssue } from './trajectoryShape';

/** A Parquet file is the official client's trajectory log (src/platform/parquet/trajectoryLog.ts), not text. */
export type TrajectoryFileFormat = 'jsonl' | 'json' | 'parquet';

/** The formats whose groups are text, read and checked by `parseTrajectoryFile`. */
export type TrajectoryTextFormat = Exclude<TrajectoryFileFormat, 'parquet'>;

/** A problem at a place in the file; lines and columns are zero-based, the end is exclusive. */
export interface SourceProblem {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  message: string;
  severity: 'error' | 'warning';
  /** Set on the closing entry of a long list: how many problems it stands for, not listed one by one. */
  notListed?: number;
}

export interface ParsedTrajectoryFile {
  groups: TrajectoryGroup[];
  problems: SourceProblem[];
  /** True when no problem is an error: the groups can be sent. */
  ok: boolean;
}

export interface TrajectoryCheckLimits {
  /**
   * The most text that is checked and sent in one request, in characters (the caller compares a
   * file's size in bytes before reading it). Beyond it the rest is not checked and nothing is sent.
   */
  maxSize: number;
  /** Problems listed; any more are counted in one closing problem. */
  maxProblems: number;
}

export const trajectoryFileLimits: TrajectoryCheckLimits = { maxSize: maxTrajectoryFileSize, maxProblems: 200 };

/** What a file of `size` bytes that is over `maxTrajectoryFileSize` gets instead of a check: it is not read. */
export function tooLargeToRead(size: number): ParsedTrajectoryFile {
  const message = `this file is ${describeSize(size)}, larger than the ${describeSize(maxTrajectoryFileSize)} RL Studio sends in one request: it was not read and nothing will be sent; split it into smaller files`;
  return { groups: [], problems: [{ line: 0, column: 0, endLine: 0, endColumn: 0, message, severity: 'error' }], ok: false };
}

/** Whether a file's name is one of a trajectory file: `.jsonl`, `.json` or a `.parquet` log. */
export function isTrajectoryFileName(fileName: string): boolean {
  return /\.(jsonl?|parquet)$/i.test(fileName);
}

/** `.jsonl` holds one group per line, `.parquet` is a trajectory log; anything else is read as a JSON array of groups. */
export function formatForFileName(fileName: string): TrajectoryFileFormat {
  if (/\.parquet$/i.test(fileName)) return 'parquet';
  return /\.jsonl$/i.test(fileName) ? 'jsonl' : 'json';
}

/**
 * Reads trajectory groups from a file's text and checks each against the trajectory-group shape,
 * placing every problem on the line (and the value) that causes it, so it can be shown where the
 * user can fix it. Runs to the end in one go; `checkTrajectoryFile` does the same in slices.
 */
export function parseTrajectoryFile(text: string, format: TrajectoryTextFormat, limits: TrajectoryCheckLimits = trajectoryFileLimits): ParsedTrajectoryFile {
  const steps = checkSteps(text, format, limits);
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/**
 * The same check, giving the event loop back every `sliceMs` (between lines of a .jsonl file), so
 * a large file never freezes the extension host for longer than one slice and one line.
 */
export async function checkTrajectoryFile(text: string, format: TrajectoryTextFormat, options: { limits?: TrajectoryCheckLimits; sliceMs?: number } = {}): Promise<ParsedTrajectoryFile> {
  const steps = checkSteps(text, format, options.limits ?? trajectoryFileLimits);
  const sliceMs = options.sliceMs ?? 15;
  let sliceStarted = Date.now();
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    if (Date.now() - sliceStarted >= sliceMs) {
      await new Promise<void>((resolve) => setTimeout(resolve, 0));
      sliceStarted = Date.now();
    }
  }
}

/** The check as steps: it yields after each group, so a caller may pause between them. */
function* checkSteps(text: string, format: TrajectoryTextFormat, limits: TrajectoryCheckLimits): Generator<void, ParsedTrajectoryFile> {
  const problems = new ProblemList(limits.maxProblems);
  const groups = format === 'jsonl' ? yield* checkLines(text, limits, problems) : yield* checkArray(text, limits, problems);
  if (groups.length === 0 && !problems.hasError()) {
    problems.add({ line: 0, column: 0, endLine: 0, endColumn: 0, message: 'no trajectory groups in this file', severity: 'error' });
  }
  const listed = problems.result();
  return { groups, problems: listed, ok: !listed.some((problem) => problem.severity === 'error') };
}

type Range = Omit<SourceProblem, 'message' | 'severity'>;

/** Places problems of one part of the file: a .jsonl line, or a whole .json file. */
interface Placer {
  /** The range from `start` to `end`, cut at the end of the line where it starts. */
  firstLine(start: number, end: number): Range;
}

function* checkLines(text: string, limits: TrajectoryCheckLimits, problems: ProblemList): Generator<void, TrajectoryGroup[]> {
  const groups: TrajectoryGroup[] = [];
  // A file that is too large cannot be sent: its groups are checked, not kept.
  const keepGroups = text.length <= limits.maxSize;
  let start = 0;
  for (let line = 0; start <= text.length; line++) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    if (end > limits.maxSize) {
      problems.add({
        line,
        column: 0,
        endLine: line,
        endColumn: 0,
        severity: 'error',
        message: `this file is larger than ${describeSize(limits.maxSize)}, the most RL Studio sends in one request: lines ${line + 1} onward were not checked and nothing will be sent; split the file into smaller ones`,
      });
      break;
    }
    const lineEnd = end > start && text.charCodeAt(end - 1) === 0x0d ? end - 1 : end;
    if (!isBlank(text, start, lineEnd)) {
      const placer: Placer = {
        firstLine: (from, to) => ({ line, column: from - start, endLine: line, endColumn: Math.min(Math.max(from, to), lineEnd) - start }),
      };
      const parsed = parseStrictJson(text, start, lineEnd);
      if (!parsed.ok) {
        problems.add(syntaxProblem(parsed.error, placer, 'a .jsonl file holds one JSON trajectory group per line'));
      } else if (!reportShapeIssues(validateTrajectoryGroup(parsed.value), parsed.locate, placer, problems) && keepGroups) {
        groups.push(parsed.value as TrajectoryGroup);
      }
      yield;
    }
    start = end + 1;
  }
  return groups;
}

function* checkArray(text: string, limits: TrajectoryCheckLimits, problems: ProblemList): Generator<void, TrajectoryGroup[]> {
  const groups: TrajectoryGroup[] = [];
  if (text.length > limits.maxSize) {
    problems.add({
      line: 0,
      column: 0,
      endLine: 0,
      endColumn: 0,
      severity: 'error',
      message: `this file is larger than ${describeSize(limits.maxSize)}, the most RL Studio sends in one request: it was not checked and nothing will be sent; split it into smaller files`,
    });
    return groups;
  }
  const locator = new LineLocator(text);
  const placer: Placer = { firstLine: (start, end) => locator.firstLine(start, end) };
  const parsed = parseStrictJson(text);
  if (!parsed.ok) {
    problems.add(syntaxProblem(parsed.error, placer, 'a .json file holds an array of trajectory groups'));
    return groups;
  }
  if (!Array.isArray(parsed.value)) {
    const { offset, length } = extentOf(parsed.locate());
    problems.add({ ...placer.firstLine(offset, offset + length), message: 'a .json trajectory file must be an array of trajectory groups (use .jsonl for one group per line)', severity: 'error' });
    return groups;
  }
  let items: JsonNode[] | undefined;
  const itemAt = (index: number): JsonNode => {
    items ??= isArrayNode(parsed.locate()) ? arrayItems(parsed.locate()) : [];
    return items[index]!;
  };
  const values = parsed.value as unknown[];
  for (let index = 0; index < values.length; index++) {
    if (!reportShapeIssues(validateTrajectoryGroup(values[index]), () => itemAt(index), placer, problems)) groups.push(values[index] as TrajectoryGroup);
    yield;
  }
  return groups;
}

/** Lists a group's shape issues (locating the values only for issues that are listed); true when one is an error. */
function reportShapeIssues(issues: ShapeIssue[], locate: () => JsonNode, placer: Placer, problems: ProblemList): boolean {
  let hasError = false;
  for (const issue of issues) {
    if (issue.severity === 'error') hasError = true;
    // A missing key is reported on the object that lacks it (the nearest node that exists).
    const place = (): Range => {
      const { offset, length } = extentOf(nearestNode(locate(), issue.path));
      return placer.firstLine(offset, offset + length);
    };
    problems.add(place, issue.message, issue.severity);
  }
  return hasError;
}

/** The node at `path`, or the deepest ancestor of it that exists. */
function nearestNode(root: JsonNode, path: JsonPath): JsonNode {
  for (let length = path.length; length > 0; length--) {
    const found = nodeAtPath(root, path.slice(0, length));
    if (found) return found;
  }
  return root;
}

function syntaxProblem(error: JsonSyntaxProblem, placer: Placer, hint: string): SourceProblem {
  const range = placer.firstLine(error.offset, error.offset + error.length);
  if (error.tooDeep) return { ...range, message: `${error.message}: a trajectory group this deep is not sent`, severity: 'error' };
  return { ...range, message: `not valid JSON (${error.message}): ${hint}`, severity: 'error' };
}

/** Whether a line holds only white space, without copying it (lines start with `{` almost always). */
function isBlank(text: string, start: number, end: number): boolean {
  for (let at = start; at < end; at++) {
    const code = text.charCodeAt(at);
    if (code > 0x7f) return text.slice(start, end).trim() === '';
    if (code !== 0x20 && code !== 0x09 && code !== 0x0d && code !== 0x0a && code !== 0x0b && code !== 0x0c) return false;
  }
  return true;
}

/**
 * The first `limit` problems, then one that counts the rest (an error if any of them is). Places
 * are computed only for problems that are listed: locating a value parses its group into a tree.
 */
class ProblemList {
  private readonly listed: SourceProblem[] = [];
  private hiddenErrors = 0;
  private hiddenWarnings = 0;
  private firstHidden: Range | undefined;

  constructor(private readonly limit: number) {}

  add(problem: SourceProblem): void;
  add(place: () => Range, message: string, severity: SourceProblem['severity']): void;
  add(problem: SourceProblem | (() => Range), message?: string, severity?: SourceProblem['severity']): void {
    const isListed = this.listed.length < this.limit;
    if (typeof problem === 'function') {
      if (isListed) this.listed.push({ ...problem(), message: message!, severity: severity! });
      else this.hide(severity!, problem);
    } else if (isListed) {
      this.listed.push(problem);
    } else {
      this.hide(problem.severity, () => problem);
    }
  }

  hasError(): boolean {
    return this.hiddenErrors > 0 || this.listed.some((problem) => problem.severity === 'error');
  }

  result(): SourceProblem[] {
    const hidden = this.hiddenErrors + this.hiddenWarnings;
    if (hidden === 0) return this.listed;
    return [
      ...this.listed,
      {
        ...this.firstHidden!,
        message: `${hidden} more problem${hidden === 1 ? '' : 's'} not listed, from here on: fix the ones above first`,
        severity: this.hiddenErrors > 0 ? 'error' : 'warning',
        notListed: hidden,
      },
    ];
  }

  private hide(severity: SourceProblem['severity'], place: () => Range): void {
    this.firstHidden ??= place();
    if (severity === 'error') this.hiddenErrors++;
    else this.hiddenWarnings++;
  }
}

/** Offsets to zero-based lines and columns, by binary search over the line starts. */
class LineLocator {
  private readonly starts: number[] = [0];

  constructor(private readonly text: string) {
    for (let index = text.indexOf('\n'); index >= 0; index = text.indexOf('\n', index + 1)) this.starts.push(index + 1);
  }

  /**
   * The range cut at the end of its first line, so a long pretty-printed object is not underlined
   * from top to bottom.
   */
  firstLine(start: number, end: number): Range {
    const from = this.position(start);
    const to = this.position(Math.max(start, end));
    if (to.line === from.line) return { line: from.line, column: from.column, endLine: to.line, endColumn: to.column };
    return { line: from.line, column: from.column, endLine: from.line, endColumn: this.lineEnd(from.line) - this.starts[from.line]! };
  }

  private position(offset: number): { line: number; column: number } {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.starts[middle]! <= offset) low = middle;
      else high = middle - 1;
    }
    return { line: low, column: offset - this.starts[low]! };
  }

  private lineEnd(line: number): number {
    const next = this.starts[line + 1];
    if (next === undefined) return this.text.length;
    return this.text[next - 2] === '\r' ? next - 2 : next - 1;
  }
}
