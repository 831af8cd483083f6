/**
 * Start-up cost: the time to load the built dist/extension.js and run activate() with a stand-in
 * `vscode` module, each run in a fresh Node process so nothing is cached. Also checks that
 * activation did not load the network bundle (undici lives there).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
    const samples: { loadMs: number; activateMs: number; networkLoaded: boolean }[] = [];
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
    ];
  },
};

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}
