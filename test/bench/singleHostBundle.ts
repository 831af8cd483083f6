/**
 * The peer of the split extension host build: one bundle from src/extension.ts holding every part
 * (sidebar, chat, language models, payload language and core, webhooks, the development seed), with
 * only the network stack left out as `./network.js`, the very file of dist/, and beside it the
 * shared error class `./errors.js` that network.js requires (kept as one file, as in dist/, so that
 * the class exists once and `instanceof` holds between the two). It is built with the options of
 * esbuild.mjs's host build (the shared `vscode` namespace, the jsonc-parser alias, minified
 * CommonJS for node20), so the one thing that differs from dist/extension.js is that nothing is
 * left to load on first use.
 */
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as esbuild from 'esbuild';

const repoRoot = join(__dirname, '..', '..', '..');

/** Same as esbuild.mjs: every `import * as vscode` shares one namespace copy of the API object. */
const shareVscodeNamespace: esbuild.Plugin = {
  name: 'share-vscode-namespace',
  setup(build) {
    build.onResolve({ filter: /^vscode$/ }, (args) => (args.namespace === 'vscode-shared' ? { path: 'vscode', external: true } : { path: 'vscode', namespace: 'vscode-shared' }));
    build.onLoad({ filter: /.*/, namespace: 'vscode-shared' }, () => ({ contents: "export * from 'vscode';", loader: 'js' }));
  },
};

/** Bundles of dist/ that stay outside, by entry: required as `./<name>.js` like in dist/. */
const outside: Record<string, string> = {
  [join(repoRoot, 'src', 'network.ts')]: 'network',
  [join(repoRoot, 'src', 'api', 'errors.ts')]: 'errors',
};

const keepOutside: esbuild.Plugin = {
  name: 'keep-outside',
  setup(build) {
    build.onResolve({ filter: /^\.\.?\// }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      const target = resolve(args.resolveDir, args.path);
      for (const candidate of [target, `${target}.ts`, join(target, 'index.ts')]) {
        const name = outside[candidate];
        if (name) return { path: `./${name}.js`, external: true };
      }
      return undefined;
    });
  },
};

/**
 * Builds the single host bundle into a new temporary folder beside copies of dist/network.js and
 * dist/errors.js, and returns the path of its extension.js. dist/ must have been built
 * (`node esbuild.mjs`).
 */
export async function buildSingleHostBundle(): Promise<string> {
  const folder = mkdtempSync(join(tmpdir(), 'rl-studio-single-bundle-'));
  await esbuild.build({
    absWorkingDir: repoRoot,
    plugins: [shareVscodeNamespace, keepOutside],
    bundle: true,
    alias: { 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js' },
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: true,
    minify: true,
    logLevel: 'warning',
    entryPoints: { extension: 'src/extension.ts' },
    outdir: folder,
    external: ['vscode'],
  });
  for (const name of Object.values(outside)) copyFileSync(join(repoRoot, 'dist', `${name}.js`), join(folder, `${name}.js`));
  return join(folder, 'extension.js');
}
