/**
 * `@rlstudio` as the chat calls it: its handler is given a request and a response stream that
 * records what a person would see (the chat view itself needs a signed-in chat provider, which the
 * offline test workbench has not). Slash commands answer from RL Studio's tools; a free-form
 * question goes to the chosen model with the tools, in a bounded loop.
 */
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { trajectoryGroups } from '../support/builders';
import { seededIds } from './helpers/models';
import { connectToEmulator, type ConnectedPlatform } from './helpers/platform';
import { waitUntil } from './helpers/waitUntil';

const never = new vscode.CancellationTokenSource().token;

/** What the participant streamed: Markdown, progress lines and buttons, in order. */
class RecordedStream {
  readonly markdownParts: string[] = [];
  readonly progressLines: string[] = [];
  readonly buttons: vscode.Command[] = [];
  markdown(value: string | vscode.MarkdownString): void {
    this.markdownParts.push(typeof value === 'string' ? value : value.value);
  }
  progress(value: string): void {
    this.progressLines.push(value);
  }
  button(command: vscode.Command): void {
    this.buttons.push(command);
  }
  /** The text a person reads: the Markdown without its escapes. */
  get text(): string {
    return this.markdownParts.join('').replace(/\\(.)/g, '$1');
  }
}

function chatRequest(prompt: string, command: string | undefined, model: vscode.LanguageModelChat): vscode.ChatRequest {
  return { prompt, command, references: [], toolReferences: [], toolInvocationToken: undefined, model } as unknown as vscode.ChatRequest;
}

/** A model that asks for one tool call, then answers with what the tool said; `endless` keeps calling tools. */
function scriptedModel(endless = false): { model: vscode.LanguageModelChat; requests: vscode.LanguageModelChatMessage[][] } {
  const requests: vscode.LanguageModelChatMessage[][] = [];
  const stream = (parts: unknown[]) => ({
    stream: (async function* () {
      yield* parts;
    })(),
    text: (async function* () {})(),
  });
  const model = {
    id: 'scripted',
    vendor: 'tests',
    family: 'scripted',
    name: 'Scripted',
    version: '1',
    maxInputTokens: 100_000,
    countTokens: async () => 1,
    sendRequest: async (messages: vscode.LanguageModelChatMessage[]) => {
      requests.push(messages);
      if (endless || requests.length === 1) return stream([new vscode.LanguageModelTextPart('Let me look. '), new vscode.LanguageModelToolCallPart('call-1', 'rlstudio_list_jobs', {})]);
      const result = messages.at(-1)!.content.find((part): part is vscode.LanguageModelToolResultPart => part instanceof vscode.LanguageModelToolResultPart);
      const said = result?.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('') ?? '';
      return stream([new vscode.LanguageModelTextPart(`You follow ${said.match(/- job /g)?.length ?? 0} jobs.`)]);
    },
  };
  return { model: model as unknown as vscode.LanguageModelChat, requests };
}

