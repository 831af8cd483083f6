// Builds every bundle of the extension:
//   dist/extension.js   the extension host entry: the activation glue only (see src/extension.ts)
//   dist/<part>.js      the parts activation does not run, each required on first use (hostBundles)
//   dist/<worker>.js    scripts of worker threads, started by path (workerBundles)
//   media/dist/*.js     webview scripts (browser), one per folder in src/webview/ that has a main.ts
//   out/**              every source and test file transpiled one-to-one, for mocha in Node and in the extension host
//   out/bundles.meta.json  esbuild's record of which source files each host bundle holds (its tests read it)
// `node esbuild.mjs --watch` rebuilds on change; `--dev` skips minification.
import * as esbuild from 'esbuild';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleBoundary, hostOptions, shareVscodeNamespace } from './esbuild.host.mjs';

const watch = process.argv.includes('--watch');
const minify = !process.argv.includes('--dev');
// `--transpile dir…` only transpiles those folders into out/ (quick edit-test loops on one area).
const transpileIndex = process.argv.indexOf('--transpile');
const transpileOnly = transpileIndex >= 0 ? process.argv.slice(transpileIndex + 1) : undefined;

function filesUnder(dir, accept) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesUnder(path, accept);
    return accept(path) ? [path] : [];
  });
}

const webviewEntries = Object.fromEntries(
  (existsSync('src/webview') ? readdirSync('src/webview') : []).filter((name) => existsSync(join('src/webview', name, 'main.ts'))).map((name) => [name, join('src/webview', name, 'main.ts')]),
);

// The extension host bundles, by output name. VS Code loads `extension`, which holds only what
// activation runs: it registers every command, view and provider and loads nothing else. Every other
// part is required on first use, through onFirstUse (src/vscode/platform/lazy/onFirstUse.ts), by the
// glue that registered what it serves; a late part's commands are listed in
// src/vscode/platform/lazy/featureCommands.ts. Splitting pays: built as one bundle (the network
// stack aside), the extension took about twice as long to load and activate (test/bench's probe).
const hostBundles = {
  extension: 'src/extension.ts',
  /**
   * The client's error class, required by every bundle that throws or tests for it (activation
   * included: it is small and loads nothing), so the class exists once and `instanceof` holds
   * across bundles.
   */
  errors: 'src/api/errors.ts',
  /** The platform client and everything that needs undici. */
  network: 'src/network.ts',
  /** Models and Training Jobs views, job details panels and their commands. */
  sidebar: 'src/vscode/sidebar/sidebarFeature.ts',
  /** The chat panel and its commands. */
  chat: 'src/vscode/chat/chatFeature.ts',
  /** The platform's models in VS Code's own chat. */
  languageModels: 'src/vscode/chat/languageModelProvider.ts',
  /** Payload language features: completion, hover, diagnostics, quick fixes, code lenses, preview. */
  payloadLanguage: 'src/vscode/payloadLanguage/payloadLanguageFeature.ts',
  /** The Webhooks view, its commands, test sends and the local receiver. */
  webhooks: 'src/vscode/webhooks/webhooksFeature.ts',
  /** The rollout inspector: its custom editor, the documents it reads and the pages that show them. */
  rolloutInspector: 'src/vscode/rollouts/rolloutsFeature.ts',
  /** Checkpoint evaluation: the command, the runs and the report editor. */
  evals: 'src/vscode/evals/evalsFeature.ts',
  /** RL Studio in agent mode: the language-model tools and the @rlstudio chat participant. */
  agent: 'src/vscode/agent/agentFeature.ts',
  /** The payload language core and its JSON parser, needed once a payload is analysed. */
  payloadCore: 'src/payload/index.ts',
  /** What signs the demo workbench in: loaded in development mode only, never in an installed extension. */
  developmentSeed: 'src/vscode/platform/developmentSeed.ts',
};

// Scripts of worker threads, by output name: started by path (`new Worker(…)`), never required, so
// they are neither activation's bundle nor a late part. Each is whole in itself.
const workerBundles = {
  /** The results file's reader: parses and holds a large file off the extension host's thread. */
  resultsFileWorker: 'src/evals/resultsFileWorker.ts',
};

// The source loads a part by requiring its entry module by path (`require('./chatFeature')`),
// which also works for the one-to-one transpiled files in out/. In a bundle, such a require (or an
// import) of another bundle's entry is left to Node as `./<name>.js` (see bundleBoundary).
const lazyBundleBoundary = bundleBoundary('lazy-bundle-boundary', hostBundles);

// Which source files ended up in which host bundle, for test/unit/lazy/bundleContents.test.ts.
const metafilePath = 'out/bundles.meta.json';
const writeMetafile = {
  name: 'write-metafile',
  setup(build) {
    build.onEnd((result) => {
      if (!result.metafile) return;
      mkdirSync('out', { recursive: true });
      writeFileSync(metafilePath, JSON.stringify(result.metafile));
    });
  },
};

// A bundle renamed or removed would otherwise stay in dist/ and be packaged.
const removeStaleBundles = {
  name: 'remove-stale-bundles',
  setup(build) {
    build.onStart(() => {
      if (!existsSync('dist')) return;
      for (const file of readdirSync('dist')) {
        const name = file.replace(/\.js(\.map)?$/, '');
        if (!Object.hasOwn(hostBundles, name) && !Object.hasOwn(workerBundles, name)) rmSync(join('dist', file));
      }
    });
  },
};

const hostBuild = {
  ...hostOptions,
  plugins: [removeStaleBundles, shareVscodeNamespace, lazyBundleBoundary, writeMetafile],
  metafile: true,
  minify,
  entryPoints: hostBundles,
  outdir: 'dist',
};

const workerBuild = {
  ...hostOptions,
  external: [],
  minify,
  entryPoints: workerBundles,
  outdir: 'dist',
};

const transpile = (dirs) => ({
  bundle: false,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: 'inline',
  logLevel: 'warning',
  entryPoints: dirs.flatMap((dir) => filesUnder(dir, (p) => p.endsWith('.ts'))),
  outbase: '.',
  outdir: 'out',
});

const webviewBuild = {
  bundle: true,
  platform: 'browser',
  format: 'iife',
  target: 'es2022',
  sourcemap: true,
  minify,
  logLevel: 'warning',
  entryPoints: webviewEntries,
  outdir: 'media/dist',
};

// A full build starts out/ afresh: a transpiled file whose source was moved or deleted would
// otherwise stay behind, and mocha would still run it.
if (!transpileOnly) for (const dir of ['out/src', 'out/test']) rmSync(dir, { recursive: true, force: true });

const builds = transpileOnly ? [transpile(transpileOnly)] : [hostBuild, workerBuild, ...(Object.keys(webviewEntries).length ? [webviewBuild] : []), transpile(['src', 'test'])];

if (watch) {
  const contexts = await Promise.all(builds.map((options) => esbuild.context(options)));
  await Promise.all(contexts.map((context) => context.watch()));
  console.log('esbuild: watching for changes');
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
}
