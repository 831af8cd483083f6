/**
 * The peer of the split extension host build: one bundle from src/extension.ts holding every feature
 * and the whole platform, with only the network stack left out as `./network.js` (required on the
 * first request, never during activation, so it is not copied beside it). It is built with the options and
 * plugins of esbuild.mjs's host build, taken from esbuild.host.mjs (the shared `vscode` namespace,
 * the jsonc-parser alias, minified CommonJS for node20), so the one thing that differs from
 * dist/extension.js is that nothing is left to load on first use.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { hostBuild, repoRoot } from './hostBuild';

/** The bundle of dist/ that stays outside, by name and entry: required as `./network.js` like in dist/. */
const outside: Record<string, string> = { network: 'src/platform/client/index.ts' };

/**
 * Builds the single host bundle into a new temporary folder, and returns the path of its extension.js. dist/ must have been built
 * (`node esbuild.mjs`).
 */
export async function buildSingleHostBundle(): Promise<string> {
  const host = await hostBuild();
  const folder = mkdtempSync(join(tmpdir(), 'rl-studio-single-bundle-'));
  await esbuild.build({
    ...host.hostOptions,
    absWorkingDir: repoRoot,
    plugins: [host.shareVscodeNamespace, host.bundleBoundary(repoRoot, new Map(), 'extension', outside)],
    minify: true,
    entryPoints: { extension: 'src/extension.ts' },
    outdir: folder,
  });
  return join(folder, 'extension.js');
}
