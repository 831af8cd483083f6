import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { sourcesUnder } from '../../support/files';

const root = join(__dirname, '..', '..', '..', '..');
const metafilePath = join(root, 'out', 'bundles.meta.json');

interface Metafile {
  outputs: Record<string, { entryPoint?: string; inputs: Record<string, { bytesInOutput: number }>; imports: { path: string; external?: boolean }[] }>;
}

/**
 * Files of the features that dist/extension.js holds besides src/extension.ts, src/testApi.ts and
 * each feature's activation.ts, and why: what VS Code must know from the start. Any other file of a
 * feature there is code that activation pulled in by mistake.
 */
const featureFilesOfActivation: Record<string, string> = {
  'src/training/protocol.ts': 'the job details panel type, for its serializer',
  'src/chat/protocol.ts': 'the chat panel type, for its serializer',
  'src/chat/host/languageModelRegistration.ts': "the platform's models, registered in VS Code's chat",
  'src/rollouts/protocol.ts': 'the inspector editor and panel types',
  'src/evals/protocol.ts': 'the report editor type',
  'src/localRuns/protocol.ts': 'the run view panel type, for its serializer',
  'src/taskRuns/protocol.ts': 'the run dashboard panel type, for its serializer',
  'src/evals/host/evalSetFileNames.ts': 'which files the eval set diagnostics watch',
  'src/taskRuns/host/taskFileNames.ts': 'which files the task file diagnostics watch',
  'src/webhooks/host/webhookStore.ts': 'the Webhooks view and the payload language read the webhooks from the start',
  'src/webhooks/model/endpoint.ts': 'the webhook store masks endpoint URLs',
  'src/webhooks/host/reportDocuments.ts': "the test reports' document scheme",
  'src/webhooks/host/payload/payloadLanguageActivation.ts': 'the payload language, registered when a payload opens',
  'src/webhooks/host/payload/payloadPreview.ts': "the preview's document scheme",
  'src/webhooks/host/payload/payloadDiagnostics.ts': 'the name of the diagnostics collection',
  'src/webhooks/host/payload/payloadDocuments.ts': 'which documents are payloads',
  'src/webhooks/host/payload/payloadCore.ts': 'the payload core, loaded on first use',
  'src/webhooks/host/payload/selector.ts': 'the payload document selector',
  'src/webhooks/host/payload/quickFixes.ts': 'the quick fixes, registered with the payload language',
};

/** Each package of node_modules and the bundles that may hold it. */
const packagesByBundle: Record<string, string[]> = {
  undici: ['network.js'],
  'jsonc-parser': ['platformLate.js'],
  // The Parquet reader (src/platform/parquet/), shared by the inspector, the training commands and eval
  // sets, in a bundle of its own: only reading a Parquet file loads it.
  hyparquet: ['parquet.js'],
  'hyparquet-compressors': ['parquet.js'],
  fzstd: ['parquet.js'],
  hysnappy: ['parquet.js'],
};

