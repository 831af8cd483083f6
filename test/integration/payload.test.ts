import * as assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { signPayload } from '../../src/webhooks/model/signature';
import type { LocalReceiver } from '../../src/webhooks/model/receiver';
import { activateExtension, type RlStudioApi } from './helpers/extension';
import { waitUntil } from './helpers/waitUntil';

const source = 'RL Studio payload';

/** A folder for files whose names matter (`*.automation.json`): the workspace when one is open. */
function scratchFolder(): string {
  const workspace = vscode.workspace.workspaceFolders?.[0]?.uri;
  return mkdtempSync(join(workspace?.scheme === 'file' ? workspace.fsPath : tmpdir(), 'rl-payload-'));
}

async function openPayload(content: string): Promise<vscode.TextDocument> {
  const document = await vscode.workspace.openTextDocument({ language: 'rl-payload', content });
  await vscode.window.showTextDocument(document);
  return document;
}

async function openFile(name: string, content: string): Promise<vscode.TextDocument> {
  const path = join(scratchFolder(), name);
  writeFileSync(path, content);
  const document = await vscode.workspace.openTextDocument(vscode.Uri.file(path));
  await vscode.window.showTextDocument(document);
  return document;
}

/** Closes every editor without a save prompt: untitled payloads are reverted first. */
async function closeEditors(): Promise<void> {
  for (const document of vscode.workspace.textDocuments) {
    if (!document.isUntitled || !document.isDirty) continue;
    await vscode.window.showTextDocument(document);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  }
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

function positionAfter(document: vscode.TextDocument, needle: string): vscode.Position {
  const offset = document.getText().indexOf(needle);
  assert.ok(offset >= 0, `${needle} is in the document`);
  return document.positionAt(offset + needle.length);
}

function ours(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((diagnostic) => diagnostic.source === source);
}

async function diagnosticsOf(uri: vscode.Uri, accept: (diagnostics: vscode.Diagnostic[]) => boolean): Promise<vscode.Diagnostic[]> {
  return waitUntil(`payload diagnostics of ${uri.toString()}`, () => ours(uri), accept);
}

function labelOf(item: vscode.CompletionItem): string {
  return typeof item.label === 'string' ? item.label : item.label.label;
}

async function completionsAt(document: vscode.TextDocument, position: vscode.Position, trigger?: string): Promise<vscode.CompletionItem[]> {
  const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', document.uri, position, trigger);
  return list.items;
}

describe('webhook payload language features in a real VS Code', () => {
  before(async () => {
    await activateExtension();
  });

  afterEach(closeEditors);

  it('gives *.payload.json files the Webhook Payload language', async () => {
    const document = await openFile('deploy.payload.json', '{"a": "${event_type}"}');
    assert.equal(document.languageId, 'rl-payload');
  });

  it('completes every variable after ${, inserting literal text over the name being typed', async () => {
    const document = await openPayload('{\n  "text": "Deploy ${proj now",\n  "count": 1\n}');
    const position = positionAfter(document, '${proj');
    const items = await completionsAt(document, position, '{');
    const labels = items.map(labelOf);
    for (const name of ['project_name', 'entity_name', 'event_type', 'event_author', 'artifact_version_string', 'ACCESS_TOKEN']) {
      assert.ok(labels.includes(name), `${name} is offered (got ${labels.join(', ')})`);
    }
    const project = items.find((item) => labelOf(item) === 'project_name')!;
    assert.equal(project.insertText, 'project_name}', 'plain text, closing the unterminated reference');
    const range = project.range as { inserting: vscode.Range; replacing: vscode.Range };
    assert.equal(document.getText(range.inserting), 'proj');
    assert.match((project.documentation as vscode.MarkdownString).value, /Example for the sample event.*`model-registry`/s);
  });

  it('offers the metadata keys already used in the workspace after ${artifact_metadata.', async () => {
    const used = await openFile('metrics.payload.json', '{"f1": "${artifact_metadata.f1_score}"}');
    // Saved files feed the index even outside a workspace folder.
    const edit = new vscode.WorkspaceEdit();
    edit.insert(used.uri, used.positionAt(used.getText().length), '\n');
    await vscode.workspace.applyEdit(edit);
    await used.save();
    const document = await openPayload('{"m": "${artifact_metadata.}"}');
    const position = positionAfter(document, '${artifact_metadata.');
    const labels = await waitUntil(
      'the workspace metadata key',
      async () => (await completionsAt(document, position, '.')).map(labelOf),
      (shown) => shown.includes('f1_score'),
    );
    assert.ok(labels.includes('accuracy'), 'sample event keys too');
  });

  it('offers nothing outside string values', async () => {
    const document = await openPayload('{"${": 1, "n": 12}');
    // VS Code's own word-based suggestions (kind Text) offer words of other open documents anywhere; only RL Studio's items count.
    const rlItems = (position: vscode.Position) =>
      completionsAt(document, position).then((items) => items.filter((item) => labelOf(item) === 'project_name' && item.kind !== vscode.CompletionItemKind.Text));
    assert.deepEqual(await rlItems(positionAfter(document, '{"${')), [], 'not in a key');
    assert.deepEqual(await rlItems(positionAfter(document, '"n": 1')), [], 'not in a number');
  });

  it('hovers with the meaning, source and example value of the sample event', async () => {
    const document = await openPayload('{"v": "${artifact_version_string}"}');
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', document.uri, positionAfter(document, '${artifact_'));
    const text = hovers.flatMap((hover) => hover.contents.map((content) => (typeof content === 'string' ? content : (content as vscode.MarkdownString).value))).join('\n');
    assert.match(text, /String form of the artifact version/);
    assert.match(text, /Source:/);
    assert.match(text, /acme\/model-registry\/churn-model:production/);
  });

  it('reports problems with exact ranges, and a "did you mean" quick fix', async () => {
    const document = await openPayload('{\n  "a": "${projct_name}",\n  "b": "${artifact_metadata.a.b}",\n  "c": "${artifact_metadata.anything}",\n  "d": "$plain"\n}');
    const diagnostics = await diagnosticsOf(document.uri, (found) => found.length >= 2);
    assert.deepEqual(
      diagnostics.map((diagnostic) => [document.getText(diagnostic.range), diagnostic.code, diagnostic.severity]),
      [
        ['projct_name', 'unknown-variable', vscode.DiagnosticSeverity.Error],
        ['artifact_metadata.a.b', 'nested-metadata-key', vscode.DiagnosticSeverity.Error],
      ],
    );
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', document.uri, diagnostics[0].range);
    const fix = actions.find((action) => action.title === "Change to 'project_name'");
    assert.ok(fix?.edit, `a quick fix is offered (got ${actions.map((action) => action.title).join(', ')})`);
    await vscode.workspace.applyEdit(fix.edit);
    assert.match(document.getText(), /"\$\{project_name\}"/);
    await diagnosticsOf(document.uri, (found) => found.length === 1);
  });

  it('gives the documented example payloads no diagnostics at all', async () => {
    // A probe reference the checks must report stands last: seeing its diagnostic proves the whole
    // document was checked, and seeing it go once the probe is removed proves the example alone was.
    const probe = ',\n  "probe": "${not_a_variable}"';
    const document = await openPayload(
      JSON.stringify(
        {
          event_type: 'BUILD_AND_DEPLOY',
          client_payload: {
            event_author: '${event_author}',
            artifact_version: '${artifact_version}',
            artifact_version_string: '${artifact_version_string}',
            artifact_collection_name: '${artifact_collection_name}',
            project_name: '${project_name}',
            entity_name: '${entity_name}',
          },
        },
        null,
        2,
      ).replace(/\n}$/, `${probe}\n}`),
    );
    // By its message: once the probe is deleted, a stale diagnostic's range points at other text.
    const isProbe = (diagnostic: vscode.Diagnostic) => diagnostic.message.includes('`not_a_variable`');
    const withProbe = await diagnosticsOf(document.uri, (found) => found.some(isProbe));
    assert.deepEqual(
      withProbe.map((diagnostic) => [diagnostic.code, document.getText(diagnostic.range)]),
      [['unknown-variable', 'not_a_variable']],
      'the probe, and nothing in the example',
    );

    const edit = new vscode.WorkspaceEdit();
    const start = document.getText().indexOf(probe);
    edit.delete(document.uri, new vscode.Range(document.positionAt(start), document.positionAt(start + probe.length)));
    assert.ok(await vscode.workspace.applyEdit(edit));
    await diagnosticsOf(document.uri, (found) => !found.some(isProbe));
    assert.deepEqual(
      vscode.languages.getDiagnostics(document.uri).filter((diagnostic) => diagnostic.severity <= vscode.DiagnosticSeverity.Warning),
      [],
    );
  });

  it('reports invalid JSON when asked to, alongside the built-in validator', async () => {
    const config = vscode.workspace.getConfiguration('rlStudio.payload');
    await config.update('jsonSyntaxErrors', 'always', vscode.ConfigurationTarget.Global);
    try {
      const document = await openPayload('{"a": "${event_type}",,}');
      const diagnostics = await diagnosticsOf(document.uri, (found) => found.some((diagnostic) => diagnostic.code === 'invalid-json'));
      assert.equal(document.getText(diagnostics.find((diagnostic) => diagnostic.code === 'invalid-json')!.range), ',');
    } finally {
      await config.update('jsonSyntaxErrors', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('checks an automation: regex of an alias event, artifact variables on a run event', async () => {
    const alias = await openFile(
      'alias.automation.json',
      JSON.stringify(
        {
          name: 'Deploy',
          scope: { registry: 'model-registry' },
          event: { type: 'ADD_ARTIFACT_ALIAS', aliasRegex: '^(prod' },
          team: 'acme',
          webhook: 'deploy',
          payload: { v: '${artifact_version_string}' },
        },
        null,
        2,
      ),
    );
    assert.equal(alias.languageId, 'json', 'automations keep the JSON language');
    const [regex] = await diagnosticsOf(alias.uri, (found) => found.length === 1);
    assert.equal(regex.code, 'regex-invalid');
    assert.equal(alias.getText(regex.range), '"^(prod"');

    const run = await openFile(
      'run.automation.json',
      JSON.stringify(
        {
          name: 'Failed',
          scope: { project: 'acme/p' },
          event: { type: 'RUN_STATE', states: ['Failed'] },
          team: 'acme',
          webhook: 'chat',
          payload: { text: '${event_type} ${artifact_version}' },
        },
        null,
        2,
      ),
    );
    const [warning] = await diagnosticsOf(run.uri, (found) => found.length === 1);
    assert.equal(warning.code, 'artifact-variable-on-run-event');
    assert.equal(warning.severity, vscode.DiagnosticSeverity.Warning);
    assert.equal(run.getText(warning.range), 'artifact_version');
  });
});

describe('webhooks, preview and a signed test send in a real VS Code', () => {
  let api: RlStudioApi;
  let webhookId: string | undefined;
  let receiver: LocalReceiver | undefined;

  /** The last question the extension asked, as its dialogs recorded it. */
  const lastQuestion = () => api.dialogs.asked.at(-1);

  /** Removes a webhook the way a person does: the command asks, the answer is "Remove". */
  async function removeWebhook(id: string, name: string): Promise<void> {
    api.dialogs.answerNext('Remove');
    assert.equal(await vscode.commands.executeCommand('rlStudio.webhook.remove', id), true);
    assert.equal(lastQuestion()?.kind, 'confirm');
    assert.match(lastQuestion()?.message ?? '', new RegExp(`^Remove the webhook "${name}"`), 'the confirmation names the webhook');
  }

  before(async () => {
    api = await activateExtension();
    // The webhook the cases choose for their payloads; it points where nothing listens.
    webhookId = await vscode.commands.executeCommand<string>('rlStudio.webhook.add', {
      name: `test-hook-${Date.now()}`,
      url: 'http://127.0.0.1:9/never',
      accessToken: '',
      secretName: 'DEPLOY_SECRET',
      secretValue: 'v',
    });
    assert.ok(webhookId, 'the webhook was added');
  });

  after(async () => {
    if (webhookId) {
      api.dialogs.answerNext('Remove');
      await vscode.commands.executeCommand('rlStudio.webhook.remove', webhookId);
    }
    await vscode.commands.executeCommand('rlStudio.webhook.stopReceiver');
    await closeEditors();
  });

  it('judges secret references against the webhook chosen for the file, and completes its secret', async () => {
    const document = await openPayload('{"t": "${ACCESS_TOKEN}", "s": "${DEPLOY_SECRET}", "x": "${OTHER_SECRET}", "c": "${}"}');
    await diagnosticsOf(document.uri, (found) => found.length === 1 && found[0].code === 'empty-reference');

    await vscode.commands.executeCommand('rlStudio.payload.chooseWebhook', document.uri, webhookId);
    const diagnostics = await diagnosticsOf(document.uri, (found) => found.length === 3);
    assert.deepEqual(
      diagnostics.map((diagnostic) => [document.getText(diagnostic.range), diagnostic.code]),
      [
        ['ACCESS_TOKEN', 'access-token-missing'],
        ['OTHER_SECRET', 'secret-missing'],
        ['${}', 'empty-reference'],
      ],
    );
    const labels = (await completionsAt(document, positionAfter(document, '"c": "${'), '{')).map(labelOf);
    assert.ok(labels.includes('DEPLOY_SECRET'));
    assert.ok(!labels.includes('ACCESS_TOKEN'), 'this webhook has no access token');
  });

  it('previews the rendering beside the source, secrets masked', async () => {
    const document = await openPayload('{"who": "${event_author}", "s": "${DEPLOY_SECRET}"}');
    await vscode.commands.executeCommand('rlStudio.payload.chooseWebhook', document.uri, webhookId);
    await vscode.commands.executeCommand('rlStudio.payload.preview', document.uri);
    const preview = await waitUntil('the preview document', () => vscode.workspace.textDocuments.find((candidate) => candidate.uri.scheme === 'rl-payload-preview'), Boolean);
    assert.deepEqual(JSON.parse(preview!.getText()), { who: 'jane-doe', s: '********' });
  });

  it('marks in the preview each variable it leaves as written, saying why', async () => {
    const document = await openPayload('{"who": "${event_author}", "typo": "${event_authro}", "again": "x ${event_authro}"}');
    await vscode.commands.executeCommand('rlStudio.payload.chooseWebhook', document.uri, webhookId);
    await vscode.commands.executeCommand('rlStudio.payload.preview', document.uri);
    const preview = await waitUntil(
      'the preview document',
      () => vscode.workspace.textDocuments.find((candidate) => candidate.uri.scheme === 'rl-payload-preview' && candidate.getText().includes('event_authro')),
      Boolean,
    );
    const marked = await waitUntil(
      'the preview marked',
      () => vscode.languages.getDiagnostics(preview!.uri).filter((diagnostic) => diagnostic.source === 'RL Studio preview'),
      (found) => found.length === 2,
    );
    assert.deepEqual(
      marked.map((diagnostic) => [preview!.getText(diagnostic.range), diagnostic.severity, diagnostic.message]),
      [
        ['${event_authro}', vscode.DiagnosticSeverity.Warning, '${event_authro} is not rendered: no such variable, or a secret with no stored value. A test sends it as written.'],
        ['${event_authro}', vscode.DiagnosticSeverity.Warning, '${event_authro} is not rendered: no such variable, or a secret with no stored value. A test sends it as written.'],
      ],
    );
  });

  it('removes the webhook added for the local receiver when the receiver stops, and says so', async () => {
    const storedNames = (): string[] => {
      const stored = Object.entries(api.storedState()).find(([key]) => key.endsWith(':rlStudio.webhooks'))?.[1];
      return Array.isArray(stored) ? stored.map((webhook) => String((webhook as { name?: unknown }).name)) : [];
    };
    api.dialogs.answerNext('Add Webhook for It');
    await vscode.commands.executeCommand('rlStudio.webhook.startReceiver', { secret: null });
    await waitUntil('the receiver webhook added', storedNames, (names) => names.some((name) => name.startsWith('local-receiver')));
    const shownBefore = api.dialogs.shown.length;
    await vscode.commands.executeCommand('rlStudio.webhook.stopReceiver');
    assert.ok(!storedNames().some((name) => name.startsWith('local-receiver')), JSON.stringify(storedNames()));
    assert.ok(storedNames().length > 0, 'the other webhooks stay');
    assert.match(api.dialogs.shown.slice(shownBefore).join('\n'), /The local receiver stopped, so the webhook "local-receiver(-\d+)?" added for it was removed/);
  });

  it('sends a signed test to the local receiver and shows the answer', async () => {
    // Starting the receiver offers to add a webhook for it: declined here.
    api.dialogs.answerNext(undefined);
    receiver = await vscode.commands.executeCommand<LocalReceiver>('rlStudio.webhook.startReceiver', { secret: 'shared-secret' });
    assert.match(receiver.url, /^http:\/\/127\.0\.0\.1:\d+\/hook\/[0-9a-f]{32}\/$/);
    assert.equal(lastQuestion()?.kind, 'choose');
    assert.ok(lastQuestion()?.message.includes(receiver.url), "the offer names the receiver's address");
    const name = `receiver-${Date.now()}`;
    const id = await vscode.commands.executeCommand<string>('rlStudio.webhook.add', {
      name,
      url: `${receiver.url}hooks`,
      accessToken: 'token-xyz',
      secretName: 'RECEIVER_SECRET',
      secretValue: 'shared-secret',
    });
    let removed = false;
    try {
      const document = await openPayload('{"text": "Grüße from ${event_author}", "auth": "${ACCESS_TOKEN}"}');
      await vscode.commands.executeCommand('rlStudio.payload.chooseWebhook', document.uri, id);
      api.dialogs.answerNext('Send Test');
      const summary = await vscode.commands.executeCommand<{ ok: boolean; status?: number; report: vscode.Uri }>('rlStudio.webhook.sendTest', document.uri);
      const confirmation = api.dialogs.asked.filter((question) => question.kind === 'confirm').at(-1);
      assert.match(confirmation?.detail ?? '', /^Endpoint host: 127\.0\.0\.1:\d+ \(http: not encrypted\)$/m, 'the confirmation names the host');
      assert.equal(summary.ok, true);
      assert.equal(summary.status, 200);

      const received = receiver.requests.at(-1)!;
      assert.equal(received.signature, 'valid');
      assert.equal(received.headers.authorization, 'Bearer token-xyz');
      assert.equal(received.headers['content-type'], 'application/json');
      assert.deepEqual(JSON.parse(received.bodyText), { text: 'Grüße from jane-doe', auth: 'token-xyz' });
      assert.equal(received.headers['x-service-signature'], signPayload('shared-secret', received.body));

      const report = await vscode.workspace.openTextDocument(summary.report);
      assert.match(report.getText(), /\*\*Succeeded\*\*: 200 OK/);
      assert.match(report.getText(), /"signature": "valid"/);
      assert.doesNotMatch(report.getText(), /token-xyz/, 'the token is masked in the headers and the body shown');

      // A rendering that is not JSON is sent only when the person says "Send Anyway": declined, nothing is sent.
      const sent = receiver.requests.length;
      const broken = await openPayload('{"text": "${event_author}",}');
      await vscode.commands.executeCommand('rlStudio.payload.chooseWebhook', broken.uri, id);
      api.dialogs.answerNext(undefined);
      assert.equal(await vscode.commands.executeCommand('rlStudio.webhook.sendTest', broken.uri), undefined);
      assert.equal(lastQuestion()?.kind, 'choose');
      assert.deepEqual(lastQuestion()?.choices, ['Send Anyway']);
      assert.equal(receiver.requests.length, sent);

      await removeWebhook(id, name);
      removed = true;
    } finally {
      if (!removed) {
        api.dialogs.answerNext('Remove');
        await vscode.commands.executeCommand('rlStudio.webhook.remove', id);
      }
    }
  });

  it('says what to check when the endpoint is not there', async () => {
    await openPayload('{"e": "${event_type}"}');
    api.dialogs.answerNext('Send Test');
    const summary = await vscode.commands.executeCommand<{ ok: boolean; failure?: string; report: vscode.Uri }>('rlStudio.webhook.sendTest', webhookId);
    assert.equal(summary.ok, false);
    assert.match(summary.failure ?? '', /could not connect|refused/);
    const report = await vscode.workspace.openTextDocument(summary.report);
    assert.match(report.getText(), /## What to check/);
  });
});
