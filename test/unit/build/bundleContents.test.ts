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
 * Pure files the activation glue runs, and why; any other file of the pure layers in
 * dist/extension.js is feature code that activation pulled in by mistake.
 */
const pureFilesOfActivation: Record<string, string> = {
  'src/platform/client/redact.ts': 'every log line is redacted',
  'src/platform/client/describeFailure.ts': 'the health state and every error message describe failures',
  'src/platform/client/baseUrl.ts': 'failure messages name the API by host and port',
  'src/platform/health/health.ts': 'the status bar shows the health state from activation on',
  'src/platform/health/healthMonitor.ts': 'the status bar checks the health in the background',
  'src/platform/kit/clock.ts': 'the health state and its monitor read the time through it',
  'src/platform/kit/markdownText.ts': 'the status bar tooltip escapes the failure text it shows',
  'src/platform/kit/format.ts': 'the failure words put waits and server reasons on one line',
  'src/platform/client/errorMessage.ts': 'the log and the status bar put any thrown value into words',
  'src/webhooks/model/endpoint.ts': 'the webhook store, opened at activation, masks endpoint URLs',
};

/** Glue files in a feature's folder that activation registers with: constants only. */
const featureFilesOfActivation: Record<string, string> = {
  'src/training/host/jobs/jobDetailsViewType.ts': 'the job details panel type, for its serializer',
};

/** Each package of node_modules and the bundles that may hold it. */
const packagesByBundle: Record<string, string[]> = {
  undici: ['network.js'],
  'jsonc-parser': ['payloadCore.js', 'sidebar.js', 'evals.js', 'agent.js'],
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

  it('dist/extension.js holds the activation glue only', () => {
    const unexpected = bundle('extension.js').inputs.filter((input) => {
      if (input === 'src/extension.ts' || input === 'vscode-shared:vscode') return false;
      if (input in pureFilesOfActivation || input in featureFilesOfActivation) return false;
      if (!input.startsWith('src/vscode/')) return true; // a pure layer, or node_modules
      return /^src\/vscode\/(sidebar\/models|sidebar\/jobs|webviews|rollouts\/(?!rolloutsActivation|rolloutsViewTypes)|evals\/(?!evalsActivation|evalsViewTypes|evalSetFileNames))|Feature\.ts$/.test(
        input,
      );
    });
    assert.deepEqual(unexpected, []);
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

  it('holds the PlatformError class in dist/errors.js alone, which loads nothing else', () => {
    for (const [name, { inputs }] of bundles) {
      assert.equal(inputs.includes('src/platform/client/errors.ts'), name === 'errors.js', `dist/${name}`);
    }
    assert.deepEqual(bundle('errors.js').external, []);
    for (const name of ['network.js', 'sidebar.js', 'extension.js']) {
      assert.ok(bundle(name).external.includes('./errors.js'), `dist/${name} does not require ./errors.js`);
    }
  });

  it("copies no bundle's entry into another bundle", () => {
    for (const [name, { entry }] of bundles) {
      const holders = [...bundles].filter(([other, { inputs }]) => other !== name && inputs.includes(entry)).map(([other]) => other);
      assert.deepEqual(holders, [], `${entry} (dist/${name})`);
    }
  });

  it('loads every late part one way: its entry is required inside onFirstUse(...) and imported nowhere', () => {
    const entries = new Map([...bundles].map(([name, { entry }]) => [entry, name]));
    const lateParts = [...bundles.keys()].filter((name) => name !== 'extension.js' && name !== 'errors.js');
    const loaded = new Set<string>();
    const problems: string[] = [];
    for (const [file, source] of sourcesUnder(join(root, 'src'))) {
      const loaders = [...source.matchAll(/\bonFirstUse\(/g)].map((match) => [match.index!, closingParen(source, match.index! + 'onFirstUse'.length)]);
      for (const match of source.matchAll(/\brequire\('(\.[^']+)'\)/g)) {
        const part = entries.get(resolveSource(file, match[1]!) ?? '');
        if (!part) continue;
        if (loaders.some(([start, end]) => match.index! > start! && match.index! < end!)) loaded.add(part);
        else problems.push(`${file} requires ${part} outside onFirstUse`);
      }
      for (const match of source.matchAll(/^import (?!type\b)[^;]*? from '(\.[^']+)';/gm)) {
        const part = entries.get(resolveSource(file, match[1]!) ?? '');
        if (part && part !== 'errors.js') problems.push(`${file} imports ${part}, which would load it with ${file}`);
      }
    }
    assert.deepEqual(problems, []);
    assert.deepEqual(lateParts.filter((part) => !loaded.has(part)).sort(), [], 'bundles no onFirstUse loads');
  });
});
