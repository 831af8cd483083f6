/**
 * Trust in a real VS Code: a workspace's settings naming the API addresses, plain http to another
 * machine, server text in tooltips, and the extension turned off in the middle of its work, each
 * against a recording server on 127.0.0.1 that sees every request, header and socket.
 *
 * The last case turns the extension off for good (its test API disposes everything it
 * registered), so this file runs last (mocha loads the files in name order) and that case last.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import MarkdownIt from 'markdown-it';
import { startRecordingServer, type RecordingServer } from '../fault/support/trustServer';
import { untilNothingArmed, watchArmedTimers, watchRequestsTo } from '../support/afterTurningOff';
import { assertOnlyThisMachine, watchConnections } from '../support/connections';
import { activateExtension, type RlStudioApi } from './helpers/extension';
import { uniqueApiKey } from './helpers/platform';
import { waitUntil } from './helpers/waitUntil';

const endpointSettings = ['trainingApiUrl', 'inferenceApiUrl', 'project', 'pollingIntervalSeconds'] as const;
type Layer = vscode.ConfigurationTarget.Global | vscode.ConfigurationTarget.Workspace;

describe('Trust: workspace settings, plain http, tooltips and turning off', function () {
  this.timeout(90_000);
  let api: RlStudioApi;
  let server: RecordingServer;
  const config = () => vscode.workspace.getConfiguration('rlStudio');

  async function setLayer(layer: Layer, values: Partial<Record<(typeof endpointSettings)[number], unknown>>): Promise<void> {
    for (const name of endpointSettings) await config().update(name, values[name], layer);
  }

  async function signIn(key: string): Promise<void> {
    await vscode.commands.executeCommand('rlStudio.signIn', key);
  }

  /** Writes the workspace's .vscode/settings.json in one go, as a cloned repository brings it. */
  async function writeWorkspaceSettings(values: Record<string, unknown>): Promise<void> {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the tests run with a folder open');
    const file = vscode.Uri.joinPath(folder.uri, '.vscode', 'settings.json');
    await vscode.workspace.fs.writeFile(file, Buffer.from(JSON.stringify(values, null, 2)));
  }

  before(async () => {
    api = await activateExtension();
    await setLayer(vscode.ConfigurationTarget.Global, {});
    await setLayer(vscode.ConfigurationTarget.Workspace, {});
  });

  beforeEach(async () => {
    server = await startRecordingServer();
  });

  afterEach(async () => {
    await setLayer(vscode.ConfigurationTarget.Workspace, {});
    await setLayer(vscode.ConfigurationTarget.Global, {});
    await server.close();
  });

  it('a workspace sets both API addresses while the user is signed in: no request, no key, until the user allows that origin; then the key goes there', async () => {
    const key = uniqueApiKey();
    await signIn(key);
    const question = `This workspace sets the training and inference APIs to ${server.url}. Send your RL Studio API key there?`;
    // The notification is dismissed: the addresses stay unused.
    api.dialogs.answerNext(undefined);
    await writeWorkspaceSettings({ 'rlStudio.trainingApiUrl': server.trainingUrl, 'rlStudio.inferenceApiUrl': server.inferenceUrl });
    await waitUntil(
      'the question naming the origin',
      () => api.dialogs.asked.map((asked) => asked.message),
      (messages) => messages.includes(question),
    );
    assert.deepEqual(api.settingsInUse().pending, [`trainingApiUrl ${server.url}`, `inferenceApiUrl ${server.url}`]);
    assert.equal(api.settingsInUse().settings.inferenceApiUrl, '');

    // Everything that used to send the key there: the health check, the Models view, signing in again.
    const health = (await vscode.commands.executeCommand('rlStudio.checkHealth')) as { level: string };
    assert.equal(health.level, 'unknown');
    assert.deepEqual(await api.views.models.getChildren(), []);
    const typed = uniqueApiKey();
    await vscode.commands.executeCommand('rlStudio.signIn', typed);
    assert.deepEqual(
      server.calls.map((call) => `${call.method} ${call.path}`),
      [],
      'requests before the origin was allowed',
    );
    assert.equal(server.sockets.opened, 0, 'connections before the origin was allowed');

    api.dialogs.answerNext('Allow');
    assert.equal(await vscode.commands.executeCommand('rlStudio.reviewWorkspaceSettings'), true);
    await waitUntil(
      'the allowed addresses in use',
      () => api.settingsInUse().settings.inferenceApiUrl,
      (url) => url === server.inferenceUrl,
    );
    await vscode.commands.executeCommand('rlStudio.checkHealth');
    await server.waitFor('the key on a request to the allowed origin', () => server.calls.some((call) => call.path === '/inference/v1/models' && call.authorization === `Bearer ${typed}`));
    assert.ok(server.calls.every((call) => call.authorization === undefined || call.authorization === `Bearer ${typed}`));
    await vscode.commands.executeCommand('rlStudio.signOut');
  });

  it("http:// to another machine in the user's settings: refused with a message, no connection attempted, while loopback http is used", async () => {
    const connections = watchConnections();
    try {
      await signIn(uniqueApiKey());
      await setLayer(vscode.ConfigurationTarget.Global, { trainingApiUrl: 'http://192.0.2.10:8080/v1', inferenceApiUrl: server.inferenceUrl });
      await waitUntil(
        'the refusal',
        () => api.settingsInUse().refused,
        (refused) => refused.some((line) => line.startsWith('trainingApiUrl http://192.0.2.10:8080/v1: http:// is allowed only for this machine')),
      );
      await waitUntil(
        'the refusal shown',
        () => api.dialogs.shown,
        (shown) => shown.some((text) => text.includes('"http://192.0.2.10:8080/v1" from your settings')),
      );
      const health = (await vscode.commands.executeCommand('rlStudio.checkHealth')) as { detail: string[] };
      assert.match(health.detail.join('\n'), /\*\*Training API\*\*: not configured/);
      await server.waitFor('the loopback inference API checked', () => server.calls.some((call) => call.path === '/inference/v1/models'));
      assertOnlyThisMachine(connections);
    } finally {
      connections.stop();
      await vscode.commands.executeCommand('rlStudio.signOut');
    }
  });

  it('model ids and owners from the server carry Markdown, a command link and HTML: the tooltips show them as text, untrusted, without HTML', async () => {
    const hostile = ['x`![y](https://evil.example/p.png)`', '[run](command:workbench.action.terminal.new)', '<img src=https://evil.example/i.png>'];
    server.models = hostile.map((id) => ({ id, owned_by: `![o](https://evil.example/${hostile.indexOf(id)}.png)` }));
    await signIn(uniqueApiKey());
    await setLayer(vscode.ConfigurationTarget.Global, { inferenceApiUrl: server.inferenceUrl });
    const models = api.views.models;
    const rows = await waitUntil(
      'the hostile models',
      async () => {
        models.refresh();
        const [group] = await models.getChildren();
        return group ? await models.getChildren(group) : [];
      },
      (children) => children.length === hostile.length,
    );
    const renderer = new MarkdownIt({ html: true, linkify: true });
    for (const node of rows) {
      const tooltip = models.getTreeItem(node).tooltip as vscode.MarkdownString;
      assert.ok(tooltip instanceof vscode.MarkdownString, 'a Markdown tooltip');
      assert.notEqual(tooltip.isTrusted, true);
      assert.equal(tooltip.supportHtml, false);
      const html = renderer.render(tooltip.value);
      assert.doesNotMatch(html, /<(img|a|script)\b/i, html);
      assert.match(html, /evil\.example|command:/, 'the text is still shown');
    }
    await vscode.commands.executeCommand('rlStudio.signOut');
  });

  // Last: the extension stays off afterwards.
  it('turned off while it polls a job and checks health against a slow server: requests in flight end, sockets close, nothing follows', async () => {
    const timers = watchArmedTimers();
    try {
      const key = uniqueApiKey();
      await signIn(key);
      await setLayer(vscode.ConfigurationTarget.Global, { trainingApiUrl: server.trainingUrl, inferenceApiUrl: server.inferenceUrl, pollingIntervalSeconds: 0.5 });
      await waitUntil(
        'the server in use',
        () => api.settingsInUse().settings.trainingApiUrl,
        (url) => url === server.trainingUrl,
      );
      await vscode.commands.executeCommand('rlStudio.jobs.focus');
      await vscode.commands.executeCommand('rlStudio.addJob', 'trust-job-1');
      await api.views.jobs.getChildren();
      const polls = () => server.calls.filter((call) => call.path.endsWith('/training-jobs/trust-job-1/events'));
      await server.waitFor('three polls at the regular cadence', () => polls().length >= 3, 30_000);

      server.hold(/\/(events|system-check|models)$/);
      const before = polls().length;
      void vscode.commands.executeCommand('rlStudio.checkHealth');
      await server.waitFor('a poll and the health check held in flight', () => polls().length > before && server.calls.some((call) => call.path.endsWith('/system-check') && server.held >= 2));

      // Nothing follows: once no timer of the extension is armed, nothing is left that could send.
      const requests = watchRequestsTo(server.url);
      try {
        api.disposeAll();
        await server.waitFor('every socket closed', () => server.sockets.open === 0);
        const callsAtClose = server.calls.length;
        await untilNothingArmed(timers);
        assert.deepEqual(requests.made, [], 'requests made after turning off');
        assert.deepEqual(
          server.calls.slice(callsAtClose).map((call) => `${call.method} ${call.path}`),
          [],
          'requests received after turning off',
        );
      } finally {
        requests.stop();
      }
    } finally {
      timers.stop();
    }
  });
});
