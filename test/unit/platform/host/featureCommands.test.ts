import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { commandOwners, testOnlyCommands, type CommandOwner } from '../../../../src/platform/host/lazy/featureCommands';
import { sourcesUnder } from '../../../support/files';

const root = join(__dirname, '..', '..', '..', '..', '..');

function declaredCommands(): string[] {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { contributes: { commands: { command: string }[] } };
  return manifest.contributes.commands.map((entry) => entry.command);
}

/**
 * Who a file's command registrations belong to, by where the file is: each feature's folder is
 * its bundle, except its activation.ts (and the payload language's), which is activation glue like
 * the platform's; the payload language's commands are its own part of the webhooks bundle.
 */
function ownerOfFile(file: string): CommandOwner {
  if (file === 'src/extension.ts' || file.startsWith('src/platform/') || /^src\/[^/]+\/activation\.ts$|Activation\.ts$/.test(file)) return 'activation';
  if (file.startsWith('src/webhooks/host/payload/')) return 'payloadLanguage';
  const [, feature] = /^src\/([^/]+)\//.exec(file) ?? [];
  if (feature === 'training' || feature === 'chat' || feature === 'webhooks' || feature === 'evals' || feature === 'localRuns' || feature === 'taskRuns') return feature;
  throw new Error(`${file} registers a command, but its folder has no owner in this test`);
}

describe('the table of commands and who handles them', () => {
  const table = Object.keys(commandOwners);

  it('holds every command of package.json', () => {
    assert.deepEqual(
      declaredCommands().filter((id) => !table.includes(id)),
      [],
    );
  });

  it('holds only commands of package.json, except the test-only ones, which package.json must not declare', () => {
    const declared = declaredCommands();
    const testOnly: readonly string[] = testOnlyCommands;
    assert.deepEqual(
      table.filter((id) => !declared.includes(id) && !testOnly.includes(id)),
      [],
    );
    assert.deepEqual(
      testOnly.filter((id) => declared.includes(id)),
      [],
    );
  });

  it('names the owner that registers each command in src/, and every command of the table is registered there once', () => {
    const registered = new Map<string, string[]>();
    for (const [file, source] of sourcesUnder(join(root, 'src'))) {
      for (const match of source.matchAll(/\bregisterCommand\(\s*'([^']+)'/g)) {
        const id = match[1]!;
        registered.set(id, [...(registered.get(id) ?? []), file]);
        assert.equal((commandOwners as Record<string, CommandOwner>)[id], ownerOfFile(file), `${id} is registered in ${file}`);
      }
    }
    assert.deepEqual(
      table.filter((id) => registered.get(id)?.length !== 1),
      [],
      'commands not registered exactly once in src/',
    );
  });
});
