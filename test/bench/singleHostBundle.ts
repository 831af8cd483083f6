/**
 * The peer of the split extension host build: one bundle from src/extension.ts holding every
 * feature (sidebar, chat, language models, payload and its core), with only the network stack left
 * out as `./network.js`, the very file of dist/. It is built with the options of esbuild.mjs's host
 * build (the shared `vscode` namespace, the jsonc-parser alias, minified CommonJS for node20), so
 * the one thing that differs from dist/extension.js is that nothing is left to load on first use.
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
    build.onResolve({ filter: /^vscode$/ }, (args) =>
      args.namespace === 'vscode-shared' ? { path: 'vscode', external: true } : { path: 'vscode', namespace: 'vscode-shared' },
    );
    build.onLoad({ filter: /.*/, namespace: 'vscode-shared' }, () => ({ contents: "export * from 'vscode';", loader: 'js' }));
  },
};

/** The network entry (src/network.ts) stays outside, required as `./network.js` like in dist/. */
const networkOutside: esbuild.Plugin = {
  name: 'network-outside',
  setup(build) {
    const networkEntry = join(repoRoot, 'src', 'network.ts');
    build.onResolve({ filter: /^\.\.?\// }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      const target = resolve(args.resolveDir, args.path);
      for (const candidate of [target, `${target}.ts`, join(target, 'index.ts')]) {
        if (candidate === networkEntry) return { path: './network.js', external: true };
      }
      return undefined;
    });
  },
};

/**
 * Builds the single host bundle into a new temporary folder beside a copy of dist/network.js, and
 * returns the path of its extension.js. dist/ must have been built (`node esbuild.mjs`).
 */
export async function buildSingleHostBundle(): Promise<string> {
  const folder = mkdtempSync(join(tmpdir(), 'rl-studio-single-bundle-'));
  await esbuild.build({
    absWorkingDir: repoRoot,
    plugins: [shareVscodeNamespace, networkOutside],
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
  copyFileSync(join(repoRoot, 'dist', 'network.js'), join(folder, 'network.js'));
  return join(folder, 'extension.js');
}
