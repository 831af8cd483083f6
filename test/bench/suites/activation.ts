/**
 * Start-up cost: the time to load the built dist/extension.js and run activate() with a stand-in
 * `vscode` module, each run in a fresh Node process so nothing is cached. Its peer is the same
 * extension built as one host bundle (every feature inside, only the network stack outside), the
 * usual way to ship an extension: measured by the same probe, in processes alternating with the
 * split build's. Also checks that activation loaded none of the bundles that load on first use
 * (undici lives in dist/network.js; the platform modules activation runs are in dist/extension.js), and reports the size of each bundle.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { BenchFigure, BenchSuite } from '../report';
import { buildSingleHostBundle } from '../singleHostBundle';
import { median } from '../stats';
import { vscodeTopLevelNames } from '../vscodeStandIn';

/** Rounds of split, single, single, split: two fresh processes of each per round. */
const rounds = 8;
const singleName = 'the single host bundle';

interface Sample {
  loadMs: number;
  activateMs: number;
  networkLoaded: boolean;
  bundlesLoaded: string[];
}

export const suite: BenchSuite = {
  name: 'activation',
  async run(): Promise<BenchFigure[]> {
    const probe = join(__dirname, '..', 'activationProbe.js');
    const extension = join(__dirname, '..', '..', '..', '..', 'dist', 'extension.js');
    const namesFolder = mkdtempSync(join(tmpdir(), 'rl-studio-bench-'));
    const namesFile = join(namesFolder, 'vscode-names.json');
    writeFileSync(namesFile, JSON.stringify(vscodeTopLevelNames()));
    const single = await buildSingleHostBundle();
    try {
      const measure = (bundle: string): Sample => {
        const output = execFileSync(process.execPath, ['--expose-gc', probe, bundle, namesFile], { encoding: 'utf8' });
        return JSON.parse(output.trim().split('\n').pop() as string) as Sample;
      };
      // One untimed start of each, so that the first read of each file from disk is not counted.
      measure(extension);
      measure(single);
      const split: Sample[] = [];
      const whole: Sample[] = [];
      for (let round = 0; round < rounds; round++) {
        split.push(measure(extension));
        whole.push(measure(single));
        whole.push(measure(single));
        split.push(measure(extension));
      }
      const runs = split.length;
      const startUp = (samples: Sample[]) => median(samples.map((s) => s.loadMs + s.activateMs));
      const parts = (samples: Sample[]) => `load ${median(samples.map((s) => s.loadMs)).toFixed(2)} ms, activate ${median(samples.map((s) => s.activateMs)).toFixed(2)} ms`;
      const singleKB = statSync(single).size / 1024;
      return [
        {
          name: 'load dist/extension.js + activate() (median of fresh processes)',
          value: startUp(split),
          unit: 'ms',
          peer: { name: singleName, value: startUp(whole) },
          better: 'lower',
          goal: { kind: 'absolute', atMost: 10 },
          note: `${parts(split)}; peer: ${parts(whole)}; ${runs} alternating runs each`,
        },
        {
          name: `load + activate() of ${singleName} (median of fresh processes)`,
          value: startUp(whole),
          unit: 'ms',
          better: 'lower',
          // No goal of its own: it is the alternative the split is measured against. Were it within
          // the 10 ms goal, one bundle (the network stack aside) would replace the split.
          note: `${parts(whole)}, ${runs} runs; the split is kept while this is over 10 ms; built from src/extension.ts with the host build's options, network.js outside (${singleKB.toFixed(0)} KB)`,
        },
        {
          name: 'network bundle loaded during activation',
          value: split.filter((s) => s.networkLoaded).length,
          unit: `of ${runs} runs`,
          better: 'lower',
          goal: { kind: 'absolute', atMost: 0 },
          note: `${singleName}: ${whole.filter((s) => s.networkLoaded).length} of ${runs}`,
        },
        {
          name: 'other bundles of dist/ loaded during activation',
          value: split.filter((s) => s.bundlesLoaded.length > 0).length,
          unit: `of ${runs} runs`,
          better: 'lower',
          goal: { kind: 'absolute', atMost: 0 },
          note: `loaded: ${[...new Set(split.flatMap((s) => s.bundlesLoaded))].join(', ') || 'none'}`,
        },
        ...bundleSizes(dirname(extension), singleKB),
      ];
    } finally {
      rmSync(dirname(single), { recursive: true, force: true });
      rmSync(namesFolder, { recursive: true, force: true });
    }
  },
};

/**
 * What activation reads (dist/extension.js), whose peer is the single host bundle VS Code would read
 * instead; then each bundle VS Code may load, smallest first, and their total.
 */
function bundleSizes(folder: string, singleKB: number): BenchFigure[] {
  const bundles = readdirSync(folder)
    .filter((name) => name.endsWith('.js'))
    .map((name) => ({ name, bytes: statSync(join(folder, name)).size }))
    .sort((a, b) => a.bytes - b.bytes);
  const kilobytes = (names: string[]) => bundles.filter(({ name }) => names.includes(name)).reduce((sum, { bytes }) => sum + bytes, 0) / 1024;
  return [
    ...bundles.map(({ name, bytes }) => ({
      name: `size of dist/${name}`,
      value: bytes / 1024,
      unit: 'KB',
      better: 'lower' as const,
      ...(name === 'extension.js' ? { peer: { name: singleName, value: singleKB } } : {}),
    })),
    { name: 'size of all host bundles of dist/', value: kilobytes(bundles.map(({ name }) => name)), unit: 'KB', better: 'lower' },
  ];
}