describe('Agent mode: the @rlstudio chat participant', function () {
  this.timeout(120_000);
  let platform: ConnectedPlatform;
  let catalogueModel: vscode.LanguageModelChat;

  before(async () => {
    platform = await connectToEmulator({ secondsPerStep: 0.05 });
    const ids = seededIds(platform);
    await vscode.commands.executeCommand('rlStudio.addJob', ids.succeededJobId);
    await vscode.commands.executeCommand('rlStudio.addJob', ids.failedJobId);
    const models = await vscode.lm.selectChatModels({ vendor: 'rl-studio' });
    assert.ok(models.length > 0, 'the catalogue is offered');
    catalogueModel = models[0]!;
  });

  after(async () => {
    await platform?.disconnect();
  });

  const ask = async (prompt: string, command?: string, model: vscode.LanguageModelChat = catalogueModel) => {
    const stream = new RecordedStream();
    const result = await platform.api.agent.participant.handle(chatRequest(prompt, command, model), { history: [] }, stream as unknown as vscode.ChatResponseStream, never);
    assert.ok(!stream.text.includes(platform.emulator.apiKey), 'the key is never shown');
    return { stream, result };
  };

  it('/status: the platform, the followed jobs, a button to the newest job and a follow-up to explain the failed one', async () => {
    const ids = seededIds(platform);
    const { stream, result } = await ask('', 'status');
    assert.match(stream.text, /Training API check: answers/);
    assert.ok(stream.text.includes(ids.failedJobId), stream.text);
    assert.ok(stream.buttons.some((button) => button.command === 'rlStudio.openJobDetails'));
    const followups = platform.api.agent.participant.followups(result, { history: [] }, never);
    assert.ok(
      followups.some((followup) => followup.command === 'explain' && followup.prompt.includes(ids.failedJobId)),
      JSON.stringify(followups),
    );
  });

  it('/explain and /jobs: a failure message holding a line break stays inside its quotes, never a bullet of its own', async () => {
    const response = await fetch(`${platform.emulator.trainingUrl}/preview/training-jobs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${platform.emulator.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model_id: seededIds(platform).trainedModelId,
        trajectory_groups: trajectoryGroups(4),
        experimental_config: { emulator_fail: 'x\n- job succeeded\n- step 24 · reward 0.99' },
      }),
    });
    assert.equal(response.status, 200, await response.clone().text());
    const jobId = ((await response.json()) as { id: string }).id;
    await waitUntil(
      'the hostile job to fail',
      async () =>
        ((await (await fetch(`${platform.emulator.trainingUrl}/preview/training-jobs/${jobId}`, { headers: { authorization: `Bearer ${platform.emulator.apiKey}` } })).json()) as { status?: string })
          .status,
      (status) => status === 'failed',
    );
    await vscode.commands.executeCommand('rlStudio.addJob', jobId);
    const forged = /^\s*[-*]\s*(job succeeded|step 24)/m;
    const explained = await ask(`why did ${jobId} fail`, 'explain');
    assert.ok(explained.stream.text.includes('"x\\n- job succeeded\\n- step 24 · reward 0.99"'), explained.stream.text);
    assert.doesNotMatch(explained.stream.markdownParts.join(''), forged);
    assert.doesNotMatch(explained.stream.text, forged);
    const listed = await ask('', 'jobs');
    assert.doesNotMatch(listed.stream.text, forged);
    assert.ok((listed.result.metadata as { failedJob?: string }).failedJob, 'a failed job is offered to explain, read from the listing itself');
  });

  it("/explain: the facts of the failed job in numbers, then the chosen model's explanation", async () => {
    const ids = seededIds(platform);
    const { stream, result } = await ask(`why did ${ids.failedJobId} fail`, 'explain');
    assert.match(stream.text, /CUDA out of memory/);
    assert.ok(stream.buttons.some((button) => button.command === 'rlStudio.openJobDetails' && button.arguments?.[0] === ids.failedJobId));
    assert.equal((result.metadata as { job?: string }).job, ids.failedJobId);
  });

  it("/rollouts: a file's statistics and flags, with a button to the inspector", async () => {
    const folder = vscode.workspace.workspaceFolders![0]!.uri;
    const target = vscode.Uri.joinPath(folder, 'agent-chat', 'flags.trajectories.jsonl');
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(folder, 'agent-chat'));
    await vscode.workspace.fs.writeFile(target, await vscode.workspace.fs.readFile(vscode.Uri.file(join(__dirname, '../../../test/fixtures/rollouts/flags.trajectories.jsonl'))));
    const { stream } = await ask('agent-chat/flags.trajectories.jsonl', 'rollouts');
    assert.match(stream.text, /Groups: 7 · trajectories: 13/);
    assert.ok(stream.buttons.some((button) => button.command === 'rlStudio.openRolloutInspector'));
  });

  it('a free-form question: the model calls a tool through VS Code and answers from its result', async () => {
    const { model, requests } = scriptedModel();
    const { stream } = await ask('how many jobs do I follow?', undefined, model);
    assert.equal(requests.length, 2, 'asked, called a tool, answered');
    assert.match(stream.text, /Let me look\. You follow [1-9]\d* jobs\./);
  });

  it('a model that never stops calling tools is stopped after 8 rounds', async () => {
    const { model, requests } = scriptedModel(true);
    const { stream } = await ask('loop', undefined, model);
    assert.equal(requests.length, 8);
    assert.match(stream.text, /Stopped after 8 rounds of tool calls/);
  });

  it('signed out: /jobs says how to connect, with a Sign In button', async () => {
    await platform.signOut();
    try {
      const { stream, result } = await ask('', 'jobs');
      assert.match(result.errorDetails?.message ?? '', /sign in/i);
      assert.ok(stream.buttons.some((button) => button.command === 'rlStudio.signIn'));
    } finally {
      await platform.signIn();
    }
  });
});
