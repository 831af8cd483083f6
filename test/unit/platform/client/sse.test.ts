import assert from 'node:assert/strict';
import { SseEventTooLargeError, SseParser, type SseParserOptions } from '../../../../src/platform/client';
import { lineCost } from '../../../../src/platform/client/sse';

const encode = (text: string) => new TextEncoder().encode(text);

/** Read through a call, so that an earlier assert on the getter does not narrow later reads. */
const failureOf = (parser: SseParser) => parser.failure;

/** Every event of the reads, through the parser as the client drives it: a failure ends the reading. */
function eventsOf(reads: Iterable<Uint8Array>, options?: SseParserOptions): string[] {
  const parser = new SseParser(options);
  const events: string[] = [];
  for (const read of reads) {
    events.push(...parser.feed(read));
    if (parser.failure) throw parser.failure;
  }
  events.push(...parser.end());
  return events;
}

/** Splits the bytes of `text` at the given offsets into successive reads. */
function readsAt(text: string, offsets: number[]): Uint8Array[] {
  const bytes = encode(text);
  const reads: Uint8Array[] = [];
  let start = 0;
  for (const offset of [...offsets, bytes.length]) {
    reads.push(bytes.subarray(start, offset));
    start = offset;
  }
  return reads;
}

describe('SSE parser', () => {
  it('yields the data of each event, in order', () => {
    assert.deepEqual(eventsOf([encode('data: one\n\ndata: two\n\n')]), ['one', 'two']);
  });

  it('accepts LF, CRLF and CR line endings, mixed in one stream', () => {
    assert.deepEqual(eventsOf([encode('data: a\n\ndata: b\r\n\r\ndata: c\r\rdata: d\r\n\n')]), ['a', 'b', 'c', 'd']);
  });

  it('pairs a CR at the end of one read with an LF at the start of the next', () => {
    // Were the CR and LF counted as two line endings, the blank line would end the event early
    // and "second" would become an event of its own.
    const events = eventsOf(readsAt('data: first\r\ndata: second\r\n\r\n', [12]));
    assert.deepEqual(events, ['first\nsecond']);
  });

  it('skips comment lines and ignores event, id and retry fields', () => {
    const text = ': keep-alive\n\nevent: message\nid: 42\nretry: 1000\ndata: x\n: between\n\n';
    assert.deepEqual(eventsOf([encode(text)]), ['x']);
  });

  it('joins multi-line data fields with a newline', () => {
    assert.deepEqual(eventsOf([encode('data: {"a":\ndata: 1}\n\n')]), ['{"a":\n1}']);
  });

  it('strips exactly one space after the colon, and accepts none', () => {
    assert.deepEqual(eventsOf([encode('data:tight\n\ndata:  two spaces\n\n')]), ['tight', ' two spaces']);
  });

  it('treats a bare "data" line as an empty value', () => {
    assert.deepEqual(eventsOf([encode('data\ndata: x\n\ndata\n\n')]), ['\nx', '']);
  });

  it('dispatches nothing for an event without data', () => {
    assert.deepEqual(eventsOf([encode('event: ping\n\n\n\ndata: y\n\n')]), ['y']);
  });

  it('decodes a multi-byte character split across reads', () => {
    const text = 'data: 東京 🙂 é\n\n';
    const bytes = encode(text);
    for (let offset = 1; offset < bytes.length; offset++) {
      assert.deepEqual(eventsOf(readsAt(text, [offset])), ['東京 🙂 é'], `split at byte ${offset}`);
    }
  });

  it('gives the same events for any read sizes, one byte at a time included', () => {
    const text = 'data: α\r\n\r\n: c\rdata: β\r\rdata: γ\ndata: δ\n\n';
    const whole = eventsOf([encode(text)]);
    assert.deepEqual(whole, ['α', 'β', 'γ\nδ']);
    const bytes = encode(text);
    assert.deepEqual(eventsOf(Array.from(bytes, (byte) => Uint8Array.of(byte))), whole);
    for (let a = 1; a < bytes.length; a++) {
      for (let b = a; b < bytes.length; b++) assert.deepEqual(eventsOf(readsAt(text, [a, b])), whole, `split at ${a} and ${b}`);
    }
  });

  it('returns events as soon as their blank line arrives', () => {
    const parser = new SseParser();
    assert.deepEqual(parser.feed(encode('data: early\n')), []);
    assert.deepEqual(parser.feed(encode('\ndata: la')), ['early']);
    assert.deepEqual(parser.feed(encode('te\n\n')), ['late']);
    assert.deepEqual(parser.end(), []);
  });

  it('delivers a last event whose blank line or line ending never came', () => {
    const parser = new SseParser();
    assert.deepEqual(parser.feed(encode('data: kept\n')), []);
    assert.deepEqual(parser.end(), ['kept']);
    assert.deepEqual(eventsOf([encode('data: [DONE]')]), ['[DONE]']);
  });

  it('drops a leading byte-order mark', () => {
    assert.deepEqual(eventsOf([Uint8Array.of(0xef, 0xbb, 0xbf), encode('data: after bom\n\n')]), ['after bom']);
  });

  it('reassembles a line that arrives in thousands of pieces, one byte each', () => {
    const value = 'é'.repeat(700) + 'x'.repeat(2300);
    const bytes = encode(`: c\r\ndata: ${value}\r\n\r\n`);
    assert.deepEqual(eventsOf(Array.from(bytes, (byte) => Uint8Array.of(byte))), [value]);
  });

  it('reassembles a line spread over reads of every size, with CRLF split between reads', () => {
    const value = Array.from({ length: 5000 }, (_, index) => String.fromCharCode(97 + (index % 26))).join('');
    const text = `data: ${value}\r\n\r\ndata: b\r\n\r\n`;
    const bytes = encode(text);
    for (const size of [1, 3, 7, 64, 1000, 4096]) {
      const reads: Uint8Array[] = [];
      for (let start = 0; start < bytes.length; start += size) reads.push(bytes.subarray(start, start + size));
      assert.deepEqual(eventsOf(reads), [value, 'b'], `reads of ${size} bytes`);
    }
  });

  describe('event size cap', () => {
    it('fails once the line still arriving passes the cap, after returning the events before it', () => {
      const parser = new SseParser({ maxEventSize: 1000 });
      assert.deepEqual(parser.feed(encode('data: first\n\ndata: ' + 'y'.repeat(600))), ['first']);
      assert.equal(parser.failure, undefined);
      assert.deepEqual(parser.feed(encode('y'.repeat(600))), []);
      const failure = failureOf(parser);
      assert.ok(failure instanceof SseEventTooLargeError);
      assert.equal(failure.message, 'an event of the stream was larger than 1000 bytes');
      assert.throws(() => parser.feed(encode('\n\n')), SseEventTooLargeError);
      assert.throws(() => parser.end(), SseEventTooLargeError);
    });

    it('fails on a complete line larger than the cap within one read', () => {
      const parser = new SseParser({ maxEventSize: 100 });
      assert.deepEqual(parser.feed(encode(`data: ok\n\ndata: ${'z'.repeat(200)}\n\ndata: never\n\n`)), ['ok']);
      assert.ok(parser.failure);
    });

    it('counts every data line of one event, and a bookkeeping cost for each, so many short lines hit it too', () => {
      const lines = Math.ceil(10_000 / (1 + lineCost));
      assert.throws(() => eventsOf([encode('data: x\n'.repeat(lines))], { maxEventSize: 10_000 }), SseEventTooLargeError);
      assert.deepEqual(eventsOf([encode('data: x\n'.repeat(lines - 2) + '\n')], { maxEventSize: 10_000 }), [
        Array(lines - 2)
          .fill('x')
          .join('\n'),
      ]);
    });

    it('counts a comment line that never ends, but not comments once they end', () => {
      assert.throws(() => eventsOf([encode(': ' + 'c'.repeat(2000))], { maxEventSize: 1000 }), SseEventTooLargeError);
      const comments = ': keep-alive\n\n'.repeat(1000);
      assert.deepEqual(eventsOf([encode(comments + 'data: after\n\n')], { maxEventSize: 100 }), ['after']);
    });

    it('starts counting afresh for each event', () => {
      const event = `data: ${'e'.repeat(900)}\n\n`;
      assert.equal(eventsOf([encode(event.repeat(50))], { maxEventSize: 1000 }).length, 50);
    });

    it('is 16 MiB unless told otherwise', () => {
      const parser = new SseParser();
      const piece = encode('w'.repeat(2 ** 20));
      parser.feed(encode('data: '));
      for (let index = 0; index < 15; index++) parser.feed(piece);
      assert.equal(parser.failure, undefined, '15 MiB of one line are still read');
      parser.feed(piece);
      assert.equal(failureOf(parser)?.message, 'an event of the stream was larger than 16 MiB');
    });
  });
});
