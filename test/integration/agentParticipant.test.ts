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
import { foldCompletedAnswer, type ChatPart } from '../unit/agent/chatFolding';
import { seededIds } from './helpers/models';
import { connectToEmulator, type ConnectedPlatform } from './helpers/platform';
import { waitUntil } from './helpers/waitUntil';

const never = new vscode.CancellationTokenSource().token;

/** The text a person reads: the Markdown without its escapes. */
const shown = (markdown: string) => markdown.replace(/\\(.)/g, '$1');

/** What the participant streamed: Markdown, progress lines and buttons, in order. */
class RecordedStream {
  readonly markdownParts: string[] = [];
  readonly progressLines: string[] = [];
  readonly buttons: vscode.Command[] = [];
  /** Every part in the order the chat received it. */
  readonly parts: ChatPart[] = [];
  markdown(value: string | vscode.MarkdownString): void {
    const text = typeof value === 'string' ? value : value.value;
    this.markdownParts.push(text);
    this.parts.push({ kind: 'markdown', value: text });
  }
  progress(value: string): void {
    this.progressLines.push(value);
    this.parts.push({ kind: 'progress', value });
  }
  button(command: vscode.Command): void {
    this.buttons.push(command);
    this.parts.push({ kind: 'button', value: command.command });
  }
  get text(): string {
    return shown(this.markdownParts.join(''));
  }
  /** What stays open once the chat folds the completed answer: its last run of Markdown, and the buttons after it. */
  get open(): { text: string; buttons: string[] } {
    const folded = foldCompletedAnswer(this.parts);
    return { text: shown(folded.openText), buttons: folded.after.filter((part) => part.kind === 'button').map((part) => part.value) };
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

/** A chosen model that cannot answer, as one from a chat provider nobody signed in to. */
function unavailableModel(): { model: vscode.LanguageModelChat; asked: () => number } {
  let asked = 0;
  const model = {
    id: 'gpt-unavailable',
    vendor: 'copilot',
    family: 'gpt',
    name: 'GPT Unavailable',
    version: '1',
    maxInputTokens: 100_000,
    countTokens: async () => 1,
    sendRequest: async () => {
      asked++;
      throw new Error('Language model unavailable');
    },
  };
  return { model: model as unknown as vscode.LanguageModelChat, asked: () => asked };
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
    // What the person reads stays open once the chat folds the work: the platform and the jobs, then the button.
    assert.match(stream.open.text, /Training API check: answers/);
    assert.ok(stream.open.text.includes(ids.failedJobId), stream.text);
    assert.deepEqual(stream.open.buttons, ['rlStudio.openJobDetails']);
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
    // The facts and the model's reading are one open run of Markdown; the button comes after it, so nothing the person needs folds.
    assert.match(stream.open.text, /CUDA out of memory/);
    assert.ok(stream.open.text.indexOf('CUDA out of memory') < stream.open.text.length - 40, 'the reading follows the facts');
    assert.deepEqual(stream.open.buttons, ['rlStudio.openJobDetails']);
    assert.ok(stream.buttons.some((button) => button.command === 'rlStudio.openJobDetails' && button.arguments?.[0] === ids.failedJobId));
    assert.equal((result.metadata as { job?: string }).job, ids.failedJobId);
  });

  it("/explain with a chosen model that cannot answer: one of RL Studio's models reads the facts, and a line says which and why", async () => {
    const ids = seededIds(platform);
    const unavailable = unavailableModel();
    const { stream } = await ask(`why did ${ids.failedJobId} fail`, 'explain', unavailable.model);
    assert.equal(unavailable.asked(), 1);
    const notice = /\*The chosen model, "GPT Unavailable", could not answer \(Language model unavailable\), so RL Studio's model (.+?) answered instead\.\*/.exec(stream.open.text);
    assert.ok(notice, stream.open.text);
    const offered = await vscode.lm.selectChatModels({ vendor: 'rl-studio' });
    assert.ok(
      offered.some((model) => model.name === notice[1]!.replace(/^"|"$/g, '')),
      `the stand-in is one of RL Studio's: ${notice[1]}`,
    );
    assert.match(stream.open.text, /CUDA out of memory/);
    assert.ok(stream.open.text.trim().length > stream.open.text.indexOf(notice[0]) + notice[0].length + 20, "the stand-in's reading follows the line");
    assert.deepEqual(stream.open.buttons, ['rlStudio.openJobDetails']);
  });

  it("/explain when neither the chosen model nor RL Studio's can answer: the facts stand, with a line naming both reasons", async () => {
    const ids = seededIds(platform);
    // Every completion fails (the stand-in's retries included) until the faults are cleared.
    platform.emulator.addFault({ kind: 'status', status: 500, method: 'POST', path: '/inference/v1/chat/completions', times: -1 });
    try {
      const { stream, result } = await ask(`why did ${ids.failedJobId} fail`, 'explain', unavailableModel().model);
      assert.equal(result.errorDetails, undefined, JSON.stringify(result.errorDetails));
      assert.match(stream.open.text, /CUDA out of memory/);
      assert.match(stream.open.text, /could not answer \(Language model unavailable\), nor could RL Studio's model .+ \(.*500.*\)\. Choose another model/);
      assert.match(stream.open.text, /The facts above are measured from the job and stand without a model\.\*$/);
      assert.deepEqual(stream.open.buttons, ['rlStudio.openJobDetails']);
    } finally {
      platform.emulator.clearFaults();
    }
  });

  it("a free-form question to a chosen model that cannot answer: RL Studio's model answers, saying it calls no tools", async () => {
    const { stream, result } = await ask('how do I pick a learning rate?', undefined, unavailableModel().model);
    assert.equal(result.errorDetails, undefined, JSON.stringify(result.errorDetails));
    assert.match(stream.text, /could not answer \(Language model unavailable\), so RL Studio's model \S+ answered instead\. It calls no tools/);
    assert.ok(stream.text.length > stream.text.indexOf('answer with measured numbers.*') + 40, 'an answer follows the line');
  });

  it("/rollouts: a file's statistics and flags, with a button to the inspector", async () => {
    const folder = vscode.workspace.workspaceFolders![0]!.uri;
    const target = vscode.Uri.joinPath(folder, 'agent-chat', 'flags.trajectories.jsonl');
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(folder, 'agent-chat'));
    await vscode.workspace.fs.writeFile(target, await vscode.workspace.fs.readFile(vscode.Uri.file(join(__dirname, '../../../test/fixtures/rollouts/flags.trajectories.jsonl'))));
    const { stream } = await ask('agent-chat/flags.trajectories.jsonl', 'rollouts');
    assert.match(stream.open.text, /Groups: 7 · trajectories: 13/);
    assert.deepEqual(stream.open.buttons, ['rlStudio.openRolloutInspector']);
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

  it('signed out: /jobs says how to connect, with a Sign In button; a question no model can answer says to sign in', async () => {
    await platform.signOut();
    try {
      const { stream, result } = await ask('', 'jobs');
      assert.match(result.errorDetails?.message ?? '', /sign in/i);
      assert.ok(stream.buttons.some((button) => button.command === 'rlStudio.signIn'));
      const unanswered = await ask('how do I pick a learning rate?', undefined, unavailableModel().model);
      assert.match(unanswered.stream.open.text, /could not answer \(Language model unavailable\), and RL Studio offers its models only when signed in\. Sign in to RL Studio/);
      assert.equal(unanswered.result.errorDetails, undefined);
    } finally {
      await platform.signIn();
    }
  });
});
