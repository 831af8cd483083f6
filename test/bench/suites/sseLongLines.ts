/**
 * SSE parse cost is linear in the bytes, whatever the shape of the lines: one event of 64 MB on a
 * single line against the same 64 MB as 8 events of 8 MB, both fed in 64 KiB reads as a socket
 * hands them out. A parser that re-joins and re-scans the unfinished line on every read is
 * quadratic in the line's length and loses this comparison by orders of magnitude.
 */
import { SseParser } from '../../../src/api';
import type { BenchFigure, BenchSuite } from '../report';

const MB = 1e6;
const readSize = 64 * 1024;
const runs = 5;

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

function seconds(work: () => void): number {
  const started = performance.now();
  work();
  return (performance.now() - started) / 1000;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export const suite: BenchSuite = {
  name: 'SSE long lines',
  async run(): Promise<BenchFigure[]> {
    const oneLine = eventReads(1, 64 * MB);
    const eightEvents = eventReads(8, 8 * MB);
    parse(oneLine, 1);
    parse(eightEvents, 8);
    const singles: number[] = [];
    const splits: number[] = [];
    // Alternating, so that load from elsewhere on the machine hits both alike.
    for (let index = 0; index < runs; index++) {
      singles.push(seconds(() => parse(oneLine, 1)));
      splits.push(seconds(() => parse(eightEvents, 8)));
    }
    const single = median(singles);
    const split = median(splits);
    return [
      {
        name: 'SSE parse time of a 64 MB single-line event',
        value: single * 1000,
        unit: 'ms',
        peer: { name: 'the same 64 MB as 8 events of 8 MB', value: split * 1000 },
        better: 'lower',
        goal: { kind: 'ratio', atMost: 2 },
        note: `${oneLine.length} reads of 64 KiB, median of ${runs}, parser only (no JSON decoding)`,
      },
    ];
  },
};
