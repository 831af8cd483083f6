/**
 * SSE parse cost is linear in the bytes, whatever the shape of the lines: one event of 64 MB on a
 * single line against the same 64 MB as 8 events of 8 MB, both fed in 64 KiB reads as a socket
 * hands them out. A parser that re-joins and re-scans the unfinished line on every read is
 * quadratic in the line's length and loses this comparison by orders of magnitude.
 */
import { SseParser } from '../../../src/platform/client';
import type { BenchFigure, BenchSuite } from '../report';
import { median } from '../stats';
import { timeAlternately } from '../timing';

const MB = 1e6;
const readSize = 64 * 1024;
/** Rounds of single line, split, split, single line: two timed runs of each per round. */
const rounds = 3;

/** `count` events of `size` bytes of data each, as 64 KiB reads. */
function eventReads(count: number, size: number): Uint8Array[] {
  const event = Buffer.concat([Buffer.from('data: '), Buffer.alloc(size, 'a'), Buffer.from('\n\n')]);
  const bytes = Buffer.concat(Array.from({ length: count }, () => event));
  const reads: Uint8Array[] = [];
  for (let start = 0; start < bytes.length; start += readSize) reads.push(bytes.subarray(start, start + readSize));
  return reads;
}

function parse(reads: Uint8Array[], expected: number): void {
  // The default cap (16 MiB) would stop the 64 MB event; this measures the parser, not the cap.
  const parser = new SseParser({ maxEventSize: 256 * 2 ** 20 });
  let events = 0;
  for (const read of reads) events += parser.feed(read).length;
  events += parser.end().length;
  if (events !== expected) throw new Error(`parsed ${events} events, expected ${expected}`);
}

export const suite: BenchSuite = {
  name: 'SSE long lines',
  async run(): Promise<BenchFigure[]> {
    const oneLine = eventReads(1, 64 * MB);
    const eightEvents = eventReads(8, 8 * MB);
    // The first (untimed) calls also check the event counts.
    const times = await timeAlternately(
      () => parse(oneLine, 1),
      () => parse(eightEvents, 8),
      rounds,
    );
    const single = median(times.ours);
    const split = median(times.theirs);
    return [
      {
        name: 'SSE parse time of a 64 MB single-line event',
        value: single,
        unit: 'ms',
        peer: { name: 'the same 64 MB as 8 events of 8 MB', value: split },
        better: 'lower',
        goal: { kind: 'ratio', atMost: 2 },
        note: `${oneLine.length} reads of 64 KiB, median of ${times.ours.length} alternating runs each, parser only (no JSON decoding)`,
      },
    ];
  },
};
