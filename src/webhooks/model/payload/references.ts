/**
 * Finds `${…}` spans in the raw text of one JSON string. Offsets are into the whole document, so
 * diagnostics and hovers point at the exact characters the user typed (escapes included).
 */

export interface VariableReference {
  /** Offset of the `$`. */
  start: number;
  /** Offset after the closing `}`, or where an unterminated reference stops. */
  end: number;
  /** The raw text between `${` and `}` (or the stop, when unterminated). */
  name: string;
  nameStart: number;
  nameEnd: number;
  terminated: boolean;
  /** The reference sits in an object key rather than in a string value. */
  inKey: boolean;
}

/**
 * Scans `text[contentStart, contentEnd)` (a string's content, quotes excluded) for references.
 * `openings` holds every offset of `${` in the document, ascending; `cursor` is the index of the
 * first one not yet consumed, so one pass over the document visits each opening once. Stops once
 * `out` holds `limit` references. Returns the updated cursor.
 */
export function scanReferences(
  text: string,
  contentStart: number,
  contentEnd: number,
  inKey: boolean,
  openings: readonly number[],
  cursor: number,
  out: VariableReference[],
  limit = Infinity,
): number {
  let index = cursor;
  while (index < openings.length && openings[index] < contentStart) index++;
  let resumeAt = contentStart;
  while (index < openings.length && openings[index] < contentEnd && out.length < limit) {
    const start = openings[index++];
    if (start < resumeAt) continue;
    const nameStart = start + 2;
    let position = nameStart;
    // A name stops at `}`; a new `${` before any `}` means this one was never closed.
    while (position < contentEnd) {
      const code = text.charCodeAt(position);
      if (code === 0x7d /* } */) break;
      if (code === 0x24 /* $ */ && text.charCodeAt(position + 1) === 0x7b /* { */ && position + 1 < contentEnd) break;
      position++;
    }
    const terminated = position < contentEnd && text.charCodeAt(position) === 0x7d;
    const end = terminated ? position + 1 : position;
    out.push({ start, end, name: text.slice(nameStart, position), nameStart, nameEnd: position, terminated, inKey });
    resumeAt = end;
  }
  return index;
}

/** Every offset where `${` occurs in the text, ascending. */
export function findOpenings(text: string): number[] {
  const openings: number[] = [];
  for (let at = text.indexOf('${'); at >= 0; at = text.indexOf('${', at + 1)) openings.push(at);
  return openings;
}

/** Where a string token's content ends: before its closing quote, or at the token's end when unclosed. */
export function contentEndOf(text: string, tokenStart: number, tokenEnd: number): { contentEnd: number; closed: boolean } {
  const contentEnd = contentEndAt(text, tokenStart, tokenEnd);
  return { contentEnd, closed: contentEnd < tokenEnd };
}

/** `contentEndOf` without the object, for the loops that ask it of every string. */
export function contentEndAt(text: string, tokenStart: number, tokenEnd: number): number {
  if (tokenEnd - tokenStart >= 2 && text.charCodeAt(tokenEnd - 1) === 0x22 /* " */) {
    let backslashes = 0;
    for (let at = tokenEnd - 2; at > tokenStart && text.charCodeAt(at) === 0x5c /* \ */; at--) backslashes++;
    if (backslashes % 2 === 0) return tokenEnd - 1;
  }
  return tokenEnd;
}
