/**
 * The peer of the split extension host build: one bundle from src/extension.ts holding every feature
 * and the whole platform, with only the network stack left out as `./network.js`, the very file of
 * dist/, and beside it dist/platform.js, which network.js requires. It is built with the options and
 * plugins of esbuild.mjs's host build, taken from esbuild.host.mjs (the shared `vscode` namespace,
 * the jsonc-parser alias, minified CommonJS for node20), so the one thing that differs from
 * dist/extension.js is that nothing is left to load on first use.
 */
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { hostBuild, repoRoot } from './hostBuild';

/** The bundle of dist/ that stays outside, by name and entry: required as `./network.js` like in dist/. */
const outside: Record<string, string> = { network: 'src/platform/client/index.ts' };
/** The files of dist/ copied beside the single bundle: the network stack and the platform part it requires. */
const copied = ['network.js', 'platform.js'];

/**
 * Builds the single host bundle into a new temporary folder beside copies of dist/network.js and
 * dist/platform.js, and returns the path of its extension.js. dist/ must have been built
 * (`node esbuild.mjs`).
 */
export async function buildSingleHostBundle(): Promise<string> {
  const host = await hostBuild();
  const folder = mkdtempSync(join(tmpdir(), 'rl-studio-single-bundle-'));
  await esbuild.build({
    ...host.hostOptions,
    absWorkingDir: repoRoot,
    plugins: [host.shareVscodeNamespace, host.bundleBoundary(repoRoot, new Map(), outside)],
    minify: true,
    entryPoints: { extension: 'src/extension.ts' },
    outdir: folder,
  });
  for (const name of copied) copyFileSync(join(repoRoot, 'dist', name), join(folder, name));
  return join(folder, 'extension.js');
}
