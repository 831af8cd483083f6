import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { testOnlyCommands } from '../../src/platform/host/lazy/featureCommands';
import { activateExtension, extensionId, packageManifest } from './helpers/extension';
import { connectToEmulator, type ConnectedPlatform } from './helpers/platform';
import { treeLabels } from './helpers/tree';
import { waitUntil } from './helpers/waitUntil';

describe('RL Studio in a real VS Code', () => {
  it('activates and returns its API', async () => {
    const api = await activateExtension();
    assert.ok(vscode.extensions.getExtension(extensionId)?.isActive, 'the extension is active');
    assert.equal(typeof api.views.models.getChildren, 'function');
    assert.equal(typeof api.views.jobs.getChildren, 'function');
    assert.ok(Array.isArray(api.recentLogLines()));
    assert.equal(typeof api.storedState(), 'object');
  });

  it('registers every command of package.json, and no other rlStudio command', async () => {
    await activateExtension();
    const manifest = packageManifest();
    const declared = manifest.contributes.commands.map((entry) => entry.command).sort();
    // The workbench registers focus/open/... commands for every view; those are not the extension's.
    const viewIds = Object.values(manifest.contributes.views)
      .flat()
      .map((view) => view.id);
    const workbenchCommandOfView = (id: string) => viewIds.some((viewId) => id.startsWith(`${viewId}.`));
    // Commands that exist only while the extension runs its own tests, never in package.json.
    const testOnly: readonly string[] = testOnlyCommands;
    assert.deepEqual(
      declared.filter((id) => testOnly.includes(id)),
      [],
      'test-only commands declared in package.json',
    );
    const registered = (await vscode.commands.getCommands(true)).filter((id) => id.startsWith('rlStudio.') && !workbenchCommandOfView(id) && !testOnly.includes(id)).sort();
    assert.deepEqual(
      declared.filter((id) => !registered.includes(id)),
      [],
      'commands declared in package.json but not registered',
    );
    assert.deepEqual(
      registered.filter((id) => !declared.includes(id)),
      [],
      'rlStudio commands registered but missing from package.json',
    );
  });

  it('knows every rlStudio setting with the default of package.json', () => {
    const properties = packageManifest().contributes.configuration.properties;
    const config = vscode.workspace.getConfiguration('rlStudio');
    for (const [key, schema] of Object.entries(properties)) {
      const name = key.slice('rlStudio.'.length);
      assert.ok(config.has(name), `${key} is known to VS Code`);
      assert.deepEqual(config.inspect(name)?.defaultValue, schema.default, `default of ${key}`);
    }
  });
});

describe('RL Studio against the platform emulator', () => {
  let platform: ConnectedPlatform;

  before(async () => {
    platform = await connectToEmulator();
  });

  after(async () => {
    await platform?.disconnect();
  });

  function seeded() {
    const ids = platform.emulator.seeded;
    assert.ok(ids, 'the emulator was seeded');
    return ids;
  }

  const modelLabels = () => treeLabels(platform.api.views.models);
  const containsAll = (labels: string[], wanted: string[]) => wanted.every((id) => labels.includes(id));

  it('fills the Models view with the inference catalogue once signed in', async () => {
    const inferenceModels = seeded().inferenceModels;
    assert.ok(inferenceModels.length > 0, 'the emulator seeds inference models');
    await waitUntil('the seeded inference models in the Models view', modelLabels, (labels) => containsAll(labels, inferenceModels));
  });

  it('sends the key it keeps in secret storage to the platform', async () => {
    await modelLabels(); // reading the view asks for the catalogue
    const catalogueCalls = platform.emulator.requests.filter((request) => request.path.includes('/inference/v1/models'));
    assert.ok(catalogueCalls.length > 0, 'the Models view asked the inference API for its catalogue');
    for (const call of catalogueCalls) {
      assert.equal(call.headers.authorization, `Bearer ${platform.emulator.apiKey}`, `${call.method} ${call.path}`);
    }
  });

  it('keeps the key out of its log, its settings and its stored state', () => {
    const key = platform.emulator.apiKey;
    const lines = platform.api.recentLogLines();
    assert.ok(lines.length > 0, 'the log records what the extension did');
    assert.deepEqual(
      lines.filter((line) => line.includes(key)),
      [],
      'log lines holding the key',
    );

    const config = vscode.workspace.getConfiguration('rlStudio');
    for (const setting of Object.keys(packageManifest().contributes.configuration.properties)) {
      const inspected = config.inspect(setting.slice('rlStudio.'.length));
      assert.ok(!JSON.stringify(inspected ?? {}).includes(key), `the value of ${setting} holds the key`);
    }
    assert.ok(!JSON.stringify(platform.api.storedState()).includes(key), 'the stored state holds the key');
  });

  it('empties the views when signed out, and fills them again when signed in', async () => {
    const inferenceModels = seeded().inferenceModels;
    await platform.signOut();
    const callsAfterSignOut = platform.emulator.requests.length;
    await waitUntil('an empty Models view after sign-out', modelLabels, (labels) => inferenceModels.every((id) => !labels.includes(id)));
    // Reading both views, as the workbench does after a refresh, must not use the forgotten key.
    await vscode.commands.executeCommand('rlStudio.refreshModels');
    await vscode.commands.executeCommand('rlStudio.refreshJobs');
    await treeLabels(platform.api.views.models);
    await treeLabels(platform.api.views.jobs);
    const keyedCalls = platform.emulator.requests.slice(callsAfterSignOut).filter((request) => request.headers.authorization === `Bearer ${platform.emulator.apiKey}`);
    assert.deepEqual(
      keyedCalls.map((request) => `${request.method} ${request.path}`),
      [],
      'calls made with the key after sign-out',
    );

    await platform.signIn();
    await waitUntil('the inference models back after signing in again', modelLabels, (labels) => containsAll(labels, inferenceModels));
  });

  it('shows a training model in the Models view once it is added', async () => {
    const { trainedModelId, trainedModelName } = seeded();
    await vscode.commands.executeCommand('rlStudio.addModel', trainedModelId);
    await waitUntil('the added training model in the Models view', modelLabels, (labels) => labels.some((label) => label === trainedModelName || label === trainedModelId));
  });
});
