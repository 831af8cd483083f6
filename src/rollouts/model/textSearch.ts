/**
 * The groups list's text search: which groups' messages hold a text, case-insensitively, read from
 * the file again as a stream (the summaries keep no text).
 *
 * Most groups do not match, so each group's raw text is first tested by one regular expression that
 * finds the needle as it would be written inside a JSON string: with its escapes (`\"`, `\\`, `\n`…)
 * and, for characters beyond ASCII, either as they are or as `\uXXXX` (Python's json.dumps writes
 * those by default). Only a group that passes is parsed and its messages read, so a needle found
 * only in metadata, a key or a reward does not count.
 */
import { jsonArrayElements } from '../../platform/kit/jsonArrayElements';
import { isRecord } from '../../platform/kit/plainValues';
import { defaultMaxLineBytes, sourceLines } from '../../platform/kit/sourceLines';

export interface SearchOptions {
  /** Called after each chunk with the bytes read so far (the caller paces what it shows). */
  onProgress?: (bytesRead: number) => void;
  /** Stops the search between groups; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** The longest group read, in bytes, as when the file was read. */
  maxGroupBytes?: number;
}

/**
 * A mask by group position: 1 where the group's messages contain `needle`, case-insensitively.
 * `groups` are the file's groups in order (by offset), as its summaries give them; a group is found
 * in the file by its offset. An empty needle matches every group.
 */
export async function searchGroups(
  chunks: AsyncIterable<Uint8Array>,
  format: 'jsonl' | 'json',
  groups: readonly { offset: number }[],
  needle: string,
  options: SearchOptions = {},
): Promise<Uint8Array> {
  const mask = new Uint8Array(groups.length);
  if (needle === '') return mask.fill(1);
  const { signal, onProgress } = options;
  signal?.throwIfAborted();
  const maxBytes = options.maxGroupBytes ?? defaultMaxLineBytes;
  const raw = rawPattern(needle);
  const plain = plainPattern(needle);
  const counted = countBytes(chunks, onProgress);
  const pieces = format === 'jsonl' ? sourceLines(counted, { maxLineBytes: maxBytes }) : jsonArrayElements(counted, { maxElementBytes: maxBytes });
  let position = 0;
  for await (const piece of pieces) {
    signal?.throwIfAborted();
    if (piece.kind !== 'line') continue;
    while (position < groups.length && groups[position]!.offset < piece.offset) position++;
    // Past the last group: the rest of the file holds none (the progress stops short of its size).
    if (position >= groups.length) break;
    if (groups[position]!.offset !== piece.offset) continue;
    if (raw.test(piece.text) && groupMessagesContain(piece.text, plain)) mask[position] = 1;
    position++;
  }
  signal?.throwIfAborted();
  return mask;
}

async function* countBytes(chunks: AsyncIterable<Uint8Array>, onProgress: ((bytesRead: number) => void) | undefined): AsyncGenerator<Uint8Array> {
  let bytesRead = 0;
  for await (const chunk of chunks) {
    yield chunk;
    bytesRead += chunk.length;
    onProgress?.(bytesRead);
  }
}

/** The needle in the decoded text, case-insensitively. */
export function plainPattern(needle: string): RegExp {
  return new RegExp(escapeRegExp(needle), 'i');
}

/**
 * The needle in a JSON text, case-insensitively, as any JSON writer may have written it inside a
 * string. The `i` flag folds case the way `plainPattern` does, so whatever `plainPattern` finds in a
 * decoded string this finds in its JSON text (the hex digits of `\uXXXX` fold too).
 */
export function rawPattern(needle: string): RegExp {
  let source = '';
  for (const char of needle) {
    const code = char.codePointAt(0)!;
    if (char === '"') source += '\\\\"';
    else if (char === '\\') source += '\\\\\\\\';
    else if (char === '/') source += '\\\\?/';
    else if (code < 0x20) source += `(?:${shortEscape(code)}\\\\u${hex(code)})`;
    else if (char === '<' || char === '>' || char === '&' || char === "'")
      source += `(?:${char}|\\\\u${hex(code)})`; // HTML-safe writers escape these
    else if (code < 0x7f) source += escapeRegExp(char);
    else {
      // The character as it is, or as escapes of any of its cases (each a code unit or a surrogate pair).
      const forms = new Set([char, char.toLowerCase(), char.toUpperCase()].filter((form) => [...form].length === 1));
      const escapes = [...forms].map((form) => [...Array(form.length).keys()].map((at) => `\\\\u${hex(form.charCodeAt(at))}`).join(''));
      source += `(?:${escapeRegExp(char)}|${escapes.join('|')})`;
    }
  }
  return new RegExp(source, 'i');
}

function shortEscape(code: number): string {
  const letter = { 0x08: 'b', 0x09: 't', 0x0a: 'n', 0x0c: 'f', 0x0d: 'r' }[code];
  return letter ? `\\\\${letter}|` : '';
}

function hex(code: number): string {
  return code.toString(16).padStart(4, '0');
}

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}

/**
 * Whether the group's messages hold the text: the contents of its trajectories' messages and
 * choices (text parts of a list of parts too), their tool calls' names and arguments, and the same
 * in every additional history. Not metadata, metrics, logs or keys.
 */
export function groupMessagesContain(groupText: string, pattern: RegExp): boolean {
  let group: unknown;
  try {
    group = JSON.parse(groupText);
  } catch {
    return false;
  }
  return groupValueMessagesContain(group, pattern);
}

/** The same test on a group already parsed (a Parquet log's groups are read as values, not text). */
export function groupValueMessagesContain(group: unknown, pattern: RegExp): boolean {
  if (!isRecord(group) || !Array.isArray(group.trajectories)) return false;
  for (const trajectory of group.trajectories as unknown[]) {
    if (!isRecord(trajectory)) continue;
    if (conversationContains(trajectory.messages_and_choices, pattern)) return true;
    if (Array.isArray(trajectory.additional_histories)) {
      for (const history of trajectory.additional_histories as unknown[]) {
        if (isRecord(history) && conversationContains(history.messages_and_choices, pattern)) return true;
      }
    }
  }
  return false;
}

function conversationContains(items: unknown, pattern: RegExp): boolean {
  if (!Array.isArray(items)) return false;
  for (const item of items as unknown[]) {
    if (!isRecord(item)) continue;
    if (messageContains(item, pattern)) return true;
    if (isRecord(item.message) && messageContains(item.message, pattern)) return true;
  }
  return false;
}

function messageContains(message: Record<string, unknown>, pattern: RegExp): boolean {
  const content = message.content;
  if (typeof content === 'string' && pattern.test(content)) return true;
  if (Array.isArray(content)) {
    for (const part of content as unknown[]) {
      if (isRecord(part) && typeof part.text === 'string' && pattern.test(part.text)) return true;
    }
  }
  const calls = message.tool_calls;
  if (Array.isArray(calls)) {
    for (const call of calls as unknown[]) {
      const fn = isRecord(call) && isRecord(call.function) ? call.function : undefined;
      if (!fn) continue;
      if (typeof fn.name === 'string' && pattern.test(fn.name)) return true;
      if (typeof fn.arguments === 'string' && pattern.test(fn.arguments)) return true;
    }
  }
  return false;
}
