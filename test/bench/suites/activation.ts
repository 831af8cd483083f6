/**
 * Start-up cost: the time to load the built dist/extension.js and run activate() with a stand-in
 * `vscode` module, each run in a fresh Node process so nothing is cached. Also checks that
 * activation loaded none of the bundles that load on first use (undici lives in dist/network.js),
 * and reports the size of each bundle.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { BenchFigure, BenchSuite } from '../report';
import { vscodeTopLevelNames } from '../vscodeStandIn';

const runs = 15;

export const suite: BenchSuite = {
  name: 'activation',
  async run(): Promise<BenchFigure[]> {
    const probe = join(__dirname, '..', 'activationProbe.js');
    const extension = join(__dirname, '..', '..', '..', '..', 'dist', 'extension.js');
    const namesFile = join(mkdtempSync(join(tmpdir(), 'rl-studio-bench-')), 'vscode-names.json');
    writeFileSync(namesFile, JSON.stringify(vscodeTopLevelNames()));
    const samples: { loadMs: number; activateMs: number; networkLoaded: boolean; bundlesLoaded: string[] }[] = [];
    for (let i = 0; i < runs; i++) {
      const output = execFileSync(process.execPath, ['--expose-gc', probe, extension, namesFile], { encoding: 'utf8' });
      samples.push(JSON.parse(output.trim().split('\n').pop() as string));
    }
    const total = median(samples.map((s) => s.loadMs + s.activateMs));
    return [
      {
        name: 'load dist/extension.js + activate() (median of fresh processes)',
        value: total,
        unit: 'ms',
        better: 'lower',
        goal: { kind: 'absolute', atMost: 10 },
        note: `load ${median(samples.map((s) => s.loadMs)).toFixed(2)} ms, activate ${median(samples.map((s) => s.activateMs)).toFixed(2)} ms, ${runs} runs`,
      },
      {
        name: 'network bundle loaded during activation',
        value: samples.filter((s) => s.networkLoaded).length,
        unit: `of ${runs} runs`,
        better: 'lower',
        goal: { kind: 'absolute', atMost: 0 },
      },
      {
        name: 'other bundles of dist/ loaded during activation',
        value: samples.filter((s) => s.bundlesLoaded.length > 0).length,
        unit: `of ${runs} runs`,
        better: 'lower',
        goal: { kind: 'absolute', atMost: 0 },
        note: [...new Set(samples.flatMap((s) => s.bundlesLoaded))].join(', ') || undefined,
      },
      ...bundleSizes(dirname(extension)),
    ];
  },
};

/** Each bundle VS Code may load, smallest first: what activation reads is dist/extension.js alone. */
function bundleSizes(folder: string): BenchFigure[] {
  return readdirSync(folder)
    .filter((name) => name.endsWith('.js'))
    .map((name) => ({ name, bytes: statSync(join(folder, name)).size }))
    .sort((a, b) => a.bytes - b.bytes)
    .map(({ name, bytes }) => ({ name: `size of dist/${name}`, value: bytes / 1024, unit: 'KB', better: 'lower' as const }));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}
