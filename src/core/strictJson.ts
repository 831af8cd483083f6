import { findNodeAtLocation, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import type { JsonPath } from './trajectoryShape';

/** A JSON value's place in the whole text it was read from. */
export interface JsonNode {
  node: Node;
  /** Offset of the parsed slice in the whole text: jsonc-parser's offsets are relative to the slice. */
  base: number;
}

export interface JsonSyntaxProblem {
  offset: number;
  length: number;
  message: string;
}

export type StrictJsonResult = { ok: true; value: unknown; root: JsonNode } | { ok: false; error: JsonSyntaxProblem };

const strict = { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false };

/**
 * Parses `text` from `start` to `end` as strict JSON (what the platform accepts: no comments, no
 * trailing commas) and keeps where every value is. jsonc-parser gives the positions; JSON.parse
 * has the last word on strictness, so nothing passes here that the server would reject.
 */
export function parseStrictJson(text: string, start = 0, end = text.length): StrictJsonResult {
  const slice = text.slice(start, end);
  const errors: ParseError[] = [];
  const node = parseTree(slice, errors, strict);
  const first = errors[0];
  if (first || !node) {
    const offset = first?.offset ?? slice.length;
    return { ok: false, error: { offset: start + offset, length: Math.max(1, first?.length ?? 1), message: describe(first) } };
  }
  try {
    return { ok: true, value: JSON.parse(slice), root: { node, base: start } };
  } catch (error) {
    return { ok: false, error: { offset: start + node.offset, length: Math.max(1, node.length), message: (error as Error).message } };
  }
}

/** The node at `path` (object keys and array indexes), or undefined when it is not there. */
export function nodeAtPath(root: JsonNode, path: JsonPath): JsonNode | undefined {
  const node = path.length === 0 ? root.node : findNodeAtLocation(root.node, path);
  return node ? { node, base: root.base } : undefined;
}

/** Where a node's text starts and how long it is, in the whole text. */
export function extentOf(json: JsonNode): { offset: number; length: number } {
  return { offset: json.base + json.node.offset, length: json.node.length };
}

export function isArrayNode(json: JsonNode): boolean {
  return json.node.type === 'array';
}

export function arrayItems(json: JsonNode): JsonNode[] {
  return (json.node.children ?? []).map((node) => ({ node, base: json.base }));
}

/** "ValueExpected" → "value expected". */
function describe(error: ParseError | undefined): string {
  if (!error) return 'no JSON value';
  return printParseErrorCode(error.error).replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}
