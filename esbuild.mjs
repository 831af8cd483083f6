// Builds every bundle of the extension:
//   dist/extension.js   the extension host entry: the activation glue and the platform modules it runs
//   dist/<part>.js      one per feature, the network stack and the rest of the platform, each required
//                       on first use (hostBundles; see esbuild.host.mjs)
//   dist/<worker>.js    scripts of worker threads, started by path (workerBundles)
//   media/dist/*.js     webview scripts (browser), one per feature's page/main.ts
//   out/**              every source and test file transpiled one-to-one, for mocha in Node and in the extension host
//   out/bundles.meta.json  esbuild's record of which source files each host bundle holds (its tests read it)
// `node esbuild.mjs --watch` rebuilds on change; `--dev` skips minification.
import * as esbuild from 'esbuild';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { activationPlatformModules, bundleBoundary, featureBundles, hostOptions, shareVscodeNamespace, sharedBundleEntries, sharedBundleNames, sharedLayout } from './esbuild.host.mjs';

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

// The webview pages, by the name of their script in media/dist: a page/main.ts of a feature, or page/<page>/main.ts when it has several.
const webviewEntries = {
  chat: 'src/chat/page/main.ts',
  jobDetails: 'src/training/page/jobDetails/main.ts',
  runCharts: 'src/training/page/runCharts/main.ts',
  taskRun: 'src/taskRuns/page/main.ts',
  rollouts: 'src/rollouts/page/main.ts',
  rewardTrial: 'src/rollouts/page/rewardTrial/main.ts',
  evalReport: 'src/evals/page/main.ts',
  localRun: 'src/localRuns/page/main.ts',
};

// The extension host's bundles (see esbuild.host.mjs): one per feature, and the platform's three
// (activation's own, the network stack, the rest), whose contents follow from what activation runs.
// Splitting pays: built as one bundle (the network stack aside), the extension takes more than twice
// as long to load and activate (test/bench's activation probe).
const activationModules = await activationPlatformModules(esbuild, process.cwd());
const shared = sharedLayout(process.cwd(), activationModules);
const hostBundles = {
  ...featureBundles,
  ...Object.fromEntries(sharedBundleNames.map((name) => [name, `shared-bundle:${name}`])),
};

// Scripts of worker threads, by output name: started by path (`new Worker(…)`), never required, so
// they are neither activation's bundle nor a late part. Each is whole in itself.
const workerBundles = {
  /** The results file's reader: parses and holds a large file off the extension host's thread. */
  resultsFileWorker: 'src/evals/model/resultsFileWorker.ts',
};

// The source loads a feature by requiring its index.ts by path (`require('.')` in its activation.ts),
// which also works for the one-to-one transpiled files in out/. Each bundle is built on its own, so
// that its build knows which modules are its own: an import of another bundle's entry or module is
// left to Node as `./<name>.js` (see bundleBoundary).
const sharedEntries = sharedBundleEntries(process.cwd(), shared.modules, shared.bundleOf);

// Which source files ended up in which host bundle (esbuild's metafiles, one per bundle, merged),
// for test/unit/build/bundleContents.test.ts.
const metafilePath = 'out/bundles.meta.json';
const metafiles = new Map();
const writeMetafile = (bundle) => ({
  name: 'write-metafile',
  setup(build) {
    build.onEnd((result) => {
      if (!result.metafile) return;
      metafiles.set(bundle, result.metafile);
      if (metafiles.size < Object.keys(hostBundles).length) return;
      const merged = { inputs: {}, outputs: {} };
      for (const metafile of metafiles.values()) {
        Object.assign(merged.inputs, metafile.inputs);
        Object.assign(merged.outputs, metafile.outputs);
      }
      mkdirSync('out', { recursive: true });
      writeFileSync(metafilePath, JSON.stringify(merged));
    });
  },
});

// A bundle renamed or removed would otherwise stay in dist/ and be packaged.
if (existsSync('dist')) {
  for (const file of readdirSync('dist')) {
    const name = file.replace(/\.js(\.map)?$/, '');
    if (!Object.hasOwn(hostBundles, name) && !Object.hasOwn(workerBundles, name)) rmSync(join('dist', file));
  }
}

const hostBuilds = Object.entries(hostBundles).map(([bundle, entry]) => ({
  ...hostOptions,
  plugins: [shareVscodeNamespace, sharedEntries, bundleBoundary(process.cwd(), shared.bundleOf, bundle), writeMetafile(bundle)],
  metafile: true,
  minify,
  entryPoints: { [bundle]: entry },
  outdir: 'dist',
}));

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

const builds = transpileOnly ? [transpile(transpileOnly)] : [...hostBuilds, workerBuild, webviewBuild, transpile(['src', 'test'])];

if (watch) {
  const contexts = await Promise.all(builds.map((options) => esbuild.context(options)));
  await Promise.all(contexts.map((context) => context.watch()));
  console.log('esbuild: watching for changes');
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
}
