/**
 * Settings are read one way: every RL Studio setting a feature reads is named in
 * core/settingNames.ts and read through the settings module, and package.json declares each with a
 * description, so the Settings editor explains what a feature reads.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { featureSettingNames } from '../../../../src/platform/host/settingNames';
import { filesEndingWith } from '../../../support/files';

const repoRoot = join(__dirname, '..', '..', '..', '..', '..');

describe('settings, read one way', () => {
  it('package.json declares every setting a feature reads, each with a description', () => {
    const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
      contributes: {
        configuration:
          { properties: Record<string, { description?: string; markdownDescription?: string }> } | Array<{ properties: Record<string, { description?: string; markdownDescription?: string }> }>;
      };
    };
    const sections = Array.isArray(manifest.contributes.configuration) ? manifest.contributes.configuration : [manifest.contributes.configuration];
    const declared = Object.assign({}, ...sections.map((section) => section.properties)) as Record<string, { description?: string; markdownDescription?: string }>;
    for (const name of featureSettingNames) {
      const setting = declared[`rlStudio.${name}`];
      assert.ok(setting, `package.json declares rlStudio.${name}`);
      assert.ok(setting.description || setting.markdownDescription, `rlStudio.${name} has a description`);
    }
  });

  it('only the settings module asks VS Code for a configuration', () => {
    const readers = filesEndingWith(join(repoRoot, 'src'), '.ts').filter((file) => readFileSync(file, 'utf8').includes('getConfiguration('));
    assert.deepEqual(
      readers.map((file) => file.slice(repoRoot.length + 1).replace(/\\/g, '/')),
      ['src/platform/host/settings.ts'],
    );
  });
});
