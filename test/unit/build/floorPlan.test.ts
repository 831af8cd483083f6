import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Rule } from 'eslint';

const repoRoot = join(__dirname, '..', '..', '..', '..');

/**
 * The lint rules that hold the floor plan of src/ (README.md, "How it is built"), run on a small
 * tree of their own: each breach of the plan is reported, and a tree that keeps it passes.
 */
describe('the floor plan lint rules', () => {
  let folder: string;
  let lint: (files: Record<string, string>) => Promise<Map<string, string[]>>;

  before(async () => {
    folder = mkdtempSync(join(tmpdir(), 'rl-studio-floor-plan-'));
    const { ESLint: Eslint } = (await import('eslint')) as typeof import('eslint');
    const { default: tseslint } = (await import('typescript-eslint')) as unknown as { default: { parser: unknown } };
    const { featureBoundaries } = (await import(join(repoRoot, 'lint', 'featureBoundaries.mjs'))) as { featureBoundaries: Rule.RuleModule };
    const { importCycles } = (await import(join(repoRoot, 'lint', 'importCycles.mjs'))) as { importCycles: Rule.RuleModule };
    lint = async (files) => {
      // A tree of its own each time: the cycle rule reads each file's imports once per process.
      const tree = mkdtempSync(join(folder, 'tree-'));
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(dirname(join(tree, path)), { recursive: true });
        writeFileSync(join(tree, path), text);
      }
      const eslint = new Eslint({
        cwd: tree,
        overrideConfigFile: true,
        overrideConfig: [
          {
            files: ['**/*.ts'],
            languageOptions: { parser: tseslint.parser as never },
            plugins: { plan: { rules: { 'feature-boundaries': featureBoundaries, 'import-cycles': importCycles } } },
            rules: { 'plan/feature-boundaries': 'error', 'plan/import-cycles': 'error' },
          },
        ],
      });
      const results = await eslint.lintFiles(Object.keys(files));
      return new Map(results.map((result) => [result.filePath.slice(tree.length + 1), result.messages.map((message) => message.message)]));
    };
  });

  after(() => rmSync(folder, { recursive: true, force: true }));

  it('lets a feature use another through its index.ts, and its own rooms freely', async () => {
    const found = await lint({
      'src/chat/index.ts': "export { shortLabel } from './model/labels';\n",
      'src/chat/model/labels.ts': 'export const shortLabel = (id: string) => id.slice(0, 8);\n',
      'src/training/host/useInChat.ts': "import { shortLabel } from '../../chat';\nimport { steps } from '../model/steps';\nexport const label = shortLabel(String(steps));\n",
      'src/training/model/steps.ts': "import { clamp } from '../../platform/kit/numbers';\nexport const steps = clamp(3);\n",
      'src/platform/kit/numbers.ts': 'export const clamp = (value: number) => Math.max(0, value);\n',
    });
    assert.deepEqual([...found.values()].flat(), []);
  });

  it("reports a feature reaching into another's rooms, the platform importing a feature, and a model importing its host", async () => {
    const found = await lint({
      'src/chat/index.ts': 'export {};\n',
      'src/chat/model/labels.ts': 'export const shortLabel = (id: string) => id.slice(0, 8);\n',
      'src/training/host/useInChat.ts': "import { shortLabel } from '../../chat/model/labels';\nexport const label = shortLabel('x');\n",
      'src/platform/kit/names.ts': "import { label } from '../../training/host/useInChat';\nexport const names = [label];\n",
      'src/training/model/steps.ts': "import { label } from '../host/useInChat';\nexport const steps = label.length;\n",
      'src/training/page/main.ts': "import { steps } from '../model/steps';\nimport { label } from '../host/useInChat';\nexport const shown = `${steps} ${label}`;\n",
    });
    assert.match(found.get('src/training/host/useInChat.ts')!.join('\n'), /training reaches into chat's rooms/);
    assert.match(found.get('src/platform/kit/names.ts')!.join('\n'), /the platform depends on no feature/);
    assert.match(found.get('src/training/model/steps.ts')!.join('\n'), /model does not import host/);
    assert.deepEqual(
      found.get('src/training/page/main.ts')!.map((message) => message.split(':')[0]),
      ['page does not import host (training/host/useInChat.ts)'],
    );
  });

  it('reports an import cycle, type-only imports included', async () => {
    const found = await lint({
      'src/rollouts/model/reader.ts': "import type { Summary } from './summary';\nexport const read = (summary: Summary) => summary;\n",
      'src/rollouts/model/summary.ts': "import { read } from './reader';\nexport type Summary = { read: typeof read };\n",
    });
    assert.match(found.get('src/rollouts/model/reader.ts')!.join('\n'), /Import cycle/);
  });

  it("reports a cycle through a feature's index.ts named as '..', and a require inside a function", async () => {
    const found = await lint({
      'src/chat/index.ts': "export { register } from './host/registration';\n",
      'src/chat/host/registration.ts': "import type * as Chat from '..';\nexport const register = () => (require('..') as typeof Chat).register;\n",
    });
    assert.match(found.get('src/chat/index.ts')!.join('\n'), /Import cycle: src\/chat\/index\.ts → src\/chat\/host\/registration\.ts → src\/chat\/index\.ts/);
  });
});
