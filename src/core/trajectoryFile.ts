import { arrayItems, extentOf, isArrayNode, nodeAtPath, parseStrictJson, type JsonNode, type JsonSyntaxProblem } from './strictJson';
import type { TrajectoryGroup } from '../api/types';
import { validateTrajectoryGroup, type JsonPath } from './trajectoryShape';

export type TrajectoryFileFormat = 'jsonl' | 'json';

/** A problem at a place in the file; lines and columns are zero-based, the end is exclusive. */
export interface SourceProblem {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  message: string;
  severity: 'error' | 'warning';
}

export interface ParsedTrajectoryFile {
  groups: TrajectoryGroup[];
  problems: SourceProblem[];
  /** True when no problem is an error: the groups can be sent. */
  ok: boolean;
}

/** `.jsonl` holds one group per line; anything else is read as a JSON array of groups. */
export function formatForFileName(fileName: string): TrajectoryFileFormat {
  return /\.jsonl$/i.test(fileName) ? 'jsonl' : 'json';
}

/**
 * Reads trajectory groups from a file's text and checks each against the trajectory-group shape,
 * placing every problem on the line (and the value) that causes it, so it can be shown where the
 * user can fix it.
 */
export function parseTrajectoryFile(text: string, format: TrajectoryFileFormat): ParsedTrajectoryFile {
  const locator = new LineLocator(text);
  const result = format === 'jsonl' ? parseLines(text, locator) : parseArray(text, locator);
  if (result.groups.length === 0 && !result.problems.some((problem) => problem.severity === 'error')) {
    result.problems.push({ ...locator.range(0, 0), message: 'no trajectory groups in this file', severity: 'error' });
  }
  return { ...result, ok: !result.problems.some((problem) => problem.severity === 'error') };
}

function parseLines(text: string, locator: LineLocator): Omit<ParsedTrajectoryFile, 'ok'> {
  const groups: TrajectoryGroup[] = [];
  const problems: SourceProblem[] = [];
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const lineEnd = end > start && text[end - 1] === '\r' ? end - 1 : end;
    if (text.slice(start, lineEnd).trim() !== '') {
      const parsed = parseStrictJson(text, start, lineEnd);
      if (!parsed.ok) {
        problems.push(syntaxProblem(parsed.error, locator, 'a .jsonl file holds one JSON trajectory group per line'));
      } else {
        const before = problems.length;
        collectShapeProblems(parsed.root, parsed.value, locator, problems);
        if (!problems.slice(before).some((problem) => problem.severity === 'error')) groups.push(parsed.value as TrajectoryGroup);
      }
    }
    start = end + 1;
  }
  return { groups, problems };
}

function parseArray(text: string, locator: LineLocator): Omit<ParsedTrajectoryFile, 'ok'> {
  const groups: TrajectoryGroup[] = [];
  const problems: SourceProblem[] = [];
  const parsed = parseStrictJson(text);
  if (!parsed.ok) {
    problems.push(syntaxProblem(parsed.error, locator, 'a .json file holds an array of trajectory groups'));
    return { groups, problems };
  }
  const { root } = parsed;
  if (!isArrayNode(root)) {
    problems.push({ ...firstLineOf(root, locator), message: 'a .json trajectory file must be an array of trajectory groups (use .jsonl for one group per line)', severity: 'error' });
    return { groups, problems };
  }
  const values = parsed.value as unknown[];
  arrayItems(root).forEach((element, index) => {
    const before = problems.length;
    collectShapeProblems(element, values[index], locator, problems);
    if (!problems.slice(before).some((problem) => problem.severity === 'error')) groups.push(values[index] as TrajectoryGroup);
  });
  return { groups, problems };
}

function collectShapeProblems(node: JsonNode, value: unknown, locator: LineLocator, problems: SourceProblem[]): void {
  for (const issue of validateTrajectoryGroup(value)) {
    // A missing key is reported on the object that lacks it (the nearest node that exists).
    const target = nearestNode(node, issue.path);
    problems.push({ ...firstLineOf(target, locator), message: issue.message, severity: issue.severity });
  }
}

/** The node at `path`, or the deepest ancestor of it that exists. */
function nearestNode(root: JsonNode, path: JsonPath): JsonNode {
  for (let length = path.length; length > 0; length--) {
    const found = nodeAtPath(root, path.slice(0, length));
    if (found) return found;
  }
  return root;
}

/**
 * The node's range, cut at the end of its first line, so a long pretty-printed object is not
 * underlined from top to bottom.
 */
function firstLineOf(node: JsonNode, locator: LineLocator): Omit<SourceProblem, 'message' | 'severity'> {
  const { offset: start, length } = extentOf(node);
  const range = locator.range(start, start + length);
  if (range.endLine === range.line) return range;
  return { ...range, endLine: range.line, endColumn: locator.lineEnd(range.line) - locator.lineStart(range.line) };
}

function syntaxProblem(error: JsonSyntaxProblem, locator: LineLocator, hint: string): SourceProblem {
  return { ...locator.range(error.offset, error.offset + error.length), message: `not valid JSON (${error.message}): ${hint}`, severity: 'error' };
}

/** Offsets to zero-based lines and columns, by binary search over the line starts. */
class LineLocator {
  private readonly starts: number[] = [0];

  constructor(private readonly text: string) {
    for (let index = text.indexOf('\n'); index >= 0; index = text.indexOf('\n', index + 1)) this.starts.push(index + 1);
  }

  position(offset: number): { line: number; column: number } {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.starts[middle]! <= offset) low = middle;
      else high = middle - 1;
    }
    return { line: low, column: offset - this.starts[low]! };
  }

  range(start: number, end: number): Omit<SourceProblem, 'message' | 'severity'> {
    const from = this.position(start);
    const to = this.position(Math.max(start, end));
    return { line: from.line, column: from.column, endLine: to.line, endColumn: to.column };
  }

  lineStart(line: number): number {
    return this.starts[line]!;
  }

  lineEnd(line: number): number {
    const next = this.starts[line + 1];
    if (next === undefined) return this.text.length;
    return this.text[next - 2] === '\r' ? next - 2 : next - 1;
  }
}
