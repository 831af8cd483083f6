import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { checkpointNode, seededIds, trainingModelNode } from './helpers/models';
import { connectToEmulator, type ConnectedPlatform } from './helpers/platform';
import { waitUntil } from './helpers/waitUntil';

const setting = 'pickerModels';
const section = 'rlStudio.languageModels';

/**
 * The emulator's catalogue and the prompt size its `max_model_len` gives: the context less the
 * answer's share, a quarter of it and at most 8,192 (the editor shows callers the prompt size only).
 */
const expectedInputTokens: Record<string, number> = {
  'OpenPipe/Qwen3-14B-Instruct': 131_072 - 8_192,
  'meta-llama/Llama-3.1-8B-Instruct': 16_384 - 4_096,
  'Qwen/Qwen3-235B-A22B-Instruct-2507': 262_144 - 8_192,
  // Its entry has no max_model_len: the conservative default.
  'deepseek-ai/DeepSeek-R1-reasoning-demo': 32_768,
};

function inputTokensOf(models: readonly vscode.LanguageModelChat[], id: string): number | undefined {
  return models.find((model) => model.id === id)?.maxInputTokens;
}

async function rlStudioModels(what: string, accept: (models: vscode.LanguageModelChat[]) => boolean): Promise<vscode.LanguageModelChat[]> {
  return waitUntil(what, async () => vscode.lm.selectChatModels({ vendor: 'rl-studio' }), accept, { timeoutMs: 20_000 });
}

/** What a request to the model throws, wherever the editor raises it (on sending or while reading). */
async function failureOf(model: vscode.LanguageModelChat): Promise<unknown> {
  try {
    const response = await model.sendRequest([vscode.LanguageModelChatMessage.User('/echo should fail')], {}, new vscode.CancellationTokenSource().token);
    for await (const part of response.text) void part;
  } catch (error) {
    return error;
  }
  assert.fail('the request succeeded');
}

describe("Model picker: RL Studio's models in the editor, their limits and their failures", function () {
  this.timeout(120_000);
  let platform: ConnectedPlatform;
  let previous: string[] | undefined;

  before(async () => {
    platform = await connectToEmulator({ secondsPerStep: 0.05 });
    previous = vscode.workspace.getConfiguration(section).inspect<string[]>(setting)?.globalValue;
  });

  after(async () => {
    platform?.emulator.clearFaults();
    await vscode.workspace.getConfiguration(section).update(setting, previous, vscode.ConfigurationTarget.Global);
    await platform?.disconnect();
  });

  it('lists every catalogue model with the limits its max_model_len gives, and reads the list again when the setting changes', async () => {
    const ids = seededIds(platform);
    assert.deepEqual(Object.keys(expectedInputTokens).sort(), [...ids.inferenceModels].sort(), 'the limits above cover the whole emulator catalogue');
    const listed = await rlStudioModels('the catalogue in the editor', (models) => ids.inferenceModels.every((id) => models.some((model) => model.id === id)));
    for (const id of ids.inferenceModels) assert.equal(inputTokensOf(listed, id), expectedInputTokens[id], id);

    await vscode.workspace.getConfiguration(section).update(setting, ['meta-llama/*'], vscode.ConfigurationTarget.Global);
    // The editor asks again because the provider said its list changed; the log says what it now offers.
    await waitUntil(
      'the narrowed picker in the log',
      () => platform.api.recentLogLines(),
      (lines) => lines.some((line) => line.includes('the model picker offers 1 of 4 catalogue models')),
    );
    // Models the picker does not offer stay listed, for callers that select them by id.
    const narrowed = await rlStudioModels('the catalogue after the setting changed', (models) => ids.inferenceModels.every((id) => models.some((model) => model.id === id)));
    for (const id of ids.inferenceModels) assert.equal(inputTokensOf(narrowed, id), expectedInputTokens[id], id);
  });

  it("gives a pinned checkpoint the limits of its training model's base model", async () => {
    const base = 'OpenPipe/Qwen3-14B-Instruct';
    platform.api.dialogs.answerNext(base, 'picker-tests', 'picker-base', '', 'Use the existing model', 'Create Model');
    const created = (await vscode.commands.executeCommand('rlStudio.createModel')) as { id: string; entity: string; project: string; name: string; base_model: string };
    assert.equal(created.base_model, base);
    const node = await checkpointNode(platform.api.views.models, created.id, 0);
    await vscode.commands.executeCommand('rlStudio.useInChat', node);
    const pinnedId = `wandb-artifact:///${created.entity}/${created.project}/${created.name}:step0`;
    const listed = await rlStudioModels('the pinned checkpoint in the editor', (models) => models.some((model) => model.id === pinnedId));
    assert.equal(inputTokensOf(listed, pinnedId), expectedInputTokens[base]);
    await vscode.commands.executeCommand('rlStudio.removeModel', await trainingModelNode(platform.api.views.models, created.id));
  });

  for (const { status, code, words } of [
    { status: 401, code: 'NoPermissions', words: /^The RL Studio key was rejected \(401\): sign in again with RL Studio: Sign In\./ },
    { status: 404, code: 'NotFound', words: /^The inference API has no such model \(404\)\. It may have left the catalogue: choose another RL Studio model\./ },
    { status: 429, code: 'Blocked', words: /^Too many requests \(429\): the platform asked RL Studio to slow down\. It said: "Concurrency limit reached for requests"\. Try again in 3 s\./ },
  ]) {
    it(`a ${status} answer to a request rejects with a LanguageModelError ${code} that says what to do`, async () => {
      const listed = await rlStudioModels('the catalogue in the editor', (models) => models.some((model) => model.id === 'meta-llama/Llama-3.1-8B-Instruct'));
      const model = listed.find((candidate) => candidate.id === 'meta-llama/Llama-3.1-8B-Instruct')!;
      platform.emulator.addFault({ kind: 'status', status, method: 'POST', path: '/inference/v1/chat/completions', ...(status === 429 ? { retryAfter: 3 } : {}) });
      const error = await failureOf(model);
      assert.ok(error instanceof vscode.LanguageModelError, `a LanguageModelError, not ${String(error)}`);
      assert.equal(error.code, code);
      assert.match(error.message, words);
      assert.ok(!error.message.includes(platform.emulator.apiKey), 'no key in the message');
    });
  }
});