/** The source file a relative import or require names, as esbuild resolves it. */
function resolveSource(file: string, specifier: string): string | undefined {
  const base = join(dirname(join(root, file)), specifier);
  for (const candidate of [base, `${base}.ts`, join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return relative(root, candidate).replace(/\\/g, '/');
  }
  return undefined;
}

/** The index just past the parenthesis that closes the one opened at `open`. */
function closingParen(source: string, open: number): number {
  let depth = 0;
  for (let index = open; index < source.length; index++) {
    if (source[index] === '(') depth++;
    else if (source[index] === ')' && --depth === 0) return index + 1;
  }
  return source.length;
}

/**
 * The host bundles as `node esbuild.mjs` built them (esbuild's metafile): which source files and
 * packages each holds. dist/extension.js is what activation loads, so it must hold the activation
 * glue and nothing a feature needs only later.
 */
describe('bundle contents', () => {
  let bundles: Map<string, { entry: string; inputs: string[]; external: string[] }>;

  before(() => {
    assert.ok(existsSync(metafilePath), 'out/bundles.meta.json is missing: run `node esbuild.mjs` first');
    const metafile = JSON.parse(readFileSync(metafilePath, 'utf8')) as Metafile;
    bundles = new Map(
      Object.entries(metafile.outputs)
        .filter(([output, bundle]) => output.endsWith('.js') && bundle.entryPoint)
        .map(([output, bundle]) => [
          output.replace(/^dist\//, ''),
          {
            entry: bundle.entryPoint!,
            inputs: Object.entries(bundle.inputs)
              .filter(([, input]) => input.bytesInOutput > 0)
              .map(([input]) => input),
            external: bundle.imports.filter((entry) => entry.external).map((entry) => entry.path),
          },
        ]),
    );
  });

  const bundle = (name: string) => {
    const found = bundles.get(name);
    assert.ok(found, `dist/${name} was not built`);
    return found;
  };

  it('dist/extension.js holds the activation glue and the platform modules it runs, no feature code', () => {
    const unexpected = bundle('extension.js').inputs.filter((input) => {
      if (input === 'src/extension.ts' || input === 'src/testApi.ts' || input === 'vscode-shared:vscode' || input.startsWith('shared-bundle:')) return false;
      if (/^src\/[^/]+\/activation\.ts$/.test(input) || input in featureFilesOfActivation || input.startsWith('src/platform/')) return false;
      return true; // a feature's code, or node_modules
    });
    assert.deepEqual(unexpected, []);
  });

  it('ships every module of the platform and of the features once: no bundle copies what another holds', () => {
    const holders = new Map<string, string[]>();
    for (const [name, { inputs }] of bundles) for (const input of inputs) holders.set(input, [...(holders.get(input) ?? []), name]);
    const copied = [...holders]
      .filter(([input, names]) => names.length > 1 && input !== 'vscode-shared:vscode' && !(input in featureFilesOfActivation && names.length === 2 && names.includes('extension.js')))
      .map(([input, names]) => `${input} in ${names.join(', ')}`);
    assert.deepEqual(copied, []);
  });

  it('gives every bundle the platform modules activation runs from dist/extension.js, which requires no platform bundle', () => {
    assert.deepEqual(
      bundle('extension.js').external.filter((path) => path === './platformLate.js'),
      [],
    );
    for (const name of ['network.js', 'training.js', 'chat.js', 'platformLate.js']) {
      assert.ok(bundle(name).external.includes('./extension.js'), `dist/${name} does not require ./extension.js`);
    }
  });

  it('holds each package of node_modules only in the bundles that need it: undici in dist/network.js alone', () => {
    for (const [name, { inputs }] of bundles) {
      const packages = new Set(inputs.filter((input) => input.includes('node_modules/')).map((input) => input.split('node_modules/').pop()!.split('/')[0]!));
      for (const found of packages) assert.ok(packagesByBundle[found]?.includes(name), `dist/${name} holds ${found}`);
    }
    assert.ok(
      bundle('network.js').inputs.some((input) => input.includes('node_modules/undici/')),
      'undici is not in dist/network.js',
    );
  });

  it('holds the PlatformError class in dist/extension.js alone, so that `instanceof` holds in every bundle', () => {
    for (const [name, { inputs }] of bundles) {
      assert.equal(inputs.includes('src/platform/client/errors.ts'), name === 'extension.js', `dist/${name}`);
    }
  });

  it("copies no bundle's entry into another bundle", () => {
    for (const [name, { entry }] of bundles) {
      const holders = [...bundles].filter(([other, { inputs }]) => other !== name && inputs.includes(entry)).map(([other]) => other);
      assert.deepEqual(holders, [], `${entry} (dist/${name})`);
    }
  });

  it('loads every feature one way at activation: its entry is required inside onFirstUse(...), never imported by what activation runs', () => {
    const entries = new Map([...bundles].map(([name, { entry }]) => [entry, name]));
    const lateParts = [...bundles.keys()].filter((name) => !['extension.js', 'platformLate.js', 'network.js', 'parquet.js', 'scoring.js'].includes(name));
    const loaded = new Set<string>();
    const problems: string[] = [];
    // A feature may import another's index.ts (its bundle then loads with it); activation may not.
    const activation = new Set(bundle('extension.js').inputs);
    for (const [file, source] of sourcesUnder(join(root, 'src'))) {
      const loaders = [...source.matchAll(/\bonFirstUse\(/g)].map((match) => [match.index!, closingParen(source, match.index! + 'onFirstUse'.length)]);
      for (const match of source.matchAll(/\brequire\('(\.[^']*)'\)/g)) {
        const part = entries.get(resolveSource(file, match[1]!) ?? '');
        if (!part) continue;
        if (loaders.some(([start, end]) => match.index! > start! && match.index! < end!)) loaded.add(part);
        else problems.push(`${file} requires ${part} outside onFirstUse`);
      }
      for (const match of source.matchAll(/^import (?!type\b)[^;]*? from '(\.[^']+)';/gm)) {
        const part = entries.get(resolveSource(file, match[1]!) ?? '');
        if (part && activation.has(file)) problems.push(`${file} imports ${part}, which would load it with ${file}`);
      }
    }
    assert.deepEqual(problems, []);
    assert.deepEqual(lateParts.filter((part) => !loaded.has(part)).sort(), [], 'bundles no onFirstUse loads');
  });
});
