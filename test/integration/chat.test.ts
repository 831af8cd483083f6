import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { WebviewReport } from '../../src/webview/chat/protocol';
import type { ModelsNode } from '../../src/vscode/sidebar/models/modelNodes';
import { connectToEmulator, type ConnectedPlatform } from './helpers/platform';
import { waitUntil } from './helpers/waitUntil';

const chatViewType = 'rlStudio.chat';

/** What the chat webview itself reports it shows (its model pickers and rendered messages). */
async function chatReport(): Promise<WebviewReport | undefined> {
  return vscode.commands.executeCommand<WebviewReport | undefined>('rlStudio.chatReport');
}

/** Writes a file, opens it, selects part of it and runs Chat About Selection. */
async function chatAboutSelection(file: string, text: string, selection: vscode.Selection): Promise<vscode.TextDocument> {
  writeFileSync(file, text);
  const document = await vscode.workspace.openTextDocument(file);
  const editor = await vscode.window.showTextDocument(document, vscode.ViewColumn.One);
  editor.selection = selection;
  await vscode.commands.executeCommand('rlStudio.chatWithSelection');
  return document;
}

function chatTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((group) => group.tabs).filter((tab) => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith(chatViewType));
}

describe('Chat panel', function () {
  this.timeout(120_000);
  let platform: ConnectedPlatform;
  let models: vscode.TreeDataProvider<ModelsNode>;
  const folder = mkdtempSync(join(tmpdir(), 'rl-chat-'));

  before(async () => {
    platform = await connectToEmulator({ secondsPerStep: 0.05 });
    models = platform.api.views.models as vscode.TreeDataProvider<ModelsNode>;
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await platform?.disconnect();
    rmSync(folder, { recursive: true, force: true });
  });

  const seeded = () => {
    const ids = platform.emulator.seeded;
    assert.ok(ids, 'the emulator was seeded');
    return ids;
  };

  async function checkpointNode(step: number): Promise<ModelsNode> {
    const ids = seeded();
    return waitUntil(`checkpoint step ${step} in the Models view`, async () => {
      const groups = (await models.getChildren()) ?? [];
      const training = groups.find((node) => node.kind === 'group' && node.group === 'training');
      const model = training ? ((await models.getChildren(training)) ?? []).find((node) => node.kind === 'trainingModel' && node.model.id === ids.trainedModelId) : undefined;
      const children = model ? (await models.getChildren(model)) ?? [] : [];
      return children.find((node) => node.kind === 'checkpoint' && node.checkpoint.step === step);
    }, (node) => node !== undefined) as Promise<ModelsNode>;
  }

  it('opens from a checkpoint in the Models view with exactly that checkpoint selected', async () => {
    const ids = seeded();
    await vscode.commands.executeCommand('rlStudio.addModel', ids.trainedModelId, `${ids.trainedModelEntity}/${ids.trainedModelProject}/${ids.trainedModelName}`);
    const node = await checkpointNode(7);
    await vscode.commands.executeCommand('rlStudio.chatWithModel', node);
    const expected = `wandb-artifact:///${ids.trainedModelEntity}/${ids.trainedModelProject}/${ids.trainedModelName}:step7`;
    const report = await waitUntil('the chat panel to show the checkpoint', chatReport, (value) => value?.selectedModels[0] === expected, { timeoutMs: 30_000 });
    assert.deepEqual(report!.selectedModels, [expected]);
    assert.equal(report!.compare, false);
    assert.equal(chatTabs().length, 1, 'one chat panel');
  });

  it('opening another model reuses the panel and its still empty conversation', async () => {
    const ids = seeded();
    const first = await chatReport();
    await vscode.commands.executeCommand('rlStudio.openChat', { modelId: `wandb-artifact:///${ids.trainedModelEntity}/${ids.trainedModelProject}/${ids.trainedModelName}:step3` });
    const reused = await waitUntil('the panel to switch to step 3', chatReport, (value) => value?.selectedModels[0]?.endsWith(':step3') === true);
    assert.equal(reused!.conversationId, first!.conversationId, 'an empty conversation is reused');
    assert.equal(chatTabs().length, 1);
  });

  it('chats about the editor selection: the selection is the first message and the checkpoint answers through the training API', async () => {
    const before = platform.emulator.requests.length;
    await chatAboutSelection(join(folder, 'reward.py'), 'def reward(answer):\n    return 1.0\n', new vscode.Selection(0, 0, 1, 14));
    const report = await waitUntil(
      'the streamed answer in the panel',
      chatReport,
      (value) => value !== undefined && value.messages.length === 2 && value.messages[1]!.status === 'done' && value.messages[1]!.text.length > 20,
      { timeoutMs: 30_000 },
    );
    assert.match(report!.messages[0]!.text, /def reward\(answer\):/);
    assert.match(report!.messages[0]!.text, /reward\.py/);
    const chats = platform.emulator.requests.slice(before).filter((request) => request.path.endsWith('/chat/completions'));
    assert.equal(chats.length, 1);
    assert.equal(chats[0]!.path, '/training/v1/chat/completions', 'a checkpoint is served by the training API');
    const body = JSON.parse(chats[0]!.body);
    assert.ok(String(body.model).endsWith(':step3'));
    assert.equal(body.stream, true);
    assert.deepEqual(body.stream_options, { include_usage: true });
  });

  it('keeps the conversation when the panel is closed and opened again', async () => {
    const before = (await chatReport())!;
    for (const tab of chatTabs()) await vscode.window.tabGroups.close(tab);
    assert.equal(await chatReport(), undefined, 'no panel');
    await vscode.commands.executeCommand('rlStudio.openChat');
    const after = await waitUntil('the panel to come back with the conversation', chatReport, (value) => value?.messages.length === before.messages.length);
    assert.equal(after!.conversationId, before.conversationId);
    assert.deepEqual(after!.messages.map((message) => message.text), before.messages.map((message) => message.text));
  });

  it('opens a model in a new conversation once the current one has messages', async () => {
    const ids = seeded();
    const current = (await chatReport())!;
    assert.equal(current.messageCount, 2);
    const modelId = ids.inferenceModels[1]!;
    await vscode.commands.executeCommand('rlStudio.openChat', { modelId });
    const fresh = await waitUntil('a new conversation on the catalogue model', chatReport, (value) => value?.selectedModels[0] === modelId);
    assert.notEqual(fresh!.conversationId, current.conversationId);
    assert.equal(fresh!.messageCount, 0);
  });

  it('shows the whole answer after the panel was hidden while it streamed', async () => {
    const document = await chatAboutSelection(join(folder, 'prompt.txt'), '/long 40000\n', new vscode.Selection(0, 0, 0, 11));
    const panelColumn = chatTabs()[0]!.group.viewColumn;
    // Another editor in the panel's group hides the webview, which is not kept alive while hidden.
    await vscode.window.showTextDocument(document, { viewColumn: panelColumn, preview: false });
    await new Promise((resolve) => setTimeout(resolve, 500));
    await vscode.commands.executeCommand('rlStudio.openChat');
    const report = await waitUntil(
      'the long answer, complete, in the panel shown again',
      chatReport,
      (value) => value?.messages.length === 2 && value.messages[1]!.status === 'done',
      { timeoutMs: 60_000 },
    );
    assert.equal(report!.messages[0]!.text.trim(), '/long 40000');
    const words = report!.messages[1]!.text.split(/\s+/).filter(Boolean).length;
    assert.ok(words > 15_000, `the whole answer is shown (${words} words)`);
  });

  it('keeps the API key out of the log and the stored state after chatting', async () => {
    const key = platform.emulator.apiKey;
    for (const line of platform.api.recentLogLines()) assert.ok(!line.includes(key), `log line holds the key: ${line}`);
    assert.ok(!JSON.stringify(platform.api.storedState()).includes(key));
  });

  it('offers the inference models to the editor\'s own chat through the language model API', async function () {
    if (typeof vscode.lm?.selectChatModels !== 'function') this.skip();
    const ids = seeded();
    const offered = await waitUntil('RL Studio models in the editor', async () => vscode.lm.selectChatModels({ vendor: 'rl-studio' }), (list) => list.length > 0, { timeoutMs: 20_000 });
    assert.deepEqual(offered.map((model) => model.id).sort(), [...ids.inferenceModels].sort());
    const model = offered.find((candidate) => candidate.id === ids.inferenceModels[0])!;
    const response = await model.sendRequest([vscode.LanguageModelChatMessage.User('/echo hello from the editor chat')], {}, new vscode.CancellationTokenSource().token);
    let text = '';
    for await (const part of response.text) text += part;
    assert.equal(text, 'hello from the editor chat');
    assert.ok((await model.countTokens('four')) >= 1);
  });
});
