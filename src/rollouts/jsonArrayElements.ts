/**
 * Cuts the elements of a top-level JSON array out of a byte stream, one at a time, so a `.json`
 * file of trajectory groups is never held whole: only the element being assembled is kept. Each
 * element carries the zero-based line and the byte offset where it starts.
 *
 * The scanner follows strings (with escapes) and brackets only; whether an element is valid JSON is
 * left to JSON.parse. A closing bracket that does not match ends the element there, so one broken
 * group does not swallow the groups after it. What cannot be resynchronised (no array, text between elements, a
 * file that ends inside an element) ends the reading with a problem.
 */
import type { SourceLine } from './sourceLines';

export type ArrayPiece = SourceLine | { kind: 'problem'; line: number; offset: number; message: string };

const enum Phase {
  BeforeArray,
  BeforeElement,
  InElement,
  AfterElement,
  AfterArray,
}

export async function* jsonArrayElements(chunks: AsyncIterable<Uint8Array>, options: { maxElementBytes: number }): AsyncGenerator<ArrayPiece> {
  const decoder = new TextDecoder('utf-8');
  let phase = Phase.BeforeArray;
  let line = 0;
  let fileOffset = 0;
  // The element being assembled.
  let pieces: Uint8Array[] = [];
  let pending = 0;
  let tooLong = false;
  // The open brackets of the element, innermost last.
  let openers: number[] = [];
  let inString = false;
  let escaped = false;
  let startLine = 0;
  let startOffset = 0;
  let afterComma = false;

  const problem = (message: string, at: number): ArrayPiece => ({ kind: 'problem', line, offset: at, message });

  for await (const chunk of chunks) {
    let elementStart = phase === Phase.InElement ? 0 : -1;
    for (let at = 0; at < chunk.length; at++) {
      const byte = chunk[at]!;
      if (phase === Phase.InElement) {
        let ends = false;
        let endsBefore = false;
        if (inString) {
          if (escaped) escaped = false;
          else if (byte === 0x5c) escaped = true;
          else if (byte === 0x22) inString = false;
        } else if (byte === 0x22) {
          inString = true;
        } else if (byte === 0x7b || byte === 0x5b) {
          openers.push(byte);
        } else if (byte === 0x7d || byte === 0x5d) {
          if (openers.length === 0) {
            endsBefore = true;
          } else {
            const opener = openers.pop()!;
            // `{` + 2 is `}` and `[` + 2 is `]`: a mismatch ends the element, and JSON.parse reports it.
            ends = opener + 2 !== byte || openers.length === 0;
          }
        } else if (openers.length === 0 && (byte === 0x2c || isSpace(byte))) {
          endsBefore = true;
        }
        if (byte === 0x0a) line++;
        if (ends || endsBefore) {
          const end = endsBefore ? at : at + 1;
          const last = chunk.subarray(elementStart, end);
          const bytes = pending + last.length;
          if (tooLong || bytes > options.maxElementBytes) {
            yield { kind: 'tooLong', line: startLine, offset: startOffset, bytes };
          } else {
            const whole = pieces.length === 0 ? last : joined(pieces, last, bytes);
            yield { kind: 'line', line: startLine, offset: startOffset, text: decoder.decode(whole) };
          }
          pieces = [];
          pending = 0;
          tooLong = false;
          phase = Phase.AfterElement;
          if (endsBefore) {
            if (byte === 0x0a) line--;
            at--; // the byte is read again as what follows the element
          }
        }
        continue;
      }
      if (byte === 0x0a) line++;
      if (isSpace(byte) || (phase === Phase.BeforeArray && fileOffset + at < 3 && isByteOrderMark(byte))) continue;
      if (phase === Phase.BeforeArray) {
        if (byte !== 0x5b) {
          yield problem('a .json rollout file must be an array of trajectory groups (use .jsonl for one group per line)', fileOffset + at);
          return;
        }
        phase = Phase.BeforeElement;
        afterComma = false;
      } else if (phase === Phase.BeforeElement) {
        if (byte === 0x5d && !afterComma) {
          phase = Phase.AfterArray;
          continue;
        }
        if (byte === 0x2c || byte === 0x5d) {
          yield problem('not valid JSON: a value is missing in the array of trajectory groups', fileOffset + at);
          return;
        }
        phase = Phase.InElement;
        startLine = line;
        startOffset = fileOffset + at;
        elementStart = at;
        openers = [];
        inString = false;
        escaped = false;
        at--; // the element's first byte is scanned as part of it
      } else if (phase === Phase.AfterElement) {
        if (byte === 0x2c) {
          phase = Phase.BeforeElement;
          afterComma = true;
        } else if (byte === 0x5d) {
          phase = Phase.AfterArray;
        } else {
          yield problem('not valid JSON: expected "," or "]" after a trajectory group', fileOffset + at);
          return;
        }
      } else {
        yield problem('not valid JSON: text after the end of the array', fileOffset + at);
        return;
      }
    }
    if (phase === Phase.InElement) {
      const rest = chunk.length - elementStart;
      if (!tooLong && pending + rest <= options.maxElementBytes) pieces.push(chunk.slice(elementStart));
      else {
        tooLong = true;
        pieces = [];
      }
      pending += rest;
    }
    fileOffset += chunk.length;
  }
  // Flow analysis does not follow the assignments inside the loop above.
  const ended = phase as Phase;
  if (ended === Phase.InElement || ended === Phase.BeforeElement || ended === Phase.AfterElement) {
    yield {
      kind: 'problem',
      line: ended === Phase.InElement ? startLine : line,
      offset: ended === Phase.InElement ? startOffset : fileOffset,
      message: 'not valid JSON: the file ends before the array of trajectory groups is closed',
    };
  } else if (ended === Phase.BeforeArray) {
    yield problem('an empty file: a .json rollout file holds an array of trajectory groups', fileOffset);
  }
}

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

function isByteOrderMark(byte: number): boolean {
  return byte === 0xef || byte === 0xbb || byte === 0xbf;
}

function joined(pieces: Uint8Array[], last: Uint8Array, length: number): Uint8Array {
  const whole = new Uint8Array(length);
  let at = 0;
  for (const piece of pieces) {
    whole.set(piece, at);
    at += piece.length;
  }
  whole.set(last, at);
  return whole;
}
