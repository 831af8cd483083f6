/**
 * Another extension plays against the built extension: it walks whatever activate() returned
 * (vscode.extensions.getExtension('rl-studio.rl-studio').exports) and calls its commands with
 * arguments of its choosing. In a normal install (ExtensionMode.Production) it must reach no
 * secret and pre-answer no question.
 */
import { strict as assert } from 'node:assert';
import { ExtensionMode, FakeHost, extensionContext, loadExtension, manifestDefaults, turnOff, useHost, type ExtensionContextLike } from './support/trustHost';
import { walkReachable } from './support/trustWalk';

const apiKey = 'rls-exports-key-1d8f3a6c2e9b';
const webhookToken = 'whk-token-5e2a9c7d1f3b';

describe('trust: what other extensions reach', function () {
  this.timeout(20_000);
  let host: FakeHost;
  let context: ExtensionContextLike | undefined;

  beforeEach(() => {
    host = new FakeHost(manifestDefaults());
    useHost(host);
  });

  afterEach(() => {
    if (context) turnOff(context);
    context = undefined;
  });

  async function activate(mode: number): Promise<unknown> {
    context = await extensionContext(mode, apiKey);
    await context.secrets.store('rlStudio.webhook.w1.accessToken', webhookToken);
    const exported = loadExtension().activate(context);
    // The key is read from secret storage in the background: let it arrive before walking.
    await host.waitFor('the key to be read', () => host.contextKeys.get('rlStudio.signedIn') === true);
    return exported;
  }

  function secretsReachableFrom(exported: unknown) {
    const targets = new Set<unknown>([context, context!.secrets, context!.globalState, context!.workspaceState]);
    return walkReachable(exported, (value) =>
      targets.has(value) || (typeof value === 'string' && (value.includes(apiKey) || value.includes(webhookToken))),
    );
  }

  it('an extension walking the exports deeply (getters, prototypes, maps) in a normal install: reaches nothing', async () => {
    const exported = await activate(ExtensionMode.Production);
    const reached = secretsReachableFrom(exported);
    assert.deepEqual(reached.paths, []);
    assert.equal(exported, undefined, 'a normal install exports nothing');
  });

  it('the same walk under the extension\'s own tests (ExtensionMode.Test) finds the test API and what it holds: the walk does see secrets when they are there', async () => {
    const exported = (await activate(ExtensionMode.Test)) as { views?: unknown; dialogs?: unknown; disposeAll?: unknown };
    assert.equal(typeof exported.disposeAll, 'function');
    assert.ok(exported.dialogs, 'the dialogs to answer');
    const reached = secretsReachableFrom(exported);
    assert.ok(reached.paths.length > 0, `the walk visited ${reached.visited} objects and found nothing`);
  });

  it('another extension runs Sign In with a key of its choosing: the key is not stored, the password box asks the user', async () => {
    await activate(ExtensionMode.Production);
    host.answer(/RL Studio: Sign In/, undefined);
    assert.equal(await host.executeCommand('rlStudio.signIn', 'planted-key-000000'), false);
    assert.equal(await context!.secrets.get('rlStudio.apiKey'), apiKey);
    assert.deepEqual(host.inputBoxes, [{ title: 'RL Studio: Sign In', password: true }]);
  });

  it('another extension removes a webhook with confirmed=true and sets its token: the user is asked each time, nothing changes without an answer', async () => {
    await activate(ExtensionMode.Production);
    const webhook = { id: 'w1', name: 'deploy-hook', url: 'https://hooks.example.com/deploy', hasAccessToken: true };
    await (context!.globalState as unknown as { update(key: string, value: unknown): Promise<void> }).update('rlStudio.webhooks', [webhook]);
    host.answer(/^Remove the webhook/, undefined);
    host.answer(/^Access token of/, undefined);

    assert.equal(await host.executeCommand('rlStudio.webhook.remove', 'w1', true), false);
    const confirmation = host.messages.find((message) => message.message.startsWith('Remove the webhook "deploy-hook"'));
    assert.ok(confirmation?.modal, 'a modal confirmation was shown');
    assert.deepEqual(context!.globalState.get('rlStudio.webhooks'), [webhook]);

    await host.executeCommand('rlStudio.webhook.setAccessToken', 'w1', 'planted-token-000000');
    assert.ok(host.inputBoxes.some((box) => box.title === 'Access token of deploy-hook' && box.password));
    assert.equal(await context!.secrets.get('rlStudio.webhook.w1.accessToken'), webhookToken);
  });

  it('another extension starts the local receiver with a secret of its choosing: the user is asked, and the caller does not get the receiver (nor the requests it records)', async () => {
    await activate(ExtensionMode.Production);
    host.answer(/^Start Local Receiver$/, 'Do not check signatures');
    const started = await host.executeCommand('rlStudio.webhook.startReceiver', { secret: 'planted-secret', quiet: true, port: 0 });
    try {
      assert.deepEqual(host.quickPicks.map((pick) => pick.title), ['Start Local Receiver'], 'the user chose the secret');
      await host.waitFor('the receiver to run', () => host.contextKeys.get('rlStudio.receiverRunning') === true);
      assert.equal(started, undefined);
    } finally {
      await host.executeCommand('rlStudio.webhook.stopReceiver');
    }
  });
});
