/**
 * A cloned repository's `.vscode/settings.json` names the API addresses: the built extension, in a
 * Node stand-in of VS Code, must not send the user's key (or anything else) there until the user
 * allowed that origin, and must never use plain http to another machine.
 */
import { strict as assert } from 'node:assert';
import { ExtensionMode, FakeHost, extensionContext, loadExtension, manifestDefaults, turnOff, useHost, type ExtensionContextLike } from './support/trustHost';
import { assertOnlyThisMachine, watchConnections } from '../support/connections';
import { startRecordingServer, type RecordingServer } from './support/trustServer';

const storedKey = 'rls-stored-key-4f1c9e0d7a2b';
const typedKey = 'rls-typed-key-8b3e6a1f5c0d';

describe('trust: API addresses a workspace sets', function () {
  this.timeout(30_000);
  let server: RecordingServer;
  let other: RecordingServer | undefined;
  let host: FakeHost;
  let context: ExtensionContextLike | undefined;

  beforeEach(async () => {
    server = await startRecordingServer();
    host = new FakeHost(manifestDefaults());
    useHost(host);
  });

  afterEach(async () => {
    if (context) turnOff(context);
    context = undefined;
    await server.close();
    await other?.close();
    other = undefined;
  });

  async function activate(mode: number = ExtensionMode.Production, apiKey: string | undefined = storedKey): Promise<unknown> {
    context = await extensionContext(mode, apiKey);
    return loadExtension().activate(context);
  }

  const healthItem = () => host.statusItems[0]!;
  const question = () => `This workspace sets the training and inference APIs to ${server.url}. Send your RL Studio API key there?`;

  it('workspace-set addresses with a signed-in user: no request of any kind reaches them, not even with a newly typed key, until the user allows the origin; then the key does', async () => {
    host.settings.workspace['rlStudio.trainingApiUrl'] = server.trainingUrl;
    host.settings.workspace['rlStudio.inferenceApiUrl'] = server.inferenceUrl;
    await activate();

    await host.waitFor('the question naming the origin', () => host.messages.some((message) => message.message === question()));
    // The health check that used to send the key ~1.7 s after activation ran, and found nothing to check.
    await host.waitFor('the scheduled health check', () => healthItem().hidden > 0);
    const summary = (await host.executeCommand('rlStudio.checkHealth')) as { level: string };
    assert.equal(summary.level, 'unknown');
    assert.deepEqual(await host.treeViews.get('rlStudio.models')!.treeDataProvider.getChildren(), []);
    assert.equal(host.contextKeys.get('rlStudio.workspaceSettingsPending'), true);
    assert.equal(host.contextKeys.get('rlStudio.configured'), false);

    // Signing in checks a typed key against the inference API in use: there is none yet.
    host.answer(/RL Studio: Sign In/, typedKey);
    assert.equal(await host.executeCommand('rlStudio.signIn'), true);
    assert.deepEqual(server.calls, [], 'requests before the origin was allowed');
    assert.equal(server.sockets.opened, 0, 'connections before the origin was allowed');

    host.answer(/^This workspace sets/, 'Allow');
    await server.waitFor('the key on a request to the allowed origin', () => server.calls.some((call) => call.path === '/inference/v1/models' && call.authorization === `Bearer ${typedKey}`));
    assert.deepEqual(context!.globalState.get('rlStudio.trust.approved'), [`origin:${server.url}`]);
    assert.equal(host.contextKeys.get('rlStudio.workspaceSettingsPending'), false);
  });

  it('workspace-set addresses in Restricted Mode (an untrusted workspace): not even asked about, never used', async () => {
    host.trusted = false;
    host.settings.workspace['rlStudio.trainingApiUrl'] = server.trainingUrl;
    host.settings.workspace['rlStudio.inferenceApiUrl'] = server.inferenceUrl;
    await activate();
    await host.waitFor('the scheduled health check', () => healthItem().hidden > 0);
    assert.equal(host.contextKeys.get('rlStudio.workspaceSettingsPending'), false);
    assert.equal(host.contextKeys.get('rlStudio.configured'), false);
    assert.deepEqual(
      host.messages.map((message) => message.message),
      [],
    );
    assert.deepEqual(server.calls, []);
  });

  it('a workspace address declined with "Use My Own Settings": the user\'s own server gets the calls, the workspace\'s gets nothing', async () => {
    other = await startRecordingServer();
    host.settings.user['rlStudio.trainingApiUrl'] = other.trainingUrl;
    host.settings.user['rlStudio.inferenceApiUrl'] = other.inferenceUrl;
    host.settings.workspace['rlStudio.inferenceApiUrl'] = server.inferenceUrl;
    host.answer(/^This workspace sets/, 'Use My Own Settings');
    await activate();

    const own = other;
    await own.waitFor("the health check at the user's own inference API, with the key", () =>
      own.calls.some((call) => call.path === '/inference/v1/models' && call.authorization === `Bearer ${storedKey}`),
    );
    assert.ok(host.messages.some((message) => message.message === `This workspace sets the inference API to ${server.url}. Send your RL Studio API key there?`));
    assert.deepEqual(context!.workspaceState.get('rlStudio.trust.declined'), [`origin:${server.url}`]);
    assert.equal(context!.globalState.get('rlStudio.trust.approved'), undefined);
    assert.deepEqual(server.calls, []);
    assert.equal(server.sockets.opened, 0);
  });

  it('http:// to another machine, in user or workspace settings: refused with a message, no connection attempted, while loopback http works', async () => {
    const connections = watchConnections();
    try {
      host.settings.user['rlStudio.trainingApiUrl'] = 'http://192.0.2.10:8080/v1';
      host.settings.user['rlStudio.inferenceApiUrl'] = server.inferenceUrl;
      host.settings.workspace['rlStudio.project'] = 'team/project';
      await activate();
      host.setSetting('workspace', 'rlStudio.trainingApiUrl', 'http://198.51.100.7/v1');

      await host.waitFor('the refusals', () => host.messages.filter((message) => /allowed only for this machine/.test(message.message)).length === 2);
      const summary = (await host.executeCommand('rlStudio.checkHealth')) as { level: string; detail: string[] };
      assert.match(summary.detail.join('\n'), /\*\*Training API\*\*: not configured/);
      // The loopback inference API was reached: connections are seen when they happen.
      await server.waitFor('the health check of the loopback inference API', () => server.calls.some((call) => call.path === '/inference/v1/models'));
      assertOnlyThisMachine(connections);
      const refusals = host.messages.filter((message) => /allowed only for this machine/.test(message.message)).map((message) => message.message);
      assert.ok(refusals.some((text) => text.includes('"http://192.0.2.10:8080/v1" from your settings')));
      assert.ok(refusals.some((text) => text.includes('"http://198.51.100.7/v1" from this workspace\'s settings')));
    } finally {
      connections.stop();
    }
  });

  it('a workspace project, until allowed: the inference calls go without it, then with it', async () => {
    host.settings.user['rlStudio.inferenceApiUrl'] = server.inferenceUrl;
    host.settings.workspace['rlStudio.project'] = 'their-team/their-project';
    await activate();
    await host.waitFor('the question about the project', () =>
      host.messages.some((message) => message.message === 'This workspace sets the RL Studio project to their-team/their-project, sent with your API key to attribute usage. Use it?'),
    );
    await server.waitFor('the health check', () => server.calls.length > 0);
    assert.deepEqual(
      server.calls.map((call) => call.project),
      [undefined],
      'the project header before it was allowed',
    );

    host.answer(/^This workspace sets the RL Studio project/, 'Allow');
    await server.waitFor('an inference call with the allowed project', () => server.calls.some((call) => call.project === 'their-team/their-project'));
  });
});
