/**
 * The peer of the split extension host build: one bundle from src/extension.ts holding every part
 * (sidebar, chat, language models, payload language and core, webhooks, the development seed), with
 * only the network stack left out as `./network.js`, the very file of dist/, and beside it the
 * shared error class `./errors.js` that network.js requires (kept as one file, as in dist/, so that
 * the class exists once and `instanceof` holds between the two). It is built with the options and
 * plugins of esbuild.mjs's host build, taken from esbuild.host.mjs (the shared `vscode` namespace,
 * the jsonc-parser alias, minified CommonJS for node20), so the one thing that differs from
 * dist/extension.js is that nothing is left to load on first use.
 */
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { hostBuild, repoRoot } from './hostBuild';

/** Bundles of dist/ that stay outside, by name and entry: required as `./<name>.js` like in dist/. */
const outside: Record<string, string> = {
  network: join(repoRoot, 'src', 'network.ts'),
  errors: join(repoRoot, 'src', 'api', 'errors.ts'),
};

/**
 * Builds the single host bundle into a new temporary folder beside copies of dist/network.js and
 * dist/errors.js, and returns the path of its extension.js. dist/ must have been built
 * (`node esbuild.mjs`).
 */
export async function buildSingleHostBundle(): Promise<string> {
  const host = await hostBuild();
  const folder = mkdtempSync(join(tmpdir(), 'rl-studio-single-bundle-'));
  await esbuild.build({
    ...host.hostOptions,
    absWorkingDir: repoRoot,
    plugins: [host.shareVscodeNamespace, host.bundleBoundary('keep-outside', outside)],
    minify: true,
    entryPoints: { extension: 'src/extension.ts' },
    outdir: folder,
  });
  for (const name of Object.keys(outside)) copyFileSync(join(repoRoot, 'dist', `${name}.js`), join(folder, `${name}.js`));
  return join(folder, 'extension.js');
}
