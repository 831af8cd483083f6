import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { checkpointNode, seededIds, trainedModelListed, trainedModelName } from './helpers/models';
import { connectToEmulator, type ConnectedPlatform } from './helpers/platform';
import { waitUntil } from './helpers/waitUntil';

describe('Promotion: a checkpoint used in the chat and the model picker', function () {
  this.timeout(90_000);
  let platform: ConnectedPlatform;

  before(async () => {
    platform = await connectToEmulator({ secondsPerStep: 0.05 });
  });

  after(async () => {
    await platform?.disconnect();
  });

  it("pins a checkpoint: first in VS Code's model picker (answering through the training API), the chat's default, its id on the clipboard", async () => {
    const ids = seededIds(platform);
    await trainedModelListed(platform);
    const node = await checkpointNode(platform.api.views.models, ids.trainedModelId, 0);
    const modelId = `wandb-artifact:///${trainedModelName(ids)}:step0`;
    await vscode.commands.executeCommand('rlStudio.useInChat', node);

    assert.equal(await vscode.env.clipboard.readText(), modelId);
    assert.equal(platform.api.storedState()['global:rlStudio.chat.lastModel'], modelId, 'new chats start with it');
    const offered = await waitUntil(
      'the pinned checkpoint in the model picker',
      async () => vscode.lm.selectChatModels({ vendor: 'rl-studio' }),
      (list) => list.some((model) => model.id === modelId),
      { timeoutMs: 20_000 },
    );
    const pinned = offered.find((model) => model.id === modelId)!;
    const before = platform.emulator.requests.length;
    const response = await pinned.sendRequest([vscode.LanguageModelChatMessage.User('/echo from the pinned step')], {}, new vscode.CancellationTokenSource().token);
    let text = '';
    for await (const part of response.text) text += part;
    assert.equal(text, 'from the pinned step');
    const sent = platform.emulator.requests.slice(before).filter((request) => request.path.endsWith('/chat/completions'));
    assert.deepEqual(
      sent.map((request) => request.path),
      ['/training/v1/chat/completions'],
      'answered by the training API, not the inference API (/inference/v1)',
    );
  });
});
