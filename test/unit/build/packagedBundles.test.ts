import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..', '..');

/** What `vsce package` puts in the .vsix, as .vscodeignore selects it from the built files. */
describe('packaged files', () => {
  let packaged: string[];

  before(() => {
    assert.ok(existsSync(join(root, 'dist', 'extension.js')), 'dist/extension.js is missing: run `node esbuild.mjs` first');
    const vsce = join(root, 'node_modules', '.bin', 'vsce');
    packaged = execFileSync(vsce, ['ls', '--no-dependencies'], { cwd: root, encoding: 'utf8', timeout: 60_000 })
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '');
  });

  it('holds every bundle the extension host and the webviews may load', () => {
    const bundles = [
      ...readdirSync(join(root, 'dist'))
        .filter((name) => name.endsWith('.js'))
        .map((name) => `dist/${name}`),
      ...readdirSync(join(root, 'media', 'dist'))
        .filter((name) => name.endsWith('.js'))
        .map((name) => `media/dist/${name}`),
    ];
    assert.ok(bundles.includes('dist/extension.js') && bundles.includes('dist/network.js'));
    assert.deepEqual(
      bundles.filter((bundle) => !packaged.includes(bundle)),
      [],
    );
  });

  it('holds no source map, source or test file', () => {
    assert.deepEqual(
      packaged.filter((file) => /\.map$|\.ts$|^(src|test|out|node_modules)\//.test(file)),
      [],
    );
  });

  it('holds the manifest and what it points at', () => {
    for (const file of ['package.json', 'README.md', 'media/rl-studio.svg', 'media/syntaxes/rl-payload.tmLanguage.json', 'media/schemas/automation.schema.json']) {
      assert.ok(packaged.includes(file), `${file} is not packaged`);
    }
  });
});
