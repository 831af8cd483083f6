import { findNodeAtLocation, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';

/**
 * The extension's one JSON parser, for the payload language's own analysis too: every module takes
 * it from here, so it ships once (with the platform, dist/platformLate.js), not in each bundle.
 */
export { createScanner, findNodeAtLocation, parseTree, printParseErrorCode, visit, type Node, type ParseErrorCode } from 'jsonc-parser';
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
  /** Set when the text was not parsed because it nests deeper than `maxJsonDepth`. */
  tooDeep?: true;
}

export type StrictJsonResult =
  | {
      ok: true;
      value: unknown;
      /**
       * Where every value is. Built on the first call: a tree of the whole value costs several times
       * the text, and a valid value usually needs no positions at all.
       */
      locate: () => JsonNode;
    }
  | { ok: false; error: JsonSyntaxProblem };

/**
 * How deep JSON may nest before it is neither parsed into a tree nor walked. jsonc-parser's parser
 * recurses once per level and so does JSON.stringify (both overflow the stack a few thousand levels
 * down, sooner on a busy extension host); no trajectory group or payload needs more than a few dozen.
 */
export const maxJsonDepth = 512;

export const tooDeepMessage = `nested deeper than ${maxJsonDepth} levels; not checked further`;

const strict = { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false };

/**
 * Parses `text` from `start` to `end` as strict JSON (what the platform accepts: no comments, no
 * trailing commas). JSON.parse has the last word on strictness, so nothing passes here that the
 * server would reject; jsonc-parser gives positions, of the error or, on request, of every value.
 * Text nested deeper than `maxJsonDepth` is refused before either parser sees it.
 */
export function parseStrictJson(text: string, start = 0, end = text.length): StrictJsonResult {
  const slice = start === 0 && end === text.length ? text : text.slice(start, end);
  const deep = firstTooDeep(slice);
  if (deep >= 0) return { ok: false, error: { offset: start + deep, length: 1, message: tooDeepMessage, tooDeep: true } };
  let value: unknown;
  try {
    value = JSON.parse(slice);
  } catch (error) {
    return { ok: false, error: locateSyntaxError(slice, start, error as Error) };
  }
  let root: JsonNode | undefined;
  return { ok: true, value, locate: () => (root ??= { node: parseTree(slice, [], strict)!, base: start }) };
}

/** Where JSON.parse's complaint is, in jsonc-parser's words when it has them. */
function locateSyntaxError(slice: string, start: number, error: Error): JsonSyntaxProblem {
  const errors: ParseError[] = [];
  const node = parseTree(slice, errors, strict);
  const first = errors[0];
  if (first || !node) {
    const offset = first?.offset ?? slice.length;
    return { offset: start + offset, length: Math.max(1, first?.length ?? 1), message: describe(first) };
  }
  return { offset: start + node.offset, length: Math.max(1, node.length), message: error.message };
}

/**
 * The offset of the first `[` or `{` that opens a level deeper than `limit`, or -1: one pass, no
 * recursion, no allocation beyond `limit` bytes. The text is read the way jsonc-parser's scanner
 * reads it (a string ends at an unescaped quote or at a line break; comments are skipped), and a
 * closing bracket only closes the level it matches. In broken JSON the count therefore never falls
 * below the depth jsonc-parser's recursive parser reaches, since its parser returns from a level
 * only on that level's own closing bracket (or at the end): text that passes is safe to give it.
 */
export function firstTooDeep(text: string, limit = maxJsonDepth): number {
  const end = text.length;
  const open = new Uint8Array(limit);
  let depth = 0;
  // Next quote and line breaks at or after the scan position, found once each (the scan only moves
  // forward), so a text of many strings is not searched again from every string.
  let nextQuote = -1;
  let nextLineFeed = -1;
  let nextReturn = -1;
  const nextOf = (cached: number, character: string, from: number): number => {
    if (cached >= from) return cached;
    const found = text.indexOf(character, from);
    return found < 0 ? end : found;
  };
  let at = 0;
  while (at < end) {
    const code = text.charCodeAt(at);
    if (code === 0x7b /* { */ || code === 0x5b /* [ */) {
      if (depth === limit) return at;
      open[depth++] = code;
      at++;
    } else if (code === 0x7d /* } */ || code === 0x5d /* ] */) {
      // `}` is `{` + 2 and `]` is `[` + 2.
      if (depth > 0 && open[depth - 1] === code - 2) depth--;
      at++;
    } else if (code === 0x22 /* " */) {
      // The string's end: the first quote or line break not escaped by an odd run of backslashes.
      // Each run lies between two candidates, so counting them stays linear overall.
      const contentStart = at + 1;
      let from = contentStart;
      for (;;) {
        nextQuote = nextOf(nextQuote, '"', from);
        nextLineFeed = nextOf(nextLineFeed, '\n', from);
        nextReturn = nextOf(nextReturn, '\r', from);
        const stop = Math.min(nextQuote, nextLineFeed, nextReturn);
        if (stop >= end) {
          at = end;
          break;
        }
        let backslashes = 0;
        for (let back = stop - 1; back >= contentStart && text.charCodeAt(back) === 0x5c; back--) backslashes++;
        if (backslashes % 2 === 0) {
          // The closing quote belongs to the string; a line break does not.
          at = stop === nextQuote ? stop + 1 : stop;
          break;
        }
        from = stop + 1;
      }
    } else if (code === 0x2f /* / */ && text.charCodeAt(at + 1) === 0x2f) {
      nextLineFeed = nextOf(nextLineFeed, '\n', at + 2);
      nextReturn = nextOf(nextReturn, '\r', at + 2);
      at = Math.min(nextLineFeed, nextReturn);
    } else if (code === 0x2f /* / */ && text.charCodeAt(at + 1) === 0x2a /* * */) {
      const close = text.indexOf('*/', at + 2);
      at = close < 0 ? end : close + 2;
    } else {
      at++;
    }
  }
  return -1;
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
  return printParseErrorCode(error.error)
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
}
