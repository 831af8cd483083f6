// What every build of the extension host shares: the options and the plugins of esbuild.mjs's host
// build, also used by the benchmark's single-bundle peer (test/bench/singleHostBundle.ts), so that
// the two bundles differ only in how the parts are split.
import { join, resolve } from 'node:path';

// Every `import * as vscode from 'vscode'` in a CommonJS bundle would copy the whole API object into
// a namespace of its own at load time (dozens of files, hundreds of names each): measurable in
// activation time. Routing them through one ES module re-export makes that copy happen once.
export const shareVscodeNamespace = {
  name: 'share-vscode-namespace',
  setup(build) {
    build.onResolve({ filter: /^vscode$/ }, (args) => (args.namespace === 'vscode-shared' ? { path: 'vscode', external: true } : { path: 'vscode', namespace: 'vscode-shared' }));
    build.onLoad({ filter: /.*/, namespace: 'vscode-shared' }, () => ({ contents: "export * from 'vscode';", loader: 'js' }));
  },
};

/**
 * Keeps other bundles out of the one being built: a relative require or import of one of
 * `bundles`' entries (output name to entry path) is rewritten to `./<name>.js` and left to Node, so
 * that part is not copied into the bundle that asks for it and its module state (a class, a cache)
 * exists once.
 */
export function bundleBoundary(name, bundles) {
  return {
    name,
    setup(build) {
      const bundleOfEntry = new Map(Object.entries(bundles).map(([bundle, entry]) => [resolve(entry), bundle]));
      build.onResolve({ filter: /^\.\.?\// }, (args) => {
        if (args.kind === 'entry-point') return undefined;
        const target = resolve(args.resolveDir, args.path);
        for (const candidate of [target, `${target}.ts`, join(target, 'index.ts')]) {
          const bundle = bundleOfEntry.get(candidate);
          if (bundle) return { path: `./${bundle}.js`, external: true };
        }
        return undefined;
      });
    },
  };
}

/** The host build's options, less its entries, output folder, plugins and minification. */
export const hostOptions = {
  bundle: true,
  // jsonc-parser's default entry is a UMD build whose inner requires a bundler cannot follow.
  alias: { 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js' },
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  external: ['vscode'],
};
