// What every build of the extension host shares: the options and the plugins of esbuild.mjs's host
// build, also used by the benchmark's single-bundle peer (test/bench/singleHostBundle.ts), so that
// the two bundles differ only in how the parts are split.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { resolveImport } from './lint/resolveImport.mjs';

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
 * The extension host's bundles, by output name, each with the source it starts from. VS Code loads
 * `extension`: the activation glue (src/extension.ts and each feature's activation.ts), which
 * registers every command, view and provider and runs nothing else. Each feature is one bundle from
 * its index.ts, required on first use through onFirstUse (src/platform/host/lazy/onFirstUse.ts); a
 * feature's commands are listed in src/platform/host/lazy/featureCommands.ts.
 */
export const featureBundles = {
  /** Models and Training Jobs views, job details panels, their commands and the training tools. */
  training: 'src/training/index.ts',
  /** The chat panel, the platform's models in VS Code's own chat, and their commands. */
  chat: 'src/chat/index.ts',
  /** The rollout inspector: its custom editor, the documents it reads, its page and its tools. */
  rollouts: 'src/rollouts/index.ts',
  /** Checkpoint evaluation: the command, the runs, the report editor and the evaluation tool. */
  evals: 'src/evals/index.ts',
  /** The Webhooks view, test sends, the local receiver, the payload language and its tools. */
  webhooks: 'src/webhooks/index.ts',
  /** The Local Runs view: the official client's local project folders, run views, Follow on Platform. */
  localRuns: 'src/localRuns/index.ts',
  /** Alert rules: the rules files, their diagnostics, and the actions run when a job or the canary fires one. */
  alerts: 'src/alerts/index.ts',
  /** Training from task files: their diagnostics, and the runs they start. */
  taskRuns: 'src/taskRuns/index.ts',
  /** The @rlstudio chat participant, and the table of every feature's tools it hands to VS Code. */
  agent: 'src/agent/index.ts',
  /** What signs the demo workbench in: loaded in development mode only, never in an installed extension. */
  developmentSeed: 'src/platform/host/developmentSeed.ts',
};

/**
 * The platform (src/platform/) is shared by every feature, and each of its modules is shipped once:
 *   extension.js     with the activation glue, the platform modules activation runs (services,
 *                    settings, trust, health, the failure words…), found by following
 *                    src/extension.ts's imports: activation reads one file;
 *   network.js       the client and undici (src/platform/client/ less what activation runs), on the
 *                    first request;
 *   platformLate.js  the rest of the platform (the kit, the pages' host side, the tool contract), with
 *                    the first feature that needs it;
 *   parquet.js       the Parquet reader of trajectory logs (src/platform/parquet/) and its library,
 *                    when the first Parquet file is read: no other first use pays for it;
 *   scoring.js       what grades an answer (src/platform/scoring/), when the first evaluation,
 *                    canary or task run scores one.
 * A feature's import of a platform module is left to Node as `require('./<bundle>.js')`, so the
 * module is not copied into the feature's bundle and its state (a class, a cache) exists once. VS
 * Code loads an extension's main file with Node's require, so `require('./extension.js')` from a
 * feature's bundle is the module VS Code activated, not a second copy.
 */
export const sharedBundleNames = ['extension', 'network', 'platformLate', 'parquet', 'scoring'];

/** The client's entry: what the services require on the first request. */
const networkEntry = 'src/platform/client/index.ts';

const sourceOf = (path) => path.replace(/\\/g, '/');
const isPlatformHostModule = (path) => path.startsWith('src/platform/') && path.endsWith('.ts') && !path.includes('/page/');

/** Every .ts file under src/ that runs in the extension host (the pages are bundled apart). */
function hostSources(root) {
  const found = [];
  const walk = (dir) => {
    for (const name of readdirSync(join(root, dir))) {
      const path = `${dir}/${name}`;
      if (statSync(join(root, path)).isDirectory()) {
        if (name !== 'page') walk(path);
      } else if (path.endsWith('.ts')) found.push(path);
    }
  };
  walk('src');
  return found;
}

/** The value names a module exports itself (not those it passes on from another module). */
function ownExports(source) {
  const names = [];
  for (const match of source.matchAll(/^export\s+(?:declare\s+)?(?:default\s+)?(?:async\s+)?(?:function\*?|const|let|var|class|enum)\s+([A-Za-z_$][\w$]*)/gm)) names.push(match[1]);
  for (const match of source.matchAll(/^export\s*\{([^}]*)\}\s*;/gm)) {
    for (const part of match[1].split(',')) {
      const name = part
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)
        .pop();
      if (name && !part.trim().startsWith('type ')) names.push(name);
    }
  }
  return names;
}

