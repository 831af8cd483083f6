import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { parseRunState, type RunState } from '../../src/taskRuns/model/runState';
import { GENERATED_PROJECT } from '../emulator/seed';
import { DEFAULT_ENTITY } from '../emulator/state';
import { connectToEmulator, type ConnectedPlatform } from './helpers/platform';
import { waitUntil } from './helpers/waitUntil';

const fixtures = join(__dirname, '../../../test/fixtures/evals');

describe('Training from a task file: the whole loop on the emulator', function () {
  this.timeout(240_000);
  let platform: ConnectedPlatform;
  let folder: vscode.Uri;

  before(async () => {
    platform = await connectToEmulator({ secondsPerStep: 0.02 });
    folder = vscode.workspace.workspaceFolders![0]!.uri;
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(folder, 'tasks'));
    for (const name of ['arith.evalset.jsonl', 'arith-heldout.evalset.jsonl'])
      await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(folder, 'tasks', name), await vscode.workspace.fs.readFile(vscode.Uri.file(join(fixtures, name))));
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await platform?.disconnect();
  });

  async function writeTask(name: string, extra: Record<string, unknown> = {}): Promise<vscode.Uri> {
    const uri = vscode.Uri.joinPath(folder, 'tasks', `${name}.rltask.json`);
    const task = {
      model: `${DEFAULT_ENTITY}/${GENERATED_PROJECT}/${name}-model`,
      baseModel: 'OpenPipe/Qwen3-14B-Instruct',
      prompts: 'arith.evalset.jsonl',
      heldOut: 'arith-heldout.evalset.jsonl',
      reward: { kind: 'exactMatch' },
      groupSize: 4,
      promptsPerStep: 6,
      steps: 3,
      sampling: { temperature: 1, maxTokens: 64 },
      budget: { requests: 1000, tokens: 1_000_000 },
      ...extra,
    };
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(JSON.stringify(task, undefined, 2)));
    return uri;
  }

  async function runFile(name: string): Promise<RunState> {
    const read = parseRunState(new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder, '.rlstudio', 'runs', name, 'run.json'))));
    assert.ok(read.ok, read.ok ? '' : read.problem);
    return read.state;
  }

  const posts = (path: string) => platform.emulator.requests.filter((request) => request.method === 'POST' && request.path.endsWith(path));

  it('runs three steps from a task file after a confirmation that states what it spends, and the held-out score rises', async () => {
    const uri = await writeTask('loop');
    platform.api.dialogs.answerNext(true, true); // create the model, start the run
    const state = await vscode.commands.executeCommand<RunState | undefined>('rlStudio.startTaskRun', uri);
    const confirmation = platform.api.dialogs.asked.filter((question) => question.kind === 'confirm').at(-1);
    assert.match(confirmation?.detail ?? '', /^Trains loop-model for 3 steps: each step asks 6 prompts of arith\.evalset\.jsonl for 4 answers/);
    assert.match(confirmation?.detail ?? '', /At most 98 requests \(18 to sample, 0 to reward, 80 held-out\)/);
    assert.match(confirmation?.detail ?? '', /Training API host: 127\.0\.0\.1:\d+/);
    assert.ok(state, 'the run ran');
    assert.equal(state.status, 'finished', JSON.stringify(state.failure));
    assert.deepEqual(
      state.steps.map((step) => step.phase),
      ['trained', 'trained', 'trained'],
    );
    assert.equal(state.heldOut.length, 4, 'before the first step and after each');
    assert.ok(state.heldOut.at(-1)!.mean > state.heldOut[0]!.mean, `the held-out score rises: ${state.heldOut.map((point) => point.mean.toFixed(2)).join(' → ')}`);
    assert.deepEqual(await runFile('loop'), state, 'run.json holds the run as it ended');
    const groups = new TextDecoder()
      .decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder, '.rlstudio', 'runs', 'loop', 'step-0001.trajectories.jsonl')))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { trajectories: { reward: number; messages_and_choices: { logprobs?: unknown }[] }[] });
    assert.equal(groups.length, 6);
    assert.ok(groups.every((group) => group.trajectories.length === 4));
    assert.ok(
      groups.some((group) => group.trajectories[0]!.messages_and_choices.at(-1)!.logprobs),
      'the trained answers carry their logprobs',
    );
    assert.ok(state.spent.requests <= 98, `${state.spent.requests} requests spent`);
    // The dashboard opened with the run and shows it as its file says.
    const dashboard = await waitUntil(
      'the run dashboard',
      () => platform.api.taskRuns.dashboards.shown(vscode.Uri.joinPath(folder, '.rlstudio', 'runs', 'loop')),
      (shown) => shown?.state?.status === 'finished',
    );
    assert.equal(dashboard!.state!.steps.length, 3);
    assert.equal(dashboard!.running, false);
  });

  it('stops and resumes from its files: no prompt answered twice, no step sent twice', async () => {
    const uri = await writeTask('resume', { concurrency: 1, steps: 2, heldOut: undefined });
    const completions = () => posts('/training/v1/chat/completions').length;
    const jobs = () => posts('/preview/training-jobs').length;
    const [completionsBefore, jobsBefore] = [completions(), jobs()];
    platform.api.dialogs.answerNext(true, true);
    const running = vscode.commands.executeCommand<RunState | undefined>('rlStudio.startTaskRun', uri);
    await waitUntil('three prompts answered', completions, (count) => count - completionsBefore >= 3, { timeoutMs: 60_000 });
    await vscode.commands.executeCommand('rlStudio.stopTaskRun', uri);
    const stopped = await running;
    assert.equal(stopped?.status, 'stopped');
    platform.api.dialogs.answerNext(true);
    const resumed = await vscode.commands.executeCommand<RunState | undefined>('rlStudio.startTaskRun', uri);
    assert.equal(resumed?.status, 'finished', JSON.stringify(resumed?.failure));
    // Twelve prompts in two steps; one request may have been in flight when the stop came (its answer was dropped, unwritten).
    const asked = completions() - completionsBefore;
    assert.ok(asked === 12 || asked === 13, `${asked} sampling requests for 12 prompts`);
    assert.equal(jobs() - jobsBefore, 2, 'one job a step');
    const written = await Promise.all(
      [1, 2].map(
        async (step) =>
          new TextDecoder()
            .decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder, '.rlstudio', 'runs', 'resume', `step-000${step}.trajectories.jsonl`)))
            .trim()
            .split('\n').length,
      ),
    );
    assert.deepEqual(written, [6, 6]);
  });

  it('rewards with a judge that ranks each group against itself, one request a group, and judges the held-out set', async () => {
    const uri = await writeTask('ranked', { steps: 1, reward: { kind: 'relativeJudge', model: 'meta-llama/Llama-3.1-8B-Instruct', rubric: 'The final number is right.' } });
    const judged = () => posts('/inference/v1/chat/completions').length;
    const before = judged();
    platform.api.dialogs.answerNext(true, true);
    const state = await vscode.commands.executeCommand<RunState | undefined>('rlStudio.startTaskRun', uri);
    assert.equal(state?.status, 'finished', JSON.stringify(state?.failure));
    assert.equal(state.steps[0]!.groups, 6);
    assert.equal(judged() - before, 6 + 2 * 20, 'one ranking a group, and a grade per held-out answer before and after the step');
    assert.ok(state.steps[0]!.reward!.max === 1 && state.steps[0]!.reward!.min === 0, 'right answers ranked 1, wrong ones 0');
    assert.equal(state.heldOut.length, 2);
  });

  it('rewards with a program the task file names only once it is allowed, naming the program, and runs it beside the task file', async function () {
    if (process.platform === 'win32') this.skip();
    // The program: reads {"sample", "answer"} and prints 1 when the answer is the reference, else 0.
    await vscode.workspace.fs.writeFile(
      vscode.Uri.joinPath(folder, 'tasks', 'reward.js'),
      new TextEncoder().encode("let t='';process.stdin.on('data',(d)=>t+=d).on('end',()=>{const {sample,answer}=JSON.parse(t);console.log(answer.trim()===sample.reference?1:0)})"),
    );
    const uri = await writeTask('program', { steps: 1, heldOut: undefined, reward: { kind: 'command', command: process.execPath, args: ['reward.js'] } });
    platform.api.dialogs.answerNext(false);
    assert.equal(await vscode.commands.executeCommand('rlStudio.startTaskRun', uri), undefined, 'declined: nothing runs');
    const asked = platform.api.dialogs.asked.filter((question) => question.kind === 'confirm').at(-1);
    assert.match(asked?.message ?? '', /^Run a program named by program\.rltask\.json\?/);
    assert.match(asked?.detail ?? '', /The task file program\.rltask\.json names a program as the scorer "reward"/);
    platform.api.dialogs.answerNext(true, true, true); // allow the program, create the model, start the run
    const state = await vscode.commands.executeCommand<RunState | undefined>('rlStudio.startTaskRun', uri);
    assert.equal(state?.status, 'finished', JSON.stringify(state?.failure));
    assert.equal(state.steps[0]!.groups, 6);
    assert.ok(state.steps[0]!.reward!.max === 1, 'the program rewarded the right answers');
  });

  it('slows down in a storm of 429s and finishes', async () => {
    const uri = await writeTask('storm', { steps: 1, heldOut: undefined });
    platform.emulator.setRateLimit({ fraction: 0.5, retryAfterSeconds: 0, times: 1 });
    try {
      platform.api.dialogs.answerNext(true, true);
      const state = await vscode.commands.executeCommand<RunState | undefined>('rlStudio.startTaskRun', uri);
      assert.equal(state?.status, 'finished', JSON.stringify(state?.failure));
      assert.ok(platform.emulator.rateLimitedCount() > 0, 'some answers were 429');
      assert.equal(state.steps[0]!.groups, 6);
    } finally {
      platform.emulator.setRateLimit(undefined);
    }
  });

  it('stops at a failing job with its step and message, keeping what was done', async () => {
    const uri = await writeTask('failing', { steps: 2, heldOut: undefined, experimentalConfig: { emulator_fail: 'CUDA out of memory on purpose' } });
    platform.api.dialogs.answerNext(true, true);
    const state = await vscode.commands.executeCommand<RunState | undefined>('rlStudio.startTaskRun', uri);
    assert.equal(state?.status, 'failed');
    assert.equal(state.failure?.step, 1);
    assert.match(state.failure?.message ?? '', /CUDA out of memory on purpose/);
    const said = await waitUntil(
      'the failure told',
      () => platform.api.dialogs.shown.find((message) => message.startsWith('Training run "failing" failed at step 1')),
      (found) => found !== undefined,
    );
    assert.match(said!, /start it again to resume/);
  });
});
