/**
 * Incremental server-sent-events parser. Bytes go in as they arrive from the socket, in pieces of
 * any size; the data of each complete event comes out.
 *
 * A streaming TextDecoder turns the bytes into text, so a multi-byte character split across two
 * reads is decoded whole; line endings (CRLF, LF or CR) are found in the text, and a CR that ends
 * one read is paired with an LF that starts the next. Fields other than `data` (event, id, retry)
 * are read and ignored: the chat-completion streams this client reads carry everything in `data`.
 *
 * Cost is linear in the bytes fed, whatever their shape: only the new text of each read is
 * searched for line endings, and the start of an unfinished line is kept as a list of pieces that
 * is joined once, when the line ends. (Joining it into one string on every read would make a single
 * long line quadratic: a 48 MB line in 64 KiB reads would copy gigabytes.)
 *
 * Memory is bounded too: an event may hold at most `maxEventSize` characters, counting the line
 * still arriving, so a line that never ends or a million data lines without a blank line end the
 * stream with an SseEventTooLargeError instead of filling the heap.
 */
import { describeSize } from './bodyLimits';
import { defaultMaxStreamEventSize } from './options';

export interface SseParserOptions {
  /**
   * The most text one event may hold: its data lines (each also counting `lineCost` for its
   * bookkeeping) plus the line still arriving. Characters, i.e. bytes for ASCII. Default 16 Mi.
   */
  maxEventSize?: number;
}

/**
 * What each data line costs on top of its text. Without it, an event of millions of empty
 * `data:` lines would cost almost nothing by length while its bookkeeping filled the heap.
 */
export const lineCost = 32;

/** After this many unjoined pieces of one line, they are joined into a block (see `keepPartial`). */
const piecesPerBlock = 512;

export class SseEventTooLargeError extends Error {
  constructor(readonly maxEventSize: number) {
    super(`an event of the stream was larger than ${describeSize(maxEventSize)}`);
    this.name = 'SseEventTooLargeError';
  }
}

export class SseParser {
  private readonly decoder = new TextDecoder('utf-8');
  private readonly maxEventSize: number;
  /**
   * The start of a line whose end has not arrived yet: `pieces` as they came, `blocks` holding
   * earlier pieces joined in groups, so a line arriving one byte per read is not a list of millions
   * of tiny strings. Each character is copied at most twice before the line is complete.
   */
  private lineBlocks: string[] = [];
  private linePieces: string[] = [];
  private lineLength = 0;
  /** The previous read ended with CR: an LF at the start of the next one belongs to it. */
  private afterCarriageReturn = false;
  private dataLines: string[] = [];
  /** The cost of `dataLines` against maxEventSize. */
  private eventSize = 0;
  private failed: SseEventTooLargeError | undefined;

  constructor(options: SseParserOptions = {}) {
    const max = options.maxEventSize;
    this.maxEventSize = max !== undefined && max > 0 ? max : defaultMaxStreamEventSize;
  }

  /**
   * Set once an event grew past the maximum. The parser keeps nothing more from then on, and any
   * later feed() or end() throws it; events completed before the overflow were already returned.
   */
  get failure(): SseEventTooLargeError | undefined {
    return this.failed;
  }

  /** Feeds one read; returns the data of every event it completed, in order. */
  feed(bytes: Uint8Array): string[] {
    if (this.failed) throw this.failed;
    const events: string[] = [];
    const text = this.decoder.decode(bytes, { stream: true });
    if (text.length > 0) this.scan(text, events);
    return events;
  }

  /**
   * The stream has ended. A last line without its line ending, and an event whose closing blank
   * line never came, are still delivered: every byte received counts.
   */
  end(): string[] {
    if (this.failed) throw this.failed;
    const events: string[] = [];
    const rest = this.decoder.decode();
    if (rest.length > 0) this.scan(rest, events);
    if (this.lineLength > 0 && !this.failed) {
      const line = this.takePartial('');
      this.takeLine(line, 0, line.length, events);
    }
    if (this.failure) throw this.failure;
    this.dispatch(events);
    this.afterCarriageReturn = false;
    return events;
  }