/**
 * Which shared bundle holds each platform module, given the modules activation runs. Fails the build
 * when two modules of one bundle export the same name: `require('./<bundle>.js').name` must mean one
 * thing.
 */
export function sharedLayout(root, activationModules) {
  const bundleOf = new Map();
  for (const path of hostSources(root).filter(isPlatformHostModule)) {
    if (Object.values(featureBundles).includes(path)) continue;
    bundleOf.set(
      path,
      activationModules.has(path)
        ? 'extension'
        : path.startsWith('src/platform/client/')
          ? 'network'
          : path.startsWith('src/platform/parquet/')
            ? 'parquet'
            : path.startsWith('src/platform/scoring/')
              ? 'scoring'
              : 'platformLate',
    );
  }
  const modules = Object.fromEntries(sharedBundleNames.map((name) => [name, [...bundleOf].filter(([, bundle]) => bundle === name).map(([path]) => path)]));
  for (const [bundle, paths] of Object.entries(modules)) {
    const owner = new Map();
    for (const path of paths) {
      for (const name of ownExports(readFileSync(join(root, path), 'utf8'))) {
        if (owner.has(name)) throw new Error(`${owner.get(name)} and ${path} both export ${name}, and both are shipped in dist/${bundle}.js: rename one`);
        owner.set(name, path);
      }
    }
  }
  return { bundleOf, modules };
}

/** The modules of src/platform/ that src/extension.ts reaches, feature bundles left outside. */
export async function activationPlatformModules(esbuild, root) {
  const result = await esbuild.build({
    ...hostOptions,
    absWorkingDir: root,
    entryPoints: { extension: 'src/extension.ts' },
    outdir: 'activation-probe',
    write: false,
    metafile: true,
    logLevel: 'silent',
    plugins: [shareVscodeNamespace, bundleBoundary(root, new Map(), 'extension', { ...featureBundles, network: networkEntry })],
  });
  // A module whose exports activation never uses is tree-shaken away: it is listed with no bytes. A
  // module that is kept keeps its imports of other bundles (Node must load them), and a platform
  // module is shipped whole, so each of its imports counts too.
  const [output] = Object.values(result.metafile.outputs).filter((entry) => entry.entryPoint);
  const pending = Object.entries(output.inputs)
    .filter(([, input]) => input.bytesInOutput > 0)
    .map(([path]) => path);
  const reached = new Set(pending.map(sourceOf).filter(isPlatformHostModule));
  while (pending.length > 0) {
    const path = pending.pop();
    for (const { path: imported, external } of result.metafile.inputs[path]?.imports ?? []) {
      const module = sourceOf(imported);
      if (external || reached.has(module) || !isPlatformHostModule(module)) continue;
      reached.add(module);
      pending.push(imported);
    }
  }
  return reached;
}

/**
 * Keeps each bundle's modules in that bundle, for the build of bundle `self`: a relative import or
 * require of another bundle's entry (a feature's index.ts) or of a module another bundle holds
 * (`sharedModules`: path to bundle) is rewritten to `./<bundle>.js` and left to Node.
 */
