/**
 * The extension host's part of the rollout inspector's first screen, for the 200 MB file of
 * 100,000 trajectories of the rollouts suite: from the moment the editor opens the file (the
 * InspectedFile is made and starts reading) until the page could draw its first screen, i.e. the
 * first state is announced and the reply to the page's first `rows` request (60 rows, in file
 * order) is ready. The page's own part, from its load to the rows on screen, is the first-screen
 * figure of the rolloutsPage suite; the two together are the time from opening the editor to a
 * painted first screen.
 *
 * Peer: the least any reader pays before it can show a group: the file's first chunk read and its
 * complete lines given to JSON.parse. Each side runs five times, alternately; the figures are
 * medians.
 */
import { createReadStream } from 'node:fs';
import { fileSource } from '../../../src/rollouts/model/fileSource';
import { InspectedFile } from '../../../src/rollouts/model/inspectedFile';
import { defaultQuery } from '../../../src/rollouts/model/inspectorModel';
import type { BenchFigure, BenchSuite } from '../report';
import { median } from '../stats';
import { rolloutFile } from './rollouts';

const rounds = 5;
const firstScreenRows = 60;

/** Opens the file as the editor does and resolves when the first screen's rows are ready; the read is then stopped. */
async function firstScreen(path: string): Promise<number> {
  const started = performance.now();
  const file = new InspectedFile({ fileName: 'bench.trajectories.jsonl', format: 'jsonl', source: fileSource(path) });
  const ready = new Promise<number>((resolve, reject) => {
    const stop = file.onDidChange((state) => {
      if (state.statistics.groups === 0) return;
      stop();
      file.rows(defaultQuery, 0, firstScreenRows).then((page) => {
        if (page.rows.length === 0) reject(new Error('no rows on the first screen'));
        else resolve(performance.now() - started);
      }, reject);
    });
  });
  const reading = file.open();
  const elapsed = await ready;
  file.dispose();
  await reading;
  return elapsed;
}

/** The first chunk of the file read, and its whole lines parsed. */
async function firstChunkParsed(path: string): Promise<number> {
  const started = performance.now();
  const stream = createReadStream(path, { highWaterMark: 256 * 1024 });
  for await (const chunk of stream) {
    const text = (chunk as Buffer).toString('utf8');
    const lines = text.slice(0, text.lastIndexOf('\n')).split('\n');
    for (const line of lines) if (JSON.parse(line) === undefined) throw new Error('no group');
    break;
  }
  stream.destroy();
  return performance.now() - started;
}

export const suite: BenchSuite = {
  name: 'rolloutsOpen: the first screen of a 200 MB rollout file, extension host part',
  async run(): Promise<BenchFigure[]> {
    const path = rolloutFile();
    const ours: number[] = [];
    const peer: number[] = [];
    for (let round = 0; round < rounds; round++) {
      ours.push(await firstScreen(path));
      peer.push(await firstChunkParsed(path));
    }
    return [
      {
        name: 'open to first screen of rows ready (host)',
        value: median(ours),
        unit: 'ms',
        peer: { name: 'first 256 KB chunk read and its lines parsed', value: median(peer) },
        better: 'lower',
        goal: { kind: 'absolute', atMost: 150 },
        note: "with the page's own first screen (rolloutsPage suite) under 150 ms, the editor paints its first screen within 300 ms",
      },
    ];
  },
};
