/**
 * Cuts the elements of a top-level JSON array out of a byte stream, one at a time, so a `.json`
 * file of trajectory groups is never held whole: only the element being assembled is kept. Each
 * element carries the zero-based line and the byte offset where it starts.
 *
 * The scanner follows strings (with escapes) and brackets only; whether an element is valid JSON is
 * left to JSON.parse. A closing bracket that does not match ends the element there, so one broken
 * group does not swallow the groups after it. What cannot be resynchronised (no array, text between elements, a
 * file that ends inside an element) ends the reading with a problem.
 *
 * Reading can start after an element already read (a `next` position of an earlier reading): the
 * scanner then expects "," or "]".
 */
import { joinedBytes, type LinePosition, type SourceLine } from './sourceLines';

export type ArrayPiece = SourceLine | { kind: 'problem'; line: number; offset: number; message: string };

const enum Phase {
  BeforeArray,
  BeforeElement,
  InElement,
  AfterElement,
  AfterArray,
  /** A problem ended the reading: the rest is ignored. */
  Stopped,
}

export class JsonArraySplitter {
  private readonly decoder = new TextDecoder('utf-8');
  private phase: Phase;
  private line: number;
  private fileOffset: number;
  // The element being assembled.
  private pieces: Uint8Array[] = [];
  private pending = 0;
  private tooLong = false;
  // The open brackets of the element, innermost last.
  private openers: number[] = [];
  private inString = false;
  private escaped = false;
  private startLine = 0;
  private startOffset = 0;
  private afterComma = false;

  constructor(
    private readonly maxElementBytes: number,
    start: LinePosition = { line: 0, offset: 0 },
  ) {
    this.line = start.line;
    this.fileOffset = start.offset;
    this.phase = start.offset > 0 ? Phase.AfterElement : Phase.BeforeArray;
  }

  /** The elements (and at most one problem, which ends the reading) this chunk completes. */
  push(chunk: Uint8Array): ArrayPiece[] {
    const found: ArrayPiece[] = [];
    if (this.phase === Phase.Stopped) return found;
    let elementStart = this.phase === Phase.InElement ? 0 : -1;
    for (let at = 0; at < chunk.length; at++) {
      const byte = chunk[at]!;
      if (this.phase === Phase.InElement) {
        let ends = false;
        let endsBefore = false;
        if (this.inString) {
          if (this.escaped) this.escaped = false;
          else if (byte === 0x5c) this.escaped = true;
          else if (byte === 0x22) this.inString = false;
        } else if (byte === 0x22) {
          this.inString = true;
        } else if (byte === 0x7b || byte === 0x5b) {
          this.openers.push(byte);
        } else if (byte === 0x7d || byte === 0x5d) {
          if (this.openers.length === 0) {
            endsBefore = true;
          } else {
            const opener = this.openers.pop()!;
            // `{` + 2 is `}` and `[` + 2 is `]`: a mismatch ends the element, and JSON.parse reports it.
            ends = opener + 2 !== byte || this.openers.length === 0;
          }
        } else if (this.openers.length === 0 && (byte === 0x2c || isSpace(byte))) {
          endsBefore = true;
        }
        if (byte === 0x0a && !endsBefore) this.line++;
        if (ends || endsBefore) {
          const end = endsBefore ? at : at + 1;
          found.push(this.element(chunk.subarray(elementStart, end), this.fileOffset + end));
          this.phase = Phase.AfterElement;
          if (endsBefore) at--; // the byte is read again as what follows the element
        }
        continue;
      }
      if (byte === 0x0a) this.line++;
      if (isSpace(byte) || (this.phase === Phase.BeforeArray && this.fileOffset + at < 3 && isByteOrderMark(byte))) continue;
      const problem = this.between(byte, this.fileOffset + at);
      if (problem) {
        found.push(problem);
        this.phase = Phase.Stopped;
        return found;
      }
      // `between` moved the phase on (flow analysis does not follow it there).
      if ((this.phase as Phase) === Phase.InElement) {
        elementStart = at;
        at--; // the element's first byte is scanned as part of it
      }
    }
    if (this.phase === Phase.InElement) {
      const rest = chunk.length - elementStart;
      if (!this.tooLong && this.pending + rest <= this.maxElementBytes) this.pieces.push(chunk.slice(elementStart));
      else {
        this.tooLong = true;
        this.pieces = [];
      }
      this.pending += rest;
    }
    this.fileOffset += chunk.length;
    return found;
  }