export function bundleBoundary(root, sharedModules, self, entries = featureBundles) {
  return {
    name: 'bundle-boundary',
    setup(build) {
      const bundleOfEntry = new Map(Object.entries(entries).map(([bundle, entry]) => [sourceOf(relative(root, resolve(root, entry))), bundle]));
      const bundleOfModule = (path) => sharedModules.get(path) ?? bundleOfEntry.get(path);
      build.onResolve({ filter: /^\.\.?(\/|$)/ }, (args) => {
        if (args.kind === 'entry-point') return undefined;
        const target = resolve(args.resolveDir, args.path);
        for (const candidate of [target, `${target}.ts`, join(target, 'index.ts')]) {
          const bundle = bundleOfModule(sourceOf(relative(root, candidate)));
          if (bundle && bundle !== self) return { path: `./${bundle}.js`, external: true };
          if (bundle) return undefined;
        }
        return undefined;
      });
    },
  };
}

/** The source file (from the root) a relative import of `from` names, found as the lint rules find it. */
function resolveSource(root, from, specifier) {
  const found = resolveImport(join(root, from), specifier);
  return found && sourceOf(relative(root, found));
}

/**
 * The names each shared module must export to the other bundles: those the other bundles' files
 * import from it, or all of them ('all') where a file takes its whole namespace. A shared bundle
 * exports these only, so esbuild leaves out what no other bundle uses (activation reads less).
 */
function namesUsedElsewhere(root, bundleOf) {
  const used = new Map();
  const use = (module, names) => {
    if (used.get(module) === 'all') return;
    if (names === 'all') return void used.set(module, 'all');
    used.set(module, new Set([...(used.get(module) ?? []), ...names]));
  };
  const named = (list) =>
    list
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part && !part.startsWith('type '))
      .map((part) => part.split(/\s+as\s+/)[0]);
  for (const file of hostSources(root)) {
    const text = readFileSync(join(root, file), 'utf8');
    const target = (specifier) => {
      if (!specifier.startsWith('.')) return undefined;
      const module = resolveSource(root, file, specifier);
      return module && bundleOf.has(module) && bundleOf.get(module) !== bundleOf.get(file) ? module : undefined;
    };
    for (const match of text.matchAll(/^(?:import|export)\s+(?!type\b)(?:[\w$]+\s*,\s*)?\{([^}]*)\}\s*from\s*'([^']+)'/gm)) {
      const module = target(match[2]);
      if (module) use(module, named(match[1]));
    }
    for (const match of text.matchAll(/^(?:import\s+(?!type\b)\*\s+as\s+[\w$]+|export\s+\*)\s+from\s*'([^']+)'|\brequire\('([^']+)'\)/gm)) {
      const module = target(match[1] ?? match[2]);
      if (module) use(module, 'all');
    }
  }
  return used;
}

/**
 * Entries for the shared bundles: each exports, of the modules it holds, what the other bundles
 * import (namesUsedElsewhere).
 */
export function sharedBundleEntries(root, modules, bundleOf) {
  const used = namesUsedElsewhere(root, bundleOf);
  const exportsOf = (path) => {
    const names = used.get(path);
    const module = `./${path.replace(/\.ts$/, '')}`;
    if (names === 'all') return `export * from '${module}';`;
    return names ? `export { ${[...names].sort().join(', ')} } from '${module}';` : '';
  };
  return {
    name: 'shared-bundle-entries',
    setup(build) {
      build.onResolve({ filter: /^shared-bundle:/ }, (args) => ({ path: args.path, namespace: 'shared-bundle' }));
      build.onLoad({ filter: /.*/, namespace: 'shared-bundle' }, (args) => {
        const bundle = args.path.slice('shared-bundle:'.length);
        const lines = modules[bundle].map(exportsOf).filter(Boolean);
        // activate() and deactivate(), beside the platform modules the features take from this bundle.
        if (bundle === 'extension') lines.unshift("export * from './src/extension';");
        return { contents: lines.join('\n'), resolveDir: root, loader: 'ts' };
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
