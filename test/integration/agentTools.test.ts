/**
 * RL Studio's language-model tools as VS Code calls them (vscode.lm.invokeTool) against the
 * emulator: what each answers, what a costly one asks first, what bad input and a signed-out or
 * unreachable platform get. A costly tool's confirmation, shown outside a chat as a workbench dialog
 * that no extension test can answer, is read from its prepareInvocation (the UI test clicks it).
 */
import * as assert from 'node:assert/strict';
import { readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { GENERATED_PROJECT } from '../emulator/seed';
import { DEFAULT_ENTITY } from '../emulator/state';
import { seededIds, trainedModelListed } from './helpers/models';
import { connectToEmulator, type ConnectedPlatform } from './helpers/platform';
import { waitUntil } from './helpers/waitUntil';
import { artParquetBytes } from '../support/artParquet';

const fixtures = join(__dirname, '../../../test/fixtures');
const never = new vscode.CancellationTokenSource().token;

function textOf(result: vscode.LanguageModelToolResult | null | undefined): string {
  assert.ok(result, 'the tool answered');
  return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

async function invoke(name: string, input: object): Promise<string> {
  return textOf(await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, never));
}

async function refusal(name: string, input: object): Promise<string> {
  try {
    await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, never);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  throw new Error(`${name} accepted ${JSON.stringify(input)}`);
}

describe('Agent mode: RL Studio tools through vscode.lm.invokeTool', function () {
  this.timeout(120_000);
  let platform: ConnectedPlatform;
  let folder: vscode.Uri;
  const outputs: string[] = [];

  before(async () => {
    platform = await connectToEmulator({ secondsPerStep: 0.05 });
    folder = vscode.workspace.workspaceFolders![0]!.uri;
    const copy = async (from: string, to: string) => {
      const target = vscode.Uri.joinPath(folder, 'agent', to);
      await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(target, '..'));
      await vscode.workspace.fs.writeFile(target, await vscode.workspace.fs.readFile(vscode.Uri.file(join(fixtures, from))));
    };
    await copy('jobs/groups.jsonl', 'batch-7.jsonl');
    await copy('jobs/invalid.jsonl', 'broken.jsonl');
    await copy('rollouts/flags.trajectories.jsonl', 'flags.trajectories.jsonl');
    await copy('evals/arith.evalset.jsonl', 'holdout.evalset.jsonl');
    await copy('../vscode/demo-workspace/payloads/generic.payload.json', 'generic.payload.json');
  });

  after(async () => {
    // No answer of any tool holds the key.
    for (const output of outputs) assert.ok(!output.includes(platform.emulator.apiKey), 'a tool returned the API key');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await platform?.disconnect();
  });

  const read = async (name: string, input: object) => {
    const text = await invoke(name, input);
    outputs.push(text);
    return text;
  };

  it('offers every contributed tool to the chat, with a reference name and an input schema', async () => {
    const contributed = (vscode.extensions.getExtension('rl-studio.rl-studio')!.packageJSON as { contributes: { languageModelTools: { name: string }[] } }).contributes.languageModelTools;
    const names = contributed.map((tool) => tool.name).filter((name) => name !== 'rlstudio_send_webhook_test');
    const listed = await waitUntil(
      'the tools listed',
      () => vscode.lm.tools.filter((tool) => tool.tags.includes('rl-studio')),
      (tools) => names.every((name) => tools.some((tool) => tool.name === name)),
    );
    for (const tool of listed) assert.ok(tool.description.length > 80, `${tool.name} has a precise description`);
  });

  it("answers the read-only tools with the platform's facts and the ids the next call needs", async () => {
    const ids = seededIds(platform);
    await trainedModelListed(platform);
    await vscode.commands.executeCommand('rlStudio.addJob', ids.failedJobId);
    await vscode.commands.executeCommand('rlStudio.addJob', ids.succeededJobId);

    assert.match(await read('rlstudio_platform_status', {}), /Training API check: answers \(\d+ ms\); system check passed/);
    const models = await read('rlstudio_list_models', { modelId: ids.trainedModelId, checkpoints: 3 });
    assert.match(models, new RegExp(`id ${ids.trainedModelId}`));
    assert.match(models, /- step \d+ · /, 'checkpoints with their metrics');
    const jobs = await read('rlstudio_list_jobs', {});
    assert.match(jobs, new RegExp(`- job ${ids.failedJobId} · RL · [^\\n]*fail`, 'i'));
    const failed = await read('rlstudio_job_status', { jobId: ids.failedJobId });
    assert.match(failed, /CUDA out of memory/, 'the failure message, verbatim');
    const metrics = await read('rlstudio_job_metrics', { jobId: ids.succeededJobId });
    assert.match(metrics, /loss/);
  });

  it('summarises and validates workspace files, and renders a payload with its secrets masked', async () => {
    const rollouts = await read('rlstudio_summarise_rollouts', { path: 'agent/flags.trajectories.jsonl' });
    assert.match(rollouts, /Groups: 7 · trajectories: 13/);
    assert.match(rollouts, /- no signal: 2 of 7/);
    assert.match(await read('rlstudio_validate_trajectories', { path: 'agent/batch-7.jsonl' }), /can be sent: 4 trajectory groups/);
    const broken = await read('rlstudio_validate_trajectories', { path: 'agent/broken.jsonl' });
    assert.match(broken, /cannot be sent/);
    assert.match(broken, /- line \d+, column \d+: error: /);
    const payload = await read('rlstudio_render_payload', { path: 'agent/generic.payload.json' });
    assert.match(payload, /rendered with the \w+ sample event/);
    assert.match(payload, /Rendered body \(secrets masked\):\n\{/);
  });

  it("summarises, validates and confirms training on the official client's Parquet log", async () => {
    const groups = readFileSync(join(fixtures, 'jobs/groups.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as unknown);
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(folder, 'agent', '0005.parquet'), await artParquetBytes(groups));
    const summary = await read('rlstudio_summarise_rollouts', { path: 'agent/0005.parquet' });
    assert.match(summary, /Groups: 4 · trajectories: 8/);
    assert.match(summary, /Problems: none\./);
    assert.match(await read('rlstudio_validate_trajectories', { path: 'agent/0005.parquet' }), /can be sent: 4 trajectory groups/);
    await trainedModelListed(platform);
    // The confirmation counts the groups read from the log; what it keeps to compare is the digest of the file's bytes.
    const prepared = await platform.api.agent.tools.get('rlstudio_start_training' as never)!.prepareInvocation!(
      { input: { modelId: seededIds(platform).trainedModelId, path: 'agent/0005.parquet' } },
      never,
    );
    const message = prepared!.confirmationMessages!;
    const confirmation = `${message.title} ${typeof message.message === 'string' ? message.message : message.message.value}`;
    assert.match(confirmation, /Start a training job on "agent-001" with 4 trajectory groups from agent\/0005\.parquet\?/);
    assert.match(confirmation, /\? 4 trajectory groups, 8 trajectories\.\n/);
    const cities = vscode.Uri.joinPath(folder, 'agent', 'cities.parquet');
    await vscode.workspace.fs.writeFile(cities, new TextEncoder().encode('a text file that is not Parquet at all'));
    assert.match(await refusal('rlstudio_summarise_rollouts', { path: 'agent/cities.parquet' }), /not a trajectory log RL Studio can read: this file is not Parquet/);
  });

  it('refuses bad input before anything is read or sent, and before any confirmation', async () => {
    const before = platform.emulator.requests.length;
    assert.match(await refusal('rlstudio_summarise_rollouts', { path: '../outside.jsonl' }), /inside the workspace/);
    assert.match(await refusal('rlstudio_validate_trajectories', { path: '/etc/passwd' }), /outside the workspace/);
    const outside = join(tmpdir(), `rl-studio-outside-${process.pid}.jsonl`);
    writeFileSync(outside, '{}\n');
    const link = join(folder.fsPath, 'agent', 'link.jsonl');
    rmSync(link, { force: true });
    symlinkSync(outside, link);
    assert.match(await refusal('rlstudio_validate_trajectories', { path: 'agent/link.jsonl' }), /leads outside the workspace/);
    assert.match(await refusal('rlstudio_job_status', { jobId: '../../models' }), /not an id/);
    assert.match(await refusal('rlstudio_job_status', { jobId: '%2e%2e' }), /not an id/);
    assert.match(await refusal('rlstudio_delete_checkpoints', { modelId: seededIds(platform).trainedModelId, steps: [1.5] }), /whole numbers/);
    assert.match(await refusal('rlstudio_delete_checkpoints', { modelId: seededIds(platform).trainedModelId, steps: [] }), /non-empty array/);
    assert.match(await refusal('rlstudio_start_training', { modelId: 'not-a-known-model', path: 'agent/batch-7.jsonl' }), /No training model with id not-a-known-model/);
    assert.match(await refusal('rlstudio_start_training', { modelId: seededIds(platform).trainedModelId, path: 'agent/broken.jsonl' }), /has problems, so no job was started/);
    assert.equal(platform.emulator.requests.slice(before).filter((request) => request.method !== 'GET').length, 0, 'nothing was sent');
  });

  it('names exactly what a costly tool will do before it runs, then does it', async () => {
    const ids = seededIds(platform);
    const origin = new URL(platform.emulator.trainingUrl).host;
    const tools = platform.api.agent.tools;
    const prepare = async (name: string, input: object) => {
      const prepared = await tools.get(name as never)!.prepareInvocation!({ input: input as Record<string, unknown> }, never);
      const message = prepared?.confirmationMessages;
      assert.ok(message, `${name} asks first`);
      return `${message.title} ${typeof message.message === 'string' ? message.message : message.message.value}`;
    };
    const train = { modelId: ids.trainedModelId, path: 'agent/batch-7.jsonl' };
    const confirmation = await prepare('rlstudio_start_training', train);
    assert.match(confirmation, /Start a training job on "agent-001" with 4 trajectory groups from agent\/batch-7\.jsonl\?/);
    assert.match(confirmation, /\? 4 trajectory groups, \d+ trajectories\.\n/);
    assert.match(confirmation, /^Model: "[^"\n]*agent-001", id \S+$/m);
    assert.ok(confirmation.includes(origin.replace(/:\d+$/, '')), `names the endpoint: ${confirmation}`);
    const created = textOf(await tools.get('rlstudio_start_training')!.invoke({ input: train, toolInvocationToken: undefined } as never, never));
    const jobId = /Started RL training job (\S+) /.exec(created)?.[1];
    assert.ok(jobId, created);
    assert.ok(
      platform.emulator.requests.some((request) => request.method === 'POST' && request.path.endsWith('/preview/training-jobs')),
      'the job was created',
    );
    assert.match(await read('rlstudio_list_jobs', {}), new RegExp(`- job ${jobId} · RL · `), 'and is followed');

    const modelId = await platform.emulator.createModelWithCheckpoints('prune-me', 6);
    await vscode.commands.executeCommand('rlStudio.addModel', modelId, `${DEFAULT_ENTITY}/${GENERATED_PROJECT}/prune-me`);
    const deletion = await prepare('rlstudio_delete_checkpoints', { modelId, steps: [1, 3] });
    assert.match(deletion, /Delete 2 checkpoints of "prune-me"\?/);
    assert.match(deletion, /Steps: 1, 3\n/);
    assert.match(deletion, /\nModel: "[^"\n]*prune-me", id \S+\n/);
    assert.match(deletion, /cannot be undone/);
    assert.match(await refusal('rlstudio_delete_checkpoints', { modelId, steps: [5] }), /latest checkpoint/);
    const deleted = textOf(await tools.get('rlstudio_delete_checkpoints')!.invoke({ input: { modelId, steps: [1, 3] }, toolInvocationToken: undefined } as never, never));
    assert.match(deleted, /Deleted 2 checkpoints of "prune-me"/);
    const left = await invoke('rlstudio_list_models', { modelId, checkpoints: 10 });
    assert.doesNotMatch(left, /- step (1|3) /);
    assert.match(left, /- step 5 /);
  });

  it('creates a model and starts a fine-tuning job once confirmed, and refuses a webhook test with no webhook', async () => {
    const tools = platform.api.agent.tools;
    const run = async (name: string, input: Record<string, unknown>) => {
      const tool = tools.get(name as never)!;
      const prepared = await tool.prepareInvocation!({ input }, never);
      const message = prepared!.confirmationMessages!;
      const text = textOf(await tool.invoke({ input, toolInvocationToken: undefined } as never, never));
      outputs.push(text);
      // As the dialog shows it: the Markdown without its escapes.
      const confirmation = `${message.title} ${typeof message.message === 'string' ? message.message : message.message.value}`.replace(/\\(.)/g, '$1');
      return { confirmation, text };
    };
    const created = await run('rlstudio_create_model', { name: 'agent-made', project: 'agents', baseModel: seededIds(platform).baseModels[0]! });
    assert.match(created.confirmation, /Create the training model "agent-made" in project "agents"\? Name: "agent-made"\nProject: "agents"\n.*\nBase model: /);
    const modelId = /id (\S+),/.exec(created.text)?.[1];
    assert.ok(modelId, created.text);
    const sft = await run('rlstudio_start_sft', { modelId, trainingDataUrl: 'https://data.example/sft.jsonl', batchSize: 8 });
    assert.match(
      sft.confirmation,
      /Start a fine-tuning job on "agent-made"\? Model: "[^"\n]*agent-made", id \S+\s+Training data host: data\.example\s+Training data: https:\/\/data\.example\/sft\.jsonl\s+Settings: batch size 8, learning rate default/,
    );
    assert.match(sft.text, /Started supervised fine-tuning job \S+ on model "agent-made"/);
    assert.match(await refusal('rlstudio_send_webhook_test', { path: 'agent/generic.payload.json' }), /not written for a webhook/);
    assert.match(await refusal('rlstudio_send_webhook_test', { path: 'agent/generic.payload.json', webhook: 'nope' }), /No webhook named "nope"/);
  });

  it('evaluates checkpoints from a chat, ranking step 20 first', async () => {
    const ids = seededIds(platform);
    await trainedModelListed(platform);
    const input = { modelId: ids.trainedModelId, steps: [10, 20, 24], evalSet: 'agent/holdout.evalset.jsonl', compareWithBase: true };
    const tool = platform.api.agent.tools.get('rlstudio_evaluate_checkpoints')!;
    const prepared = await tool.prepareInvocation!({ input }, never);
    const message = prepared!.confirmationMessages!.message;
    assert.match(typeof message === 'string' ? message : message.value, /40 samples × 4 models × 1 answers = up to 160 chat completions/);
    const board = textOf(await tool.invoke({ input, toolInvocationToken: undefined } as never, never));
    outputs.push(board);
    assert.match(board, /^1\. step 20: /m);
  });

  it('evaluates nothing when the eval set changed after the confirmation, and says so', async () => {
    const ids = seededIds(platform);
    const setPath = join(folder.fsPath, 'agent', 'changing.evalset.jsonl');
    const original = readFileSync(join(fixtures, 'evals/arith.evalset.jsonl'), 'utf8');
    writeFileSync(setPath, original);
    const input = { modelId: ids.trainedModelId, steps: [10], evalSet: 'agent/changing.evalset.jsonl' };
    const tool = platform.api.agent.tools.get('rlstudio_evaluate_checkpoints')!;
    await tool.prepareInvocation!({ input }, never);
    writeFileSync(setPath, `${original.trimEnd()}\n${original.trimEnd().split('\n')[0]}\n`);
    const completions = () => platform.emulator.requests.filter((request) => request.method === 'POST' && request.path.endsWith('/chat/completions')).length;
    const before = completions();
    await assert.rejects(async () => tool.invoke({ input, toolInvocationToken: undefined } as never, never), /the file changed after you confirmed; nothing was sent/i);
    assert.equal(completions() - before, 0, 'no chat completion was asked');
  });

  it("sends no webhook test when the payload changed after the confirmation, which named the endpoint's host", async () => {
    const hits: string[] = [];
    const server = createServer((request, response) => {
      hits.push(request.url ?? '');
      response.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const name = `agent-hook-${Date.now()}`;
    const id = await vscode.commands.executeCommand<string>('rlStudio.webhook.add', { name, url: `http://127.0.0.1:${port}/hook`, accessToken: '', secretName: 'HOOK_SECRET', secretValue: 'v' });
    try {
      const uri = vscode.Uri.joinPath(folder, 'agent', 'changing.payload.json');
      await vscode.workspace.fs.writeFile(uri, Buffer.from('{"text": "hello ${event_author}"}\n'));
      const tool = platform.api.agent.tools.get('rlstudio_send_webhook_test')!;
      const input = { path: 'agent/changing.payload.json', webhook: name };
      const prepared = await tool.prepareInvocation!({ input }, never);
      const message = prepared!.confirmationMessages!.message;
      assert.ok((typeof message === 'string' ? message : message.value).includes(`Endpoint host: 127.0.0.1:${port} (http: not encrypted)`), String(message));
      const document = await vscode.workspace.openTextDocument(uri);
      const edit = new vscode.WorkspaceEdit();
      const at = document.getText().indexOf('hello');
      edit.replace(uri, new vscode.Range(document.positionAt(at), document.positionAt(at + 5)), 'bye');
      assert.ok(await vscode.workspace.applyEdit(edit));
      await document.save();
      await assert.rejects(async () => tool.invoke({ input, toolInvocationToken: undefined } as never, never), /changed after you confirmed; nothing was sent/);
      assert.deepEqual(hits, [], 'nothing reached the endpoint');
      // Confirmed again as it is now: sent once.
      await tool.prepareInvocation!({ input }, never);
      assert.match(
        textOf(await tool.invoke({ input, toolInvocationToken: undefined } as never, never)),
        /Sent "agent\/changing\.payload\.json" to webhook "agent-hook-\d+": the endpoint answered 200 \(success\)/,
      );
      assert.deepEqual(hits, ['/hook']);
    } finally {
      platform.api.dialogs.answerNext('Remove');
      await vscode.commands.executeCommand('rlStudio.webhook.remove', id);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('says what to do when signed out, and gives the reason when the platform is down', async () => {
    const ids = seededIds(platform);
    await platform.emulator.setReachable(false);
    try {
      const down = await refusal('rlstudio_job_status', { jobId: ids.failedJobId });
      assert.match(down, /training API/i);
      assert.ok(!down.includes(platform.emulator.apiKey));
    } finally {
      await platform.emulator.setReachable(true);
    }
    await platform.signOut();
    try {
      assert.match(await refusal('rlstudio_list_models', {}), /not signed in.*Sign In/s);
      assert.match(await read('rlstudio_platform_status', {}), /Signed in: no/);
    } finally {
      await platform.signIn();
    }
  });
});
