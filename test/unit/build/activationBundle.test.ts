import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { vscodeTopLevelNames } from '../../bench/vscodeStandIn';

const root = join(__dirname, '..', '..', '..', '..');
const dist = join(root, 'dist');

/**
 * The built bundles (`npm test` builds first): activation runs on dist/extension.js alone (with the
 * platform modules it needs), in a fresh Node process with a stand-in `vscode` module, and
 * still registers every command.
 */
describe('activation bundle', () => {
  let activation: { bundlesLoaded: string[]; commands: string[]; exported: string };

  before(() => {
    assert.ok(existsSync(join(dist, 'extension.js')), 'dist/extension.js is missing: run `node esbuild.mjs` first');
    const folder = mkdtempSync(join(tmpdir(), 'rl-studio-activation-'));
    try {
      const namesFile = join(folder, 'vscode-names.json');
      writeFileSync(namesFile, JSON.stringify(vscodeTopLevelNames()));
      const probe = join(__dirname, '..', '..', 'bench', 'activationProbe.js');
      const output = execFileSync(process.execPath, [probe, join(dist, 'extension.js'), namesFile], { encoding: 'utf8', timeout: 15_000 });
      activation = JSON.parse(output.trim().split('\n').pop() as string);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("returns nothing outside the extension's own tests, so other extensions get no exports", () => {
    assert.equal(activation.exported, 'nothing');
  });

  it('loads no other bundle of dist/', () => {
    assert.deepEqual(activation.bundlesLoaded, []);
  });

  it('registers every command of package.json, each once, and no test-only command', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { contributes: { commands: { command: string }[] } };
    const declared = manifest.contributes.commands.map((entry) => entry.command).sort();
    assert.deepEqual([...activation.commands].sort(), declared);
  });

  it('leaves each feature to a bundle of its own, found next to the bundle that requires it', () => {
    const required = new Map<string, string[]>();
    for (const name of readdirSync(dist).filter((file) => file.endsWith('.js'))) {
      const text = readFileSync(join(dist, name), 'utf8');
      required.set(
        name,
        [...text.matchAll(/require\(["']\.\/([\w.-]+\.js)["']\)/g)].map((match) => match[1]!),
      );
    }
    assert.deepEqual([...new Set(required.get('extension.js'))].sort(), [
      'agent.js',
      'alerts.js',
      'chat.js',
      'developmentSeed.js',
      'evals.js',
      'localRuns.js',
      'network.js',
      'rollouts.js',
      'taskRuns.js',
      'training.js',
      'webhooks.js',
    ]);
    for (const [name, bundles] of required) {
      for (const bundle of bundles) assert.ok(required.has(bundle), `${name} requires ./${bundle}, which was not built`);
    }
  });
});
