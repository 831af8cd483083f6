import { maxJsonDepth } from '../../../platform/kit/strictJson';
import { ScanState as State } from './scanState';

/** String tokens as `scanValidJson` reports them: opening quote, offset after the closing one, 1 for a key. */
export interface PlainStrings {
  starts: number[];
  ends: number[];
  keys: number[];
}

/**
 * The usual payload, valid JSON written plainly, read in one pass over its characters: no token
 * objects, no string values built (jsonc-parser's scanner builds one per string and per run of
 * whitespace), and the nesting depth counted on the way. On a 1 MB payload this is several times
 * faster than `scanValidJson` after `firstTooDeep`.
 *
 * It answers true only when jsonc-parser's scanner would read the same tokens without an error,
 * `scanValidJson` would accept them and `firstTooDeep` would find nothing too deep; `strings` then
 * holds exactly the strings `scanValidJson` reports, in the same order. Anything it does not read
 * the common way (a comment, an error, a literal or number followed by something unusual, nesting
 * at the limit) makes it answer false, which says nothing: the caller then discards `strings` and
 * takes the general path.
 */
export function scanPlainJson(text: string, strings: PlainStrings): boolean {
  const { starts, ends, keys } = strings;
  const end = text.length;
  // Containers open around the current position: 1 for an object, 0 for an array.
  const objects = new Uint8Array(maxJsonDepth);
  let depth = 0;
  let state: State = State.Value;
  let at = 0;
  while (at < end) {
    let code = text.charCodeAt(at);
    switch (code) {
      case 0x20:
      case 0x09:
      case 0x0a:
      case 0x0d:
        // Indentation comes in runs.
        do code = text.charCodeAt(++at);
        while (code === 0x20);
        continue;
      case 0x7b /* { */:
      case 0x5b /* [ */:
        if (state !== State.Value && state !== State.ValueOrClose) return false;
        // `firstTooDeep` stops at an opening beyond the limit: the general path reports it.
        if (depth === maxJsonDepth) return false;
        objects[depth++] = code === 0x7b ? 1 : 0;
        state = code === 0x7b ? State.KeyOrClose : State.ValueOrClose;
        at++;
        continue;
      case 0x7d /* } */:
        if ((state !== State.AfterValue && state !== State.KeyOrClose) || depth === 0 || objects[depth - 1] !== 1) return false;
        depth--;
        state = State.AfterValue;
        at++;
        continue;
      case 0x5d /* ] */:
        if ((state !== State.AfterValue && state !== State.ValueOrClose) || depth === 0 || objects[depth - 1] !== 0) return false;
        depth--;
        state = State.AfterValue;
        at++;
        continue;
      case 0x2c /* , */:
        if (state !== State.AfterValue || depth === 0) return false;
        state = objects[depth - 1] === 1 ? State.Key : State.Value;
        at++;
        continue;
      case 0x3a /* : */:
        if (state !== State.Colon) return false;
        state = State.Value;
        at++;
        continue;
      case 0x22 /* " */: {
        const isKey: boolean = state === State.Key || state === State.KeyOrClose;
        if (!isKey && state !== State.Value && state !== State.ValueOrClose) return false;
        const stringEnd = plainStringEnd(text, at + 1);
        if (stringEnd < 0) return false;
        starts.push(at);
        ends.push(stringEnd);
        keys.push(isKey ? 1 : 0);
        state = isKey ? State.Colon : State.AfterValue;
        at = stringEnd;
        continue;
      }
      case 0x74 /* t */:
      case 0x66 /* f */:
      case 0x6e /* n */: {
        if (state !== State.Value && state !== State.ValueOrClose) return false;
        const word = code === 0x74 ? 'true' : code === 0x66 ? 'false' : 'null';
        if (!text.startsWith(word, at) || !endsPlainly(text, at + word.length)) return false;
        state = State.AfterValue;
        at += word.length;
        continue;
      }
      default: {
        if (state !== State.Value && state !== State.ValueOrClose) return false;
        const numberEnd = plainNumberEnd(text, at);
        if (numberEnd < 0 || !endsPlainly(text, numberEnd)) return false;
        state = State.AfterValue;
        at = numberEnd;
        continue;
      }
    }
  }
  return state === State.AfterValue && depth === 0;
}

/**
 * Offset after the closing quote of the string whose content starts at `at`, or -1 when jsonc-parser
 * would report an error in it (an unknown escape, a control character, a line break, no closing quote).
 */
export function plainStringEnd(text: string, at: number): number {
  const end = text.length;
  while (at < end) {
    const code = text.charCodeAt(at);
    if (code === 0x22 /* " */) return at + 1;
    if (code < 0x20) return -1;
    if (code !== 0x5c /* \ */) {
      at++;
      continue;
    }
    const escaped = text.charCodeAt(at + 1);
    if (escaped === 0x75 /* u */) {
      for (let digit = at + 2; digit < at + 6; digit++) if (!isHexDigit(text.charCodeAt(digit))) return -1;
      at += 6;
    } else if (
      escaped === 0x22 ||
      escaped === 0x5c ||
      escaped === 0x2f /* / */ ||
      escaped === 0x62 /* b */ ||
      escaped === 0x66 /* f */ ||
      escaped === 0x6e /* n */ ||
      escaped === 0x72 /* r */ ||
      escaped === 0x74 /* t */
    ) {
      at += 2;
    } else {
      return -1;
    }
  }
  return -1;
}

/** Offset after the number starting at `at` as jsonc-parser reads it, or -1 when it is not one or has an error. */
function plainNumberEnd(text: string, at: number): number {
  if (text.charCodeAt(at) === 0x2d /* - */) at++;
  const first = text.charCodeAt(at);
  if (!isDigit(first)) return -1;
  at++;
  // A leading zero stands alone: the digits after it would be a second number.
  if (first !== 0x30) while (isDigit(text.charCodeAt(at))) at++;
  if (text.charCodeAt(at) === 0x2e /* . */) {
    at++;
    if (!isDigit(text.charCodeAt(at))) return -1;
    while (isDigit(text.charCodeAt(at))) at++;
  }
  const exponent = text.charCodeAt(at);
  if (exponent === 0x65 /* e */ || exponent === 0x45 /* E */) {
    at++;
    const sign = text.charCodeAt(at);
    if (sign === 0x2b /* + */ || sign === 0x2d /* - */) at++;
    if (!isDigit(text.charCodeAt(at))) return -1;
    while (isDigit(text.charCodeAt(at))) at++;
  }
  return at;
}

/**
 * A literal or number ends the common way: at the end, at whitespace, or at a comma or closing
 * bracket. Anything else would make jsonc-parser read a different token here (`truex`, `1x`, `01`).
 */
function endsPlainly(text: string, at: number): boolean {
  if (at >= text.length) return true;
  const code = text.charCodeAt(at);
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d || code === 0x2c || code === 0x5d || code === 0x7d;
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

function isHexDigit(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66);
}
