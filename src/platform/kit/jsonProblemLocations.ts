/**
 * Where in a JSON file (a rules file, a task file) each problem is: the value its path (`rules[2].when.forSteps`) names, or
 * the nearest value that exists when a key is missing, so the editor underlines what to fix.
 */
import { extentOf, nodeAtPath, parseStrictJson, type JsonNode } from './strictJson';
import type { JsonPath } from './trajectoryShape';

/** `rules[2].do[0].payload` → ['rules', 2, 'do', 0, 'payload']; '' → []. */
export function parseProblemPath(path: string): JsonPath {
  const parts: JsonPath = [];
  for (const match of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) parts.push(match[2] !== undefined ? Number(match[2]) : match[1]!);
  return parts;
}

export interface TextSpan {
  offset: number;
  length: number;
}

/** Zero-based, as the editor counts. */
export interface TextRange {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

/** Where each span lies in lines and columns (`\r\n`, `\n` and `\r` end lines). */
export function rangesOf(text: string, spans: readonly TextSpan[]): TextRange[] {
  const lineStarts = [0];
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === 0x0a || (code === 0x0d && text.charCodeAt(at + 1) !== 0x0a)) lineStarts.push(at + 1);
  }
  const place = (offset: number): [number, number] => {
    const clamped = Math.max(0, Math.min(offset, text.length));
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (lineStarts[middle]! <= clamped) low = middle;
      else high = middle - 1;
    }
    return [low, clamped - lineStarts[low]!];
  };
  return spans.map((span) => {
    const [line, column] = place(span.offset);
    const [endLine, endColumn] = place(span.offset + span.length);
    return { line, column, endLine, endColumn };
  });
}

/**
 * The span of each path in `text`; a file that is not JSON puts every problem at its syntax error,
 * and a path that names nothing (or an empty file) at the file's start.
 */
export function locateProblems(text: string, paths: readonly string[]): TextSpan[] {
  const parsed = parseStrictJson(text);
  if (!parsed.ok) return paths.map(() => ({ offset: parsed.error.offset, length: Math.max(1, parsed.error.length) }));
  let root: JsonNode | undefined;
  return paths.map((path) => {
    root ??= parsed.locate();
    return extentOf(nearestNode(root, parseProblemPath(path)));
  });
}

function nearestNode(root: JsonNode, path: JsonPath): JsonNode {
  for (let length = path.length; length > 0; length--) {
    const found = nodeAtPath(root, path.slice(0, length));
    if (found) return found;
  }
  return root;
}
