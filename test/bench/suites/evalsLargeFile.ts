/**
 * A 100 MB results file opened for the report, as a cloned repository may hold one: the real reader
 * (size first, parsed on a worker thread, the first screen handed back before the rest) against the
 * peer that reads it on the extension host's own thread (JSON.parse and the checks of
 * parseRunFile, then the leaderboard), which is what the report did before and is quicker in all:
 * nothing crosses a thread. Two figures, each the median of three reads alternating with the peer's:
 *  - the first screen (leaderboard, counts, the first page of answers) ready;
 *  - the longest the event loop was blocked meanwhile, which the extension host shares with every
 *    extension.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { primaryScorer } from '../../../src/evals/model/evalRun';
import { answersPerPage } from '../../../src/evals/model/reportPaging';
import { parseRunFile } from '../../../src/evals/model/resultsFile';
import { openRunFile } from '../../../src/evals/model/resultsFileLoader';
import { leaderboard } from '../../../src/evals/model/statistics';
import { previewChars } from '../../../src/evals/protocol';
import { writeLargeRun } from '../../support/largeRunFile';
import type { BenchFigure, BenchSuite } from '../report';
import { median } from '../stats';

const reads = 3;

interface Read {
  firstScreenMs: number;
  longestStallMs: number;
}

/**
 * Times `work` from its start to its end, with the longest event-loop stall while it ran: the
 * longest gap between two ticks of a 5 ms interval, less the interval.
 */
async function timed(work: () => Promise<void>): Promise<Read> {
  let last = performance.now();
  let longest = 0;
  const probe = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last - 5);
    last = now;
  }, 5);
  try {
    await new Promise<void>((resolve) => setTimeout(resolve, 20));
    longest = 0;
    last = performance.now();
    const started = performance.now();
    await work();
    const firstScreenMs = performance.now() - started;
    await new Promise<void>((resolve) => setTimeout(resolve, 20));
    return { firstScreenMs, longestStallMs: Math.max(0, longest) };
  } finally {
    clearInterval(probe);
  }
}

export const suite: BenchSuite = {
  name: 'evalsLargeFile: a 100 MB results file opened for the report',
  async run(): Promise<BenchFigure[]> {
    const folder = mkdtempSync(join(tmpdir(), 'rl-studio-bench-large-eval-'));
    const file = join(folder, 'large.rleval.json');
    try {
      writeLargeRun(file);
      const bytes = await readFile(file);
      const ours: Read[] = [];
      const peer: Read[] = [];
      for (let read = 0; read < reads; read++) {
        // The reader hands its bytes to the worker (the buffer moves, it is not copied): a copy each read.
        const copy = new Uint8Array(bytes);
        ours.push(
          await timed(async () => {
            const opened = await openRunFile(copy);
            if (!opened.ok) throw new Error(opened.error);
            try {
              await opened.reader.page(0, answersPerPage, previewChars);
            } finally {
              opened.reader.dispose();
            }
          }),
        );
        peer.push(
          await timed(async () => {
            const parsed = parseRunFile(new TextDecoder().decode(bytes));
            if (!parsed.ok) throw new Error(parsed.error);
            leaderboard(parsed.run, primaryScorer(parsed.run.scorers));
            parsed.run.answers.slice(0, answersPerPage);
          }),
        );
      }
      const megabytes = Math.round(bytes.byteLength / 2 ** 20);
      const peerName = 'the same file parsed on the extension host thread';
      return [
        {
          name: `First screen of a ${megabytes} MB results file (leaderboard, counts, first ${answersPerPage} answers)`,
          value: median(ours.map((read) => read.firstScreenMs)),
          unit: 'ms',
          peer: { name: peerName, value: median(peer.map((read) => read.firstScreenMs)) },
          better: 'lower',
          goal: { kind: 'absolute', atMost: 2_000 },
          note: `runs ${ours.map((read) => Math.round(read.firstScreenMs)).join(', ')} ms; the peer's ${peer.map((read) => Math.round(read.firstScreenMs)).join(', ')} ms`,
        },
        {
          name: `Longest event-loop stall while a ${megabytes} MB results file opens`,
          value: median(ours.map((read) => read.longestStallMs)),
          unit: 'ms',
          peer: { name: peerName, value: median(peer.map((read) => read.longestStallMs)) },
          better: 'lower',
          goal: { kind: 'absolute', atMost: 200 },
          note: `runs ${ours.map((read) => Math.round(read.longestStallMs)).join(', ')} ms; the peer's ${peer.map((read) => Math.round(read.longestStallMs)).join(', ')} ms`,
        },
      ];
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  },
};
