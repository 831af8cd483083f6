/**
 * Splits a file that arrives as byte chunks into lines without ever holding the whole text: only
 * the line being assembled is kept. Each line carries its zero-based number, the byte offset where
 * it starts and its length in bytes (without the line ending), so an editor can reveal it or read
 * it again. A line longer than the cap is skipped (its bytes are dropped as they arrive) and
 * reported as too long; the reading goes on with the next line.
 *
 * `terminated` says whether a newline ended the line: only the file's last line can lack one, and
 * in a file that is still being written that line may be incomplete.
 */

/** 64 MiB: far above any trajectory group worth reading, well below what a JS string can hold. */
export const defaultMaxLineBytes = 64 * 2 ** 20;

/** `end` and `endLine`: the byte offset and line just past the line and its newline, where reading goes on. */
export type SourceLine =
  | { kind: 'line'; line: number; offset: number; bytes: number; end: number; endLine: number; terminated: boolean; text: string }
  | { kind: 'tooLong'; line: number; offset: number; bytes: number; end: number; endLine: number; terminated: boolean };

/** A place in a file: a zero-based line and the byte offset where reading starts on it. */
export interface LinePosition {
  line: number;
  offset: number;
}

const newline = 0x0a;
const carriageReturn = 0x0d;

/**
 * The splitting itself, one chunk at a time and without awaiting, so a reader can take the lines of
 * a chunk in one go instead of one promise per line.
 */
export class LineSplitter {
  private readonly decoder = new TextDecoder('utf-8');
  // The unfinished line: pieces of earlier chunks (copied, since a reader may reuse its buffers).
  private pieces: Uint8Array[] = [];
  private pending = 0;
  private tooLong = false;
  private line: number;
  private lineOffset: number;
  private fileOffset: number;

  /** `start`: where the first chunk begins in the file (the start of a line, or a point inside the last one read). */
  constructor(
    private readonly maxLineBytes = defaultMaxLineBytes,
    start: LinePosition = { line: 0, offset: 0 },
  ) {
    this.line = start.line;
    this.lineOffset = start.offset;
    this.fileOffset = start.offset;
  }

  /** The lines this chunk completes. */
  push(chunk: Uint8Array): SourceLine[] {
    const lines: SourceLine[] = [];
    let start = 0;
    for (;;) {
      const end = chunk.indexOf(newline, start);
      if (end < 0) break;
      lines.push(this.finish(chunk.subarray(start, end), true));
      this.line++;
      this.lineOffset = this.fileOffset + end + 1;
      start = end + 1;
    }
    if (start < chunk.length) {
      const rest = chunk.length - start;
      if (!this.tooLong && this.pending + rest <= this.maxLineBytes) this.pieces.push(chunk.slice(start));
      else {
        this.tooLong = true;
        this.pieces = [];
      }
      this.pending += rest;
    }
    this.fileOffset += chunk.length;
    return lines;
  }

  /** The last line, when the file does not end with a newline. */
  end(): SourceLine | undefined {
    if (this.pending === 0 && !this.tooLong) return undefined;
    return this.finish(new Uint8Array(0), false);
  }

  private finish(last: Uint8Array, terminated: boolean): SourceLine {
    const whole = this.pending + last.length;
    const { line, lineOffset: offset } = this;
    const end = offset + whole + (terminated ? 1 : 0);
    const endLine = terminated ? line + 1 : line;
    let record: SourceLine;
    if (this.tooLong || whole > this.maxLineBytes) {
      record = { kind: 'tooLong', line, offset, bytes: whole, end, endLine, terminated };
    } else {
      const joined = this.pieces.length === 0 ? last : joinedBytes(this.pieces, last, whole);
      const bytes = joined.length > 0 && joined[joined.length - 1] === carriageReturn ? joined.length - 1 : joined.length;
      record = { kind: 'line', line, offset, bytes, end, endLine, terminated, text: this.decoder.decode(joined.subarray(0, bytes)) };
    }
    this.pieces = [];
    this.pending = 0;
    this.tooLong = false;
    return record;
  }
}

export async function* sourceLines(chunks: AsyncIterable<Uint8Array>, options: { maxLineBytes?: number; start?: LinePosition } = {}): AsyncGenerator<SourceLine> {
  const splitter = new LineSplitter(options.maxLineBytes, options.start);
  for await (const chunk of chunks) yield* splitter.push(chunk);
  const last = splitter.end();
  if (last) yield last;
}

export function joinedBytes(pieces: Uint8Array[], last: Uint8Array, length: number): Uint8Array {
  const whole = new Uint8Array(length);
  let at = 0;
  for (const piece of pieces) {
    whole.set(piece, at);
    at += piece.length;
  }
  whole.set(last, at);
  return whole;
}
