/**
 * Splits a file that arrives as byte chunks into lines without ever holding the whole text: only
 * the line being assembled is kept. Each line carries its zero-based number and the byte offset
 * where it starts, so an editor can reveal it. A line longer than the cap is skipped (its bytes are
 * dropped as they arrive) and reported as too long; the reading goes on with the next line.
 */

/** 64 MiB: far above any trajectory group worth reading, well below what a JS string can hold. */
export const defaultMaxLineBytes = 64 * 2 ** 20;

export type SourceLine = { kind: 'line'; line: number; offset: number; text: string } | { kind: 'tooLong'; line: number; offset: number; bytes: number };

const newline = 0x0a;
const carriageReturn = 0x0d;

export async function* sourceLines(chunks: AsyncIterable<Uint8Array>, options: { maxLineBytes?: number } = {}): AsyncGenerator<SourceLine> {
  const maxLineBytes = options.maxLineBytes ?? defaultMaxLineBytes;
  const decoder = new TextDecoder('utf-8');
  // The unfinished line: pieces of earlier chunks (copied, since a reader may reuse its buffers).
  let pieces: Uint8Array[] = [];
  let pending = 0;
  let tooLong = false;
  let line = 0;
  let lineOffset = 0;
  let fileOffset = 0;

  const finish = (last: Uint8Array): SourceLine => {
    const bytes = pending + last.length;
    let record: SourceLine;
    if (tooLong || bytes > maxLineBytes) {
      record = { kind: 'tooLong', line, offset: lineOffset, bytes };
    } else {
      const whole = pieces.length === 0 ? last : joined(pieces, last, bytes);
      const end = whole.length > 0 && whole[whole.length - 1] === carriageReturn ? whole.length - 1 : whole.length;
      record = { kind: 'line', line, offset: lineOffset, text: decoder.decode(whole.subarray(0, end)) };
    }
    pieces = [];
    pending = 0;
    tooLong = false;
    return record;
  };

  for await (const chunk of chunks) {
    let start = 0;
    for (;;) {
      const end = chunk.indexOf(newline, start);
      if (end < 0) break;
      yield finish(chunk.subarray(start, end));
      line++;
      lineOffset = fileOffset + end + 1;
      start = end + 1;
    }
    if (start < chunk.length) {
      const rest = chunk.length - start;
      if (!tooLong && pending + rest <= maxLineBytes) pieces.push(chunk.slice(start));
      else {
        tooLong = true;
        pieces = [];
      }
      pending += rest;
    }
    fileOffset += chunk.length;
  }
  if (pending > 0 || tooLong) yield finish(new Uint8Array(0));
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