  private scan(text: string, events: string[]): void {
    let start = 0;
    if (this.afterCarriageReturn) {
      this.afterCarriageReturn = false;
      if (text.charCodeAt(0) === 10) start = 1;
    }
    const length = text.length;
    // Positions of the next LF and CR at or after `start`; -1 when there is none left. Each is
    // searched again only once passed, so a stream without CR costs one failed search per read.
    let nextLf = text.indexOf('\n', start);
    let nextCr = text.indexOf('\r', start);
    while (start < length) {
      if (nextLf !== -1 && nextLf < start) nextLf = text.indexOf('\n', start);
      if (nextCr !== -1 && nextCr < start) nextCr = text.indexOf('\r', start);
      let end: number;
      let next: number;
      if (nextCr === -1 || (nextLf !== -1 && nextLf < nextCr)) {
        if (nextLf === -1) break;
        end = nextLf;
        next = end + 1;
      } else {
        end = nextCr;
        if (end + 1 < length) {
          next = text.charCodeAt(end + 1) === 10 ? end + 2 : end + 1;
        } else {
          next = end + 1;
          this.afterCarriageReturn = true;
        }
      }
      if (this.lineLength > 0) {
        const line = this.takePartial(text.slice(start, end));
        this.takeLine(line, 0, line.length, events);
      } else {
        this.takeLine(text, start, end, events);
      }
      if (this.failed) return;
      start = next;
    }
    if (start < length) this.keepPartial(start === 0 ? text : text.slice(start));
    if (this.eventSize + this.lineLength > this.maxEventSize) this.fail();
  }

  private keepPartial(piece: string): void {
    this.linePieces.push(piece);
    this.lineLength += piece.length;
    if (this.linePieces.length >= piecesPerBlock) {
      this.lineBlocks.push(this.linePieces.join(''));
      this.linePieces = [];
    }
  }

  /** The kept start of the line followed by `tail`, as one string; the kept start is cleared. */
  private takePartial(tail: string): string {
    const line = this.lineBlocks.join('') + this.linePieces.join('') + tail;
    this.lineBlocks = [];
    this.linePieces = [];
    this.lineLength = 0;
    return line;
  }

  private takeLine(text: string, start: number, end: number, events: string[]): void {
    if (start === end) {
      this.dispatch(events);
      return;
    }
    const first = text.charCodeAt(start);
    if (first === 58 /* ':' comment */) return;
    let value: string;
    if (first === 100 /* 'd' */ && text.startsWith('data:', start)) {
      const valueStart = text.charCodeAt(start + 5) === 32 ? start + 6 : start + 5;
      value = text.slice(Math.min(valueStart, end), end);
    } else {
      const colon = text.indexOf(':', start);
      const nameEnd = colon === -1 || colon > end ? end : colon;
      if (nameEnd - start !== 4 || !text.startsWith('data', start)) return;
      if (nameEnd === end) {
        value = '';
      } else {
        const valueStart = text.charCodeAt(nameEnd + 1) === 32 ? nameEnd + 2 : nameEnd + 1;
        value = text.slice(Math.min(valueStart, end), end);
      }
    }
    this.dataLines.push(value);
    this.eventSize += value.length + lineCost;
    if (this.eventSize > this.maxEventSize) this.fail();
  }

  private dispatch(events: string[]): void {
    const lines = this.dataLines;
    if (lines.length === 0) return;
    events.push(lines.length === 1 ? lines[0]! : lines.join('\n'));
    this.dataLines = [];
    this.eventSize = 0;
  }

  private fail(): void {
    this.failed = new SseEventTooLargeError(this.maxEventSize);
    // Nothing of the oversized event is kept.
    this.dataLines = [];
    this.eventSize = 0;
    this.lineBlocks = [];
    this.linePieces = [];
    this.lineLength = 0;
  }
}
