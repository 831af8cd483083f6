import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { WebviewReport } from '../../src/chat/protocol';
import type { ModelsNode } from '../../src/training/host/models/modelNodes';
import { checkpointNode as checkpointNodeOf, seededIds, trainedModelListed as listTrainedModel, trainedModelName } from './helpers/models';
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

  const seeded = () => seededIds(platform);
  const checkpointId = (step: number) => `wandb-artifact:///${trainedModelName(seeded())}:step${step}`;
  const trainedModelListed = () => listTrainedModel(platform);
  const checkpointNode = (step: number) => checkpointNodeOf(models, seeded().trainedModelId, step);

  /** The panel on an empty conversation with `modelId` selected: the current one if empty, else a new one. */
  async function emptyConversationOn(modelId: string): Promise<WebviewReport> {
    await vscode.commands.executeCommand('rlStudio.openChat', { modelId });
    const report = await waitUntil(`an empty conversation on ${modelId}`, chatReport, (value) => value?.selectedModels[0] === modelId && value.messageCount === 0, { timeoutMs: 30_000 });
    return report!;
  }

  /** A conversation with `modelId` in which the text of a new file was sent (Chat About Selection) and answered to the end. */
  async function answeredConversation(modelId: string, file: string, text: string): Promise<WebviewReport> {
    await emptyConversationOn(modelId);
    await chatAboutSelection(join(folder, file), text, new vscode.Selection(0, 0, 0, text.length));
    const report = await waitUntil('the answer, complete, in the panel', chatReport, (value) => value?.messages.length === 2 && value.messages[1]!.status === 'done', { timeoutMs: 30_000 });
    return report!;
  }

  it('opens from a checkpoint in the Models view with exactly that checkpoint selected', async () => {
    await trainedModelListed();
    const node = await checkpointNode(7);
    await vscode.commands.executeCommand('rlStudio.chatWithModel', node);
    const expected = checkpointId(7);
    const report = await waitUntil('the chat panel to show the checkpoint', chatReport, (value) => value?.selectedModels[0] === expected, { timeoutMs: 30_000 });
    assert.deepEqual(report!.selectedModels, [expected]);
    assert.equal(report!.compare, false);
    assert.equal(chatTabs().length, 1, 'one chat panel');
  });

  it('opening another model reuses the panel and its still empty conversation', async () => {
    await trainedModelListed();
    const first = await emptyConversationOn(checkpointId(7));
    await vscode.commands.executeCommand('rlStudio.openChat', { modelId: checkpointId(3) });
    const reused = await waitUntil('the panel to switch to step 3', chatReport, (value) => value?.selectedModels[0] === checkpointId(3));
    assert.equal(reused!.conversationId, first.conversationId, 'an empty conversation is reused');
    assert.equal(chatTabs().length, 1);
  });

  it('chats about the editor selection: the selection is the first message and the checkpoint answers through the training API', async () => {
    await trainedModelListed();
    await emptyConversationOn(checkpointId(3));
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
    const before = await answeredConversation(seeded().inferenceModels[0]!, 'kept.txt', '/echo kept when the panel closes');
    for (const tab of chatTabs()) await vscode.window.tabGroups.close(tab);
    assert.equal(await chatReport(), undefined, 'no panel');
    await vscode.commands.executeCommand('rlStudio.openChat');
    const after = await waitUntil('the panel to come back with the conversation', chatReport, (value) => value?.messages.length === before.messages.length);
    assert.equal(after!.conversationId, before.conversationId);
    assert.deepEqual(
      after!.messages.map((message) => message.text),
      before.messages.map((message) => message.text),
    );
  });

  it('opens a model in a new conversation once the current one has messages', async () => {
    const ids = seeded();
    const current = await answeredConversation(ids.inferenceModels[0]!, 'current.txt', '/echo a conversation with messages');
    assert.equal(current.messageCount, 2);
    const modelId = ids.inferenceModels[1]!;
    await vscode.commands.executeCommand('rlStudio.openChat', { modelId });
    const fresh = await waitUntil('a new conversation on the catalogue model', chatReport, (value) => value?.selectedModels[0] === modelId);
    assert.notEqual(fresh!.conversationId, current.conversationId);
    assert.equal(fresh!.messageCount, 0);
  });

  it('shows the whole answer after the panel was hidden while it streamed', async () => {
    const { emulator } = platform;
    await emptyConversationOn(seeded().inferenceModels[1]!);
    const completedBefore = emulator.streamStats().completed;
    // Slow enough (a millisecond a chunk, some 20,000 chunks) that the answer surely streams while hidden.
    emulator.setStreamChunkDelay(1);
    try {
      const document = await chatAboutSelection(join(folder, 'prompt.txt'), '/long 40000\n', new vscode.Selection(0, 0, 0, 11));
      const panelColumn = chatTabs()[0]!.group.viewColumn;
      // Another editor in the panel's group hides the webview, which is not kept alive while hidden.
      await vscode.window.showTextDocument(document, { viewColumn: panelColumn, preview: false });
      await waitUntil(
        'the chat panel hidden behind the editor',
        () => chatTabs()[0]?.isActive,
        (active) => active === false,
      );
      assert.equal(emulator.streamStats().completed, completedBefore, 'the answer was still streaming when the panel was hidden');
    } finally {
      emulator.setStreamChunkDelay(0);
    }
    await waitUntil(
      'the answer to end while the panel is hidden',
      () => emulator.streamStats().completed,
      (completed) => completed > completedBefore,
      { timeoutMs: 60_000 },
    );
    await vscode.commands.executeCommand('rlStudio.openChat');
    const report = await waitUntil('the long answer, complete, in the panel shown again', chatReport, (value) => value?.messages.length === 2 && value.messages[1]!.status === 'done', {
      timeoutMs: 60_000,
    });
    assert.equal(report!.messages[0]!.text.trim(), '/long 40000');
    const words = report!.messages[1]!.text.split(/\s+/).filter(Boolean).length;
    assert.ok(words > 15_000, `the whole answer is shown (${words} words)`);
  });

  it('keeps the API key out of the log and the stored state after chatting', async () => {
    const key = platform.emulator.apiKey;
    const before = platform.emulator.requests.length;
    await answeredConversation(seeded().inferenceModels[0]!, 'key.txt', '/echo the key stays secret');
    const chats = platform.emulator.requests.slice(before).filter((request) => request.path.endsWith('/chat/completions'));
    assert.deepEqual(
      chats.map((request) => request.headers.authorization),
      [`Bearer ${key}`],
      'the chat sent the key',
    );
    for (const line of platform.api.recentLogLines()) assert.ok(!line.includes(key), `log line holds the key: ${line}`);
    assert.ok(!JSON.stringify(platform.api.storedState()).includes(key));
  });

  it("offers the inference models to the editor's own chat through the language model API", async () => {
    const ids = seeded();
    const offered = await waitUntil(
      'RL Studio models in the editor',
      async () => vscode.lm.selectChatModels({ vendor: 'rl-studio' }),
      (list) => list.length > 0,
      { timeoutMs: 20_000 },
    );
    // Checkpoints pinned by another test come first; the catalogue is the rest.
    assert.deepEqual(
      offered
        .map((model) => model.id)
        .filter((id) => !id.startsWith('wandb-artifact:'))
        .sort(),
      [...ids.inferenceModels].sort(),
    );
    const model = offered.find((candidate) => candidate.id === ids.inferenceModels[0])!;
    const response = await model.sendRequest([vscode.LanguageModelChatMessage.User('/echo hello from the editor chat')], {}, new vscode.CancellationTokenSource().token);
    let text = '';
    for await (const part of response.text) text += part;
    assert.equal(text, 'hello from the editor chat');
    assert.ok((await model.countTokens('four')) >= 1);
  });
});
