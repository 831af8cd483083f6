/**
 * The network stack's first load: the first time RL Studio makes a request (the sidebar's health
 * check when it first shows), the extension host loads dist/network.js on its thread. Measured in
 * fresh processes, from the start of the load until the answer of one request is read, against a
 * local server that answers at once:
 *  - dist/network.js as shipped (undici's Agent loaded by its own path, src/platform/client/undiciAgent.ts);
 *  - its peer, bare undici from node_modules, as any extension that depends on undici loads it
 *    (`require('undici')`, then one `Agent.request`): a peer that wins when our bundle carries more
 *    than undici's own load costs;
 *  - for the record, the same bundle built with undici's main entry, as RL Studio shipped it before.
 * Each kind runs in alternating rounds; every figure is the median.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as esbuild from 'esbuild';
import { hostBuild } from '../hostBuild';
import type { BenchFigure, BenchSuite } from '../report';
import { median } from '../stats';

const repoRoot = join(__dirname, '..', '..', '..', '..');
const rounds = 10;
const peerName = "bare undici (require('undici') + one request)";

interface Sample {
  loadMs: number;
  answeredMs: number;
}

/** dist/network.js as built before undici's Agent was loaded by its own path: with the package's main entry. */
async function buildWithMainEntry(): Promise<string> {
  const host = await hostBuild();
  const folder = mkdtempSync(join(tmpdir(), 'rl-studio-network-main-entry-'));
  const stand = join(folder, 'undiciMainEntry.js');
  writeFileSync(stand, "module.exports = { Agent: require('undici').Agent };\n");
  await esbuild.build({
    ...host.hostOptions,
    absWorkingDir: repoRoot,
    minify: true,
    external: [],
    plugins: [{ name: 'undici-main-entry', setup: (build) => build.onResolve({ filter: /[\\/]undiciAgent$/ }, () => ({ path: stand })) }],
    nodePaths: [join(repoRoot, 'node_modules')],
    entryPoints: { network: 'src/platform/client/index.ts' },
    outdir: folder,
  });
  return join(folder, 'network.js');
}

export const suite: BenchSuite = {
  name: 'network first load',
  async run(): Promise<BenchFigure[]> {
    const server = createServer((request, response) => {
      request.resume();
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"status":"ok"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const probe = join(__dirname, '..', 'networkProbe.js');
    const shipped = join(repoRoot, 'dist', 'network.js');
    const before = await buildWithMainEntry();
    const run = async (kind: 'bundle' | 'undici', bundle: string): Promise<Sample> => {
      const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', probe, kind, bundle, base], { cwd: repoRoot, encoding: 'utf8' });
      return JSON.parse(stdout.trim().split('\n').pop()!) as Sample;
    };
    try {
      // One untimed start of each, so that the first read of each file from disk is not counted.
      await run('bundle', shipped);
      await run('undici', '');
      await run('bundle', before);
      const ours: Sample[] = [];
      const peer: Sample[] = [];
      const old: Sample[] = [];
      for (let round = 0; round < rounds; round++) {
        ours.push(await run('bundle', shipped));
        peer.push(await run('undici', ''));
        old.push(await run('bundle', before));
      }
      const load = (samples: Sample[]) => median(samples.map((sample) => sample.loadMs));
      const answered = (samples: Sample[]) => median(samples.map((sample) => sample.answeredMs));
      const kb = (file: string) => (statSync(file).size / 1024).toFixed(0);
      return [
        {
          name: 'first request from a fresh process: load dist/network.js + one answer read (median)',
          value: answered(ours),
          unit: 'ms',
          peer: { name: peerName, value: answered(peer) },
          better: 'lower',
          goal: { kind: 'ratio', atMost: 1 },
          note: `load ${load(ours).toFixed(1)} ms of it (peer ${load(peer).toFixed(1)} ms); ${rounds} alternating runs`,
        },
        {
          name: "load of dist/network.js, against the same bundle with undici's main entry (median)",
          value: load(ours),
          unit: 'ms',
          peer: { name: "the bundle with undici's main entry, as shipped before", value: load(old) },
          better: 'lower',
          goal: { kind: 'ratio', atMost: 0.5 },
          note: `${kb(shipped)} KB against ${kb(before)} KB; first answer ${answered(ours).toFixed(1)} ms against ${answered(old).toFixed(1)} ms`,
        },
      ];
    } finally {
      server.close();
    }
  },
};
