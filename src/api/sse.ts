/**
 * Incremental server-sent-events parser. Bytes go in as they arrive from the socket, in pieces of
 * any size; the data of each complete event comes out.
 *
 * A streaming TextDecoder turns the bytes into text, so a multi-byte character split across two
 * reads is decoded whole; line endings (CRLF, LF or CR) are found in the text, and a CR that ends
 * one read is paired with an LF that starts the next. Fields other than `data` (event, id, retry)
 * are read and ignored: the chat-completion streams this client reads carry everything in `data`.
 */
export class SseParser {
  private readonly decoder = new TextDecoder('utf-8');
  /** The start of a line whose end has not arrived yet. */
  private partialLine = '';
  /** The previous read ended with CR: an LF at the start of the next one belongs to it. */
  private afterCarriageReturn = false;
  private eventData = '';
  private eventHasData = false;

  /** Feeds one read; returns the data of every event it completed, in order. */
  feed(bytes: Uint8Array): string[] {
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
    const events: string[] = [];
    const rest = this.decoder.decode();
    if (rest.length > 0) this.scan(rest, events);
    if (this.partialLine.length > 0) {
      const line = this.partialLine;
      this.partialLine = '';
      this.takeLine(line, 0, line.length, events);
    }
    this.dispatch(events);
    this.afterCarriageReturn = false;
    return events;
  }

  private scan(chunk: string, events: string[]): void {
    let text = chunk;
    let start = 0;
    if (this.afterCarriageReturn) {
      this.afterCarriageReturn = false;
      if (text.charCodeAt(0) === 10) start = 1;
    }
    if (this.partialLine.length > 0) {
      text = this.partialLine + (start === 0 ? text : text.slice(start));
      start = 0;
      this.partialLine = '';
    }
    const length = text.length;
    // Positions of the next LF and CR at or after `start`; -1 when there is none left. Each is
    // searched again only once passed, so a stream without CR costs one failed search in total.
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
      this.takeLine(text, start, end, events);
      start = next;
    }
    if (start < length) this.partialLine = text.slice(start);
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
      value = text.slice(valueStart, end);
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
    if (this.eventHasData) {
      this.eventData += '\n' + value;
    } else {
      this.eventData = value;
      this.eventHasData = true;
    }
  }

  private dispatch(events: string[]): void {
    if (!this.eventHasData) return;
    events.push(this.eventData);
    this.eventData = '';
    this.eventHasData = false;
  }
}

/** Parses a whole byte sequence at once: a convenience for tests and recorded streams. */
export function parseSse(reads: Iterable<Uint8Array>): string[] {
  const parser = new SseParser();
  const events: string[] = [];
  for (const read of reads) events.push(...parser.feed(read));
  events.push(...parser.end());
  return events;
}
