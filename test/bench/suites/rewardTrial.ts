/**
 * Trying a reward: re-scoring every trajectory of the inspector's bench file (218 MB, 100,000
 * trajectories in 12,500 groups of 8, in the official client's shapes; rollouts.ts makes it) with
 * exact match against a metadata key, and comparing the new rewards with the old, against the floor
 * any reader pays: the same chunks split into the same lines, each given to JSON.parse and dropped.
 * Both sides run as the extension ships them, bundled (shippedModules.ts), timed alternately.
 */
import { createReadStream } from 'node:fs';
import { alternateRounds } from '../alternating';
import type * as Rescoring from '../../../src/rollouts/model/rescoring';
import type * as TextGroupFileModule from '../../../src/rollouts/model/textGroupFile';
import type * as FileSource from '../../../src/rollouts/model/fileSource';
import type * as BuiltinScorers from '../../../src/platform/scoring/builtinScorers';
import type * as SourceLines from '../../../src/platform/kit/sourceLines';
import type { BenchFigure, BenchSuite } from '../report';
import { loadAsShipped } from '../shippedModules';
import { median } from '../stats';
import { rolloutFile } from './rollouts';

const groupCount = 12_500;
const groupSize = 8;
const rounds = 5;

type Shipped = Pick<typeof Rescoring, 'rescoreFile'> &
  Pick<typeof TextGroupFileModule, 'TextGroupFile'> &
  Pick<typeof FileSource, 'fileSource'> &
  Pick<typeof BuiltinScorers, 'scoreAtOnce'> &
  Pick<typeof SourceLines, 'sourceLines'>;
let shipped: Shipped;

async function rescore(path: string): Promise<void> {
  const file = new shipped.TextGroupFile(shipped.fileSource(path), 'jsonl');
  const spec = { kind: 'exactMatch' } as const;
  const result = await shipped.rescoreFile(file, { referenceKey: 'problem', score: (item) => shipped.scoreAtOnce(spec, item, item.answer) });
  if (result.totals.compared !== groupCount * groupSize || result.unreadable > 0) throw new Error(`compared ${result.totals.compared} trajectories, ${result.unreadable} groups unreadable`);
}

async function parseOnly(path: string): Promise<void> {
  let parsed = 0;
  // The same 256 KiB reads the file source gives the re-scoring.
  for await (const line of shipped.sourceLines(createReadStream(path, { highWaterMark: 256 * 1024 }))) {
    if (line.kind === 'line' && line.text.trim() !== '' && JSON.parse(line.text) !== undefined) parsed++;
  }
  if (parsed !== groupCount) throw new Error(`parsed ${parsed} lines`);
}

export const suite: BenchSuite = {
  name: 'Rollouts: trying a reward',
  async run(): Promise<BenchFigure[]> {
    shipped = await loadAsShipped<Shipped>({
      'src/rollouts/model/rescoring.ts': ['rescoreFile'],
      'src/rollouts/model/textGroupFile.ts': ['TextGroupFile'],
      'src/rollouts/model/fileSource.ts': ['fileSource'],
      'src/platform/scoring/builtinScorers.ts': ['scoreAtOnce'],
      'src/platform/kit/sourceLines.ts': ['sourceLines'],
    });
    const path = rolloutFile();
    // One untimed call of each (which also checks the counts), then rounds alternating in order.
    await rescore(path);
    await parseOnly(path);
    const { ours, peer: floor } = await alternateRounds(
      rounds,
      () => rescore(path),
      () => parseOnly(path),
    );
    return [
      {
        name: 'Reward trial: 100,000 trajectories re-scored by exact match and compared',
        value: median(ours),
        unit: 'ms',
        peer: { name: 'bare line-by-line JSON.parse of the same file', value: median(floor) },
        better: 'lower',
        goal: { kind: 'ratio', atMost: 1.5 },
        note: `${groupCount} groups of ${groupSize}, reference metadata.problem; median of ${rounds} alternating runs`,
      },
    ];
  },
};