  /** What the end of the file leaves: a problem when the array is not closed or was never there. */
  end(): ArrayPiece | undefined {
    const phase = this.phase;
    this.phase = Phase.Stopped;
    if (phase === Phase.InElement || phase === Phase.BeforeElement || phase === Phase.AfterElement) {
      return {
        kind: 'problem',
        line: phase === Phase.InElement ? this.startLine : this.line,
        offset: phase === Phase.InElement ? this.startOffset : this.fileOffset,
        message: 'not valid JSON: the file ends before the array of trajectory groups is closed',
      };
    }
    if (phase === Phase.BeforeArray) return this.problem('an empty file: a .json rollout file holds an array of trajectory groups', this.fileOffset);
    return undefined;
  }

  /** A byte outside any element (not white space): moves the phase on, or says what is wrong. */
  private between(byte: number, offset: number): ArrayPiece | undefined {
    switch (this.phase) {
      case Phase.BeforeArray:
        if (byte !== 0x5b) return this.problem('a .json rollout file must be an array of trajectory groups (use .jsonl for one group per line)', offset);
        this.phase = Phase.BeforeElement;
        this.afterComma = false;
        return undefined;
      case Phase.BeforeElement:
        if (byte === 0x5d && !this.afterComma) {
          this.phase = Phase.AfterArray;
          return undefined;
        }
        if (byte === 0x2c || byte === 0x5d) return this.problem('not valid JSON: a value is missing in the array of trajectory groups', offset);
        this.phase = Phase.InElement;
        this.startLine = this.line;
        this.startOffset = offset;
        this.openers = [];
        this.inString = false;
        this.escaped = false;
        return undefined;
      case Phase.AfterElement:
        if (byte === 0x2c) {
          this.phase = Phase.BeforeElement;
          this.afterComma = true;
        } else if (byte === 0x5d) {
          this.phase = Phase.AfterArray;
        } else {
          return this.problem('not valid JSON: expected "," or "]" after a trajectory group', offset);
        }
        return undefined;
      default:
        return this.problem('not valid JSON: text after the end of the array', offset);
    }
  }

  private element(last: Uint8Array, end: number): ArrayPiece {
    const bytes = this.pending + last.length;
    const place = { line: this.startLine, offset: this.startOffset, bytes, end, endLine: this.line, terminated: true };
    let piece: ArrayPiece;
    if (this.tooLong || bytes > this.maxElementBytes) piece = { kind: 'tooLong', ...place };
    else piece = { kind: 'line', ...place, text: this.decoder.decode(this.pieces.length === 0 ? last : joinedBytes(this.pieces, last, bytes)) };
    this.pieces = [];
    this.pending = 0;
    this.tooLong = false;
    return piece;
  }

  private problem(message: string, offset: number): ArrayPiece {
    return { kind: 'problem', line: this.line, offset, message };
  }
}

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

function isByteOrderMark(byte: number): boolean {
  return byte === 0xef || byte === 0xbb || byte === 0xbf;
}

/** The elements of a stream of chunks, one by one (the splitter above, for a reader that awaits each piece). */
export async function* jsonArrayElements(chunks: AsyncIterable<Uint8Array>, options: { maxElementBytes: number; start?: LinePosition }): AsyncGenerator<ArrayPiece> {
  const splitter = new JsonArraySplitter(options.maxElementBytes, options.start);
  for await (const chunk of chunks) yield* splitter.push(chunk);
  const last = splitter.end();
  if (last) yield last;
}
