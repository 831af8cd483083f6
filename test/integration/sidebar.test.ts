import * as assert from 'node:assert/strict';
import { appendFileSync, copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { artParquetBytes, writeArtParquet } from '../support/artParquet';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { JobsNode } from '../../src/training/host/jobs/jobNodes';
import type { ModelsNode } from '../../src/training/host/models/modelNodes';
import type { RegisteredViews } from '../../src/training/activation';
import { seededIds, trainedModelListed, trainingModelNode as trainingModelNodeOf } from './helpers/models';
import { connectToEmulator, type ConnectedPlatform } from './helpers/platform';
import { itemDescription, itemLabel } from './helpers/tree';
import { waitUntil } from './helpers/waitUntil';

const fixtures = join(__dirname, '../../../test/fixtures/jobs');
const fixture = (name: string) => vscode.Uri.file(join(fixtures, name));

describe('Sidebar: models, checkpoints and training jobs', function () {
  this.timeout(90_000);
  let platform: ConnectedPlatform;
  let views: RegisteredViews;

  before(async () => {
    platform = await connectToEmulator({ secondsPerStep: 0.05 });
    views = platform.api.views as unknown as RegisteredViews;
    assert.equal(typeof platform.api.dialogs?.answerNext, 'function', 'the test API exposes the dialogs for automation');
    await vscode.commands.executeCommand('rlStudio.jobs.focus');
  });

  after(async () => {
    await platform?.disconnect();
  });

  const seeded = () => seededIds(platform);
  const label = itemLabel;
  const description = itemDescription;

  async function modelChildren(parent?: ModelsNode): Promise<ModelsNode[]> {
    return (await views.models.getChildren(parent)) ?? [];
  }

  const trainingModelNode = (modelId: string) => trainingModelNodeOf(views.models, modelId);

  async function checkpointSteps(model: ModelsNode): Promise<{ steps: number[]; loadMore?: ModelsNode }> {
    const children = await modelChildren(model);
    return {
      steps: children.flatMap((node) => (node.kind === 'checkpoint' ? [node.checkpoint.step] : [])),
      loadMore: children.find((node) => node.kind === 'loadMore'),
    };
  }

  /** A training job of the trained model from a fixture file, created through the command with the default settings; its id. */
  async function createJobFrom(file: string): Promise<string> {
    await trainedModelListed(platform);
    platform.api.dialogs.answerNext(seeded().trainedModelName, 'Default settings', 'Start Training');
    const created = (await vscode.commands.executeCommand('rlStudio.createTrainingJob', fixture(file))) as { id: string } | undefined;
    assert.ok(created?.id, 'the command returns the new job');
    return created.id;
  }

  async function jobNode(jobId: string): Promise<JobsNode> {
    return waitUntil(
      `job ${jobId} in the Training Jobs view`,
      async () => {
        const roots = (await views.jobs.getChildren()) ?? [];
        return roots.find((node) => node.kind === 'job' && node.job.id === jobId);
      },
      (node) => node !== undefined,
    ) as Promise<JobsNode>;
  }

  it('shows the seeded inference models with their owners', async () => {
    const ids = seeded();
    const groups = await modelChildren();
    const inference = groups.find((node) => node.kind === 'group' && node.group === 'inference');
    assert.ok(inference, 'an Inference Models group');
    const items = (await modelChildren(inference)).map((node) => views.models.getTreeItem(node));
    assert.deepEqual(items.map(label).sort(), [...ids.inferenceModels].sort());
    assert.ok(
      items.every((item) => description(item) !== ''),
      'each model shows its owner',
    );
  });

  it('expands the trained model to its checkpoints, newest first, with metrics in the tooltip', async () => {
    const ids = seeded();
    await vscode.commands.executeCommand('rlStudio.addModel', ids.trainedModelId, `${ids.trainedModelEntity}/${ids.trainedModelProject}/${ids.trainedModelName}`);
    const model = await trainingModelNode(ids.trainedModelId);
    assert.equal(label(views.models.getTreeItem(model)), ids.trainedModelName);
    const { steps, loadMore } = await checkpointSteps(model);
    assert.ok(steps.length > 1, 'the seeded model has checkpoints');
    assert.deepEqual(
      steps,
      [...steps].sort((a, b) => b - a),
      'newest first',
    );
    assert.equal(loadMore, undefined, 'one page holds them all');
    const newest = (await modelChildren(model)).find((node) => node.kind === 'checkpoint')!;
    const item = views.models.getTreeItem(newest);
    const tooltip = (item.tooltip as vscode.MarkdownString).value;
    assert.match(tooltip, /loss/);
    assert.match(tooltip, new RegExp(`wandb-artifact:///${ids.trainedModelEntity}/${ids.trainedModelProject}/${ids.trainedModelName}:step${steps[0]}`));
    assert.match(item.contextValue ?? '', /\bchattable\b/);
  });

  it('pages 250 checkpoints 100 at a time with a Load more node', async () => {
    const modelId = await platform.emulator.createModelWithCheckpoints('paged-model', 250);
    await vscode.commands.executeCommand('rlStudio.addModel', modelId, 'emulator-entity/paging/paged-model');
    const model = await trainingModelNode(modelId);
    const first = await checkpointSteps(model);
    assert.equal(first.steps.length, 100);
    assert.ok(first.loadMore, 'a Load more node after the first page');
    assert.equal(label(views.models.getTreeItem(first.loadMore)), 'Load more…');

    await vscode.commands.executeCommand('rlStudio.loadMoreCheckpoints', first.loadMore);
    const second = await checkpointSteps(model);
    assert.equal(second.steps.length, 200);
    await vscode.commands.executeCommand('rlStudio.loadMoreCheckpoints', second.loadMore);
    const all = await checkpointSteps(model);
    assert.equal(all.steps.length, 250);
    assert.equal(all.loadMore, undefined);
    assert.equal(new Set(all.steps).size, 250, 'no checkpoint twice');
    assert.deepEqual(
      all.steps,
      [...all.steps].sort((a, b) => b - a),
    );

    const pages = platform.emulator.requests.filter((request) => request.method === 'GET' && request.path.includes(`/models/${modelId}/checkpoints`) && request.query.limit === '100');
    assert.equal(pages.length, 3, 'three page requests');
    assert.ok(pages.every((request) => request.query.order === 'desc'));
  });

  it('deletes a checkpoint only after the confirmation, and reports the result', async () => {
    const ids = seeded();
    await trainedModelListed(platform);
    const model = await trainingModelNode(ids.trainedModelId);
    const target = (await modelChildren(model)).find((node) => node.kind === 'checkpoint' && node.checkpoint.step > 0)!;
    assert.ok(target && target.kind === 'checkpoint');
    const step = target.checkpoint.step;
    const deletes = () => platform.emulator.requests.filter((request) => request.method === 'DELETE' && request.path.endsWith(`/models/${ids.trainedModelId}/checkpoints`));

    platform.api.dialogs.answerNext(false);
    await vscode.commands.executeCommand('rlStudio.deleteCheckpoints', target, [target]);
    assert.equal(deletes().length, 0, 'nothing deleted when the confirmation is dismissed');

    platform.api.dialogs.answerNext('Delete Checkpoint');
    await vscode.commands.executeCommand('rlStudio.deleteCheckpoints', target, [target]);
    const question = platform.api.dialogs.asked.at(-1)!;
    assert.equal(question.kind, 'confirm');
    assert.match(question.detail ?? '', new RegExp(`^Step: ${step}$`, 'm'), 'the step, on its own line');
    assert.match(question.detail ?? '', new RegExp(`id ${ids.trainedModelId}`), 'the model by its id');
    assert.equal(deletes().length, 1);
    assert.deepEqual(JSON.parse(deletes()[0]!.body), { steps: [step] });
    assert.match(platform.api.dialogs.shown.at(-1) ?? '', /Deleted 1 checkpoint of /);
    const { steps } = await checkpointSteps(model);
    assert.ok(!steps.includes(step), 'the deleted checkpoint left the view');

    views.models.refreshModel(ids.trainedModelId);
    const reread = await checkpointSteps(await trainingModelNode(ids.trainedModelId));
    assert.ok(!reread.steps.includes(step), 'and the platform no longer lists it');
  });

  it('creates a training job from a .jsonl file, follows it to succeeded without any refresh, and tells its end', async () => {
    const ids = seeded();
    const before = platform.emulator.requests.length;
    const shownBefore = platform.api.dialogs.shown.length;
    const jobId = await createJobFrom('groups.jsonl');
    const post = platform.emulator.requests.slice(before).find((request) => request.method === 'POST' && request.path.endsWith('/preview/training-jobs'));
    assert.ok(post, 'the job was created on the platform');
    const body = JSON.parse(post.body) as { model_id: string; trajectory_groups: unknown[] };
    assert.equal(body.model_id, ids.trainedModelId);
    assert.equal(body.trajectory_groups.length, 4);

    const node = await jobNode(jobId);
    assert.equal(label(views.jobs.getTreeItem(node)), `groups.jsonl → ${ids.trainedModelName}`);
    const done = await waitUntil(
      'the job to reach succeeded',
      () => description(views.jobs.getTreeItem(node)),
      (text) => text.startsWith('succeeded'),
      { timeoutMs: 60_000 },
    );
    assert.match(done, /loss \d/);
    const told = await waitUntil(
      'the end to be told',
      () => platform.api.dialogs.shown.slice(shownBefore).filter((message) => /^Training job .* finished/.test(message)),
      (messages) => messages.length > 0,
    );
    assert.match(told[0]!, /^Training job "groups\.jsonl → [^"]+" finished after \d+ of \d+ steps\.$/);
    const item = views.jobs.getTreeItem(node);
    assert.match(item.contextValue ?? '', /\bsucceeded\b/);
    const events = (await views.jobs.getChildren(node)) ?? [];
    assert.equal(label(views.jobs.getTreeItem(events[0]!)), 'ended', 'events newest first');
    assert.ok(events.some((child) => label(views.jobs.getTreeItem(child)).startsWith('started')));
    assert.equal(
      views.jobService.stats().polling,
      views.jobService.jobs().filter((job) => {
        const phase = views.jobService.record(job.id)?.status.phase;
        return phase === 'queued' || phase === 'running';
      }).length,
      'only moving jobs are polled',
    );
  });

  it("opens a model's training charts, and compares it with a job on shared charts", async () => {
    const ids = seeded();
    await trainedModelListed(platform);
    const node = await trainingModelNode(ids.trainedModelId);
    await vscode.commands.executeCommand('rlStudio.openModelTraining', node);
    const shown = await waitUntil(
      "the model's checkpoints to be read",
      () => views.runCharts.shown([ids.trainedModelId]),
      (snapshot) => snapshot !== undefined && snapshot.runs[0]!.kind === 'model' && Object.keys(snapshot.runs[0]!.metrics).length > 0,
    );
    const model = shown!.runs[0]!;
    assert.equal(model.axis, 'model step');
    for (const metric of Object.values(model.metrics))
      assert.deepEqual(
        metric.xs,
        [...metric.xs].sort((a, b) => a - b),
        'ascending by model step',
      );
    assert.ok(
      shown!.jobs.every((job) => job.firstStep <= job.lastStep),
      'its followed jobs as the steps they covered',
    );

    // Compare Runs from the model: the person ticks a job too.
    const jobId = views.jobService.jobs()[0]?.id ?? (await createJobFrom('groups.jsonl'));
    platform.api.dialogs.answerNext(`model:${ids.trainedModelId}\njob:${jobId}`);
    await vscode.commands.executeCommand('rlStudio.compareRuns', node, [node]);
    const compared = await waitUntil(
      'the two runs on shared charts',
      () => views.runCharts.shown([ids.trainedModelId], [jobId]),
      (snapshot) => snapshot !== undefined && snapshot.runs.length === 2,
    );
    assert.deepEqual(
      compared!.runs.map((run) => run.kind),
      ['model', 'job'],
    );
    assert.match(compared!.title, /^Compare 1 model and 1 job$/);
  });

  it('shows the error message of a failed job, and tells it once, but not of a job that was over when followed', async () => {
    const ids = seeded();
    await vscode.commands.executeCommand('rlStudio.addJob', ids.failedJobId);
    const seededFailed = await jobNode(ids.failedJobId);
    await waitUntil(
      'the seeded failed job to show its message',
      () => description(views.jobs.getTreeItem(seededFailed)),
      (value) => /^failed · .+/.test(value),
    );
    const shownBefore = platform.api.dialogs.shown.length;
    const jobId = await createJobFrom('failing.jsonl');
    const node = await jobNode(jobId);
    const text = await waitUntil(
      'the job to fail',
      () => description(views.jobs.getTreeItem(node)),
      (value) => value.startsWith('failed'),
      { timeoutMs: 60_000 },
    );
    assert.match(text, /Reward model crashed: CUDA out of memory/);
    const first = ((await views.jobs.getChildren(node)) ?? [])[0]!;
    assert.equal(label(views.jobs.getTreeItem(first)), 'Reward model crashed: CUDA out of memory');
    const told = await waitUntil(
      'the failure to be told',
      () => platform.api.dialogs.shown.slice(shownBefore).filter((message) => /^Training job .* (failed|finished)/.test(message)),
      (messages) => messages.length > 0,
    );
    assert.deepEqual(told.length, 1, 'told once');
    assert.match(told[0]!, /^Training job "failing\.jsonl → [^"]+" failed at .*: "Reward model crashed: CUDA out of memory"\.$/);
    assert.ok(!told.some((message) => message.includes(ids.failedJobId)), 'a job already over when followed is not news');
  });

  it('confirms a training job naming the groups, trajectories, file, model and host; a file changed after the confirmation sends nothing', async () => {
    const ids = seeded();
    await trainedModelListed(platform);
    const file = join(mkdtempSync(join(tmpdir(), 'rl-studio-confirm-')), 'changing.jsonl');
    copyFileSync(join(fixtures, 'groups.jsonl'), file);
    const oneGroup = readFileSync(file, 'utf8').split('\n')[0]!;
    const jobPosts = () => platform.emulator.requests.filter((request) => request.method === 'POST' && request.path.endsWith('/preview/training-jobs')).length;
    const postsBefore = jobPosts();
    let confirmation: { message: string; detail?: string } | undefined;
    // The file grows from 4 groups to 40 while the confirmation is open.
    platform.api.dialogs.answerNext(ids.trainedModelName, 'Default settings', (question) => {
      confirmation = question;
      appendFileSync(file, `${oneGroup}\n`.repeat(36));
      return 'Start Training';
    });
    assert.equal(await vscode.commands.executeCommand('rlStudio.createTrainingJob', vscode.Uri.file(file)), undefined);
    assert.equal(jobPosts(), postsBefore, 'nothing was sent');
    assert.equal(platform.api.dialogs.shown.at(-1), 'changing.jsonl changed after you confirmed; nothing was sent. Run the command again to send it as it is now.');
    assert.match(confirmation?.message ?? '', /with 4 trajectory groups from changing\.jsonl\?$/);
    const lines = (confirmation?.detail ?? '').split('\n');
    assert.ok(lines.includes('4 trajectory groups, 8 trajectories.'), lines.join('\n'));
    assert.ok(lines.includes(`File: ${file}`));
    assert.ok(lines.some((line) => line.startsWith('Model: ') && line.includes(ids.trainedModelId)));
    assert.ok(lines.includes(`Training API host: ${new URL(platform.emulator.trainingUrl).host} (http: not encrypted)`), lines.join('\n'));

    // Run again: the confirmation counts the file as it is now, and dismissing it sends nothing.
    platform.api.dialogs.answerNext(ids.trainedModelName, 'Default settings', false);
    assert.equal(await vscode.commands.executeCommand('rlStudio.createTrainingJob', vscode.Uri.file(file)), undefined);
    assert.match(platform.api.dialogs.asked.at(-1)?.message ?? '', /with 40 trajectory groups/);
    assert.equal(jobPosts(), postsBefore);
  });

  it('deletes a model only after a confirmation naming it by name and id, its listed checkpoints and the host', async () => {
    const modelId = await platform.emulator.createModelWithCheckpoints('doomed-model', 3);
    await vscode.commands.executeCommand('rlStudio.addModel', modelId, 'emulator-entity/deleting/doomed-model');
    const node = await trainingModelNode(modelId);
    await checkpointSteps(node);
    const deletes = () => platform.emulator.requests.filter((request) => request.method === 'DELETE' && request.path.endsWith(`/preview/models/${modelId}`));
    platform.api.dialogs.answerNext(false);
    await vscode.commands.executeCommand('rlStudio.deleteModel', node);
    assert.equal(deletes().length, 0, 'dismissed: nothing deleted');
    const question = platform.api.dialogs.asked.at(-1)!;
    assert.equal(question.message, 'Delete the model "doomed-model" and all its checkpoints?');
    const lines = (question.detail ?? '').split('\n');
    assert.ok(lines.includes(`Model: "emulator-entity/deleting/doomed-model", id ${modelId}`), lines.join('\n'));
    assert.ok(lines.includes('Checkpoints: 3 checkpoints listed here; every one is deleted.'), lines.join('\n'));
    assert.ok(lines.includes(`Training API host: ${new URL(platform.emulator.trainingUrl).host} (http: not encrypted)`));
    platform.api.dialogs.answerNext('Delete Model');
    await vscode.commands.executeCommand('rlStudio.deleteModel', node);
    assert.equal(deletes().length, 1);
  });

  it('logs trajectory groups only after a confirmation naming the split, the counts and the model, and sends exactly the groups counted', async () => {
    const ids = seeded();
    await trainedModelListed(platform);
    const logs = () => platform.emulator.requests.filter((request) => request.method === 'POST' && request.path.endsWith(`/preview/models/${ids.trainedModelId}/log`));
    const before = logs().length;
    platform.api.dialogs.answerNext(ids.trainedModelName, 'val', 'Log Groups');
    const logged = (await vscode.commands.executeCommand('rlStudio.logTrajectories', fixture('groups.jsonl'))) as { count: number } | undefined;
    assert.equal(logged?.count, 4);
    const question = platform.api.dialogs.asked.filter((asked) => asked.kind === 'confirm').at(-1)!;
    assert.match(question.message, /^Log 4 trajectory groups from groups\.jsonl to .+ \(split "val"\)\?$/);
    assert.match(question.detail ?? '', /^4 trajectory groups, 8 trajectories\.$/m);
    assert.match(question.detail ?? '', new RegExp(`^Model: .*${ids.trainedModelId}`, 'm'));
    assert.equal(logs().length, before + 1);
    const body = JSON.parse(logs().at(-1)!.body) as { split: string; trajectory_groups: unknown[] };
    assert.equal(body.split, 'val');
    assert.deepEqual(
      body.trajectory_groups,
      readFileSync(join(fixtures, 'groups.jsonl'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as unknown),
    );
  });

  it("creates a training job from the official client's Parquet log, confirming its file and counts; a log rewritten after the confirmation sends nothing", async () => {
    const ids = seeded();
    await trainedModelListed(platform);
    const groups = readFileSync(join(fixtures, 'groups.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { trajectories: { reward: number }[] });
    const file = join(mkdtempSync(join(tmpdir(), 'rl-studio-parquet-job-')), '0003.parquet');
    await writeArtParquet(file, groups);
    const jobPosts = () => platform.emulator.requests.filter((request) => request.method === 'POST' && request.path.endsWith('/preview/training-jobs'));
    const before = jobPosts().length;
    const rewritten = await artParquetBytes(groups.slice(0, 2));
    let confirmation: { message: string; detail?: string } | undefined;
    // The client writes the step's file anew while the confirmation is open.
    platform.api.dialogs.answerNext(ids.trainedModelName, 'Default settings', (question) => {
      confirmation = question;
      writeFileSync(file, rewritten);
      return 'Start Training';
    });
    assert.equal(await vscode.commands.executeCommand('rlStudio.createTrainingJob', vscode.Uri.file(file)), undefined);
    assert.match(confirmation?.message ?? '', /with 4 trajectory groups from 0003\.parquet\?$/);
    const lines = (confirmation?.detail ?? '').split('\n');
    assert.ok(lines.includes('4 trajectory groups, 8 trajectories.'), lines.join('\n'));
    assert.ok(lines.includes(`File: ${file}`), lines.join('\n'));
    assert.equal(jobPosts().length, before, 'nothing was sent');
    assert.equal(platform.api.dialogs.shown.at(-1), '0003.parquet changed after you confirmed; nothing was sent. Run the command again to send it as it is now.');

    platform.api.dialogs.answerNext(ids.trainedModelName, 'Default settings', 'Start Training');
    const created = (await vscode.commands.executeCommand('rlStudio.createTrainingJob', vscode.Uri.file(file))) as { id: string } | undefined;
    assert.ok(created?.id);
    const body = JSON.parse(jobPosts().at(-1)!.body) as { trajectory_groups: { trajectories: { reward: number }[] }[] };
    assert.deepEqual(
      body.trajectory_groups.map((group) => group.trajectories.map((trajectory) => trajectory.reward)),
      groups.slice(0, 2).map((group) => group.trajectories.map((trajectory) => trajectory.reward)),
    );
  });

  it("logs the groups of the official client's Parquet log, as many as the confirmation counted", async () => {
    const ids = seeded();
    await trainedModelListed(platform);
    const groups = readFileSync(join(fixtures, 'groups.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { trajectories: { reward: number }[] });
    const file = join(mkdtempSync(join(tmpdir(), 'rl-studio-parquet-log-')), '0007.parquet');
    await writeArtParquet(file, groups);
    const logs = () => platform.emulator.requests.filter((request) => request.method === 'POST' && request.path.endsWith(`/preview/models/${ids.trainedModelId}/log`));
    const before = logs().length;
    platform.api.dialogs.answerNext(ids.trainedModelName, 'train', 'Log Groups');
    const logged = (await vscode.commands.executeCommand('rlStudio.logTrajectories', vscode.Uri.file(file))) as { count: number } | undefined;
    assert.equal(logged?.count, 4);
    const question = platform.api.dialogs.asked.filter((asked) => asked.kind === 'confirm').at(-1)!;
    assert.match(question.message, /^Log 4 trajectory groups from 0007\.parquet to .+ \(split "train"\)\?$/);
    assert.equal(logs().length, before + 1);
    const body = JSON.parse(logs().at(-1)!.body) as { trajectory_groups: { trajectories: { reward: number; messages_and_choices: unknown[] }[] }[] };
    assert.equal(body.trajectory_groups.length, 4);
    assert.deepEqual(
      body.trajectory_groups.map((group) => group.trajectories.map((trajectory) => trajectory.reward)),
      groups.map((group) => group.trajectories.map((trajectory) => trajectory.reward)),
    );
  });

  it("confirms a fine-tuning job naming the data URL's real host on its own line, however long the address", async () => {
    const ids = seeded();
    await trainedModelListed(platform);
    const url = `https://data.trusted.example@storage.attacker.example/${'very-long-path/'.repeat(60)}sft.jsonl`;
    const before = platform.emulator.requests.length;
    platform.api.dialogs.answerNext(ids.trainedModelName, url, 'Default settings', false);
    assert.equal(await vscode.commands.executeCommand('rlStudio.createSftJob'), undefined);
    const question = platform.api.dialogs.asked.at(-1)!;
    assert.equal(question.kind, 'confirm');
    const lines = (question.detail ?? '').split('\n');
    assert.ok(lines.includes('Training data host: storage.attacker.example'), lines.join('\n'));
    assert.ok(lines.includes(`Training data: ${url}`), 'the whole address, never cut');
    assert.equal(platform.emulator.requests.slice(before).filter((request) => request.method === 'POST').length, 0, 'dismissed: nothing sent');
  });

  it('marks the problems of an invalid file on their lines and sends nothing', async () => {
    const before = platform.emulator.requests.length;
    const uri = fixture('invalid.jsonl');
    const result = await vscode.commands.executeCommand('rlStudio.createTrainingJob', uri);
    assert.equal(result, undefined);
    const diagnostics = vscode.languages.getDiagnostics(uri);
    assert.deepEqual(
      diagnostics.map((diagnostic) => diagnostic.range.start.line),
      [1, 2, 3],
    );
    assert.ok(diagnostics.every((diagnostic) => diagnostic.severity === vscode.DiagnosticSeverity.Error && diagnostic.source === 'RL Studio'));
    assert.match(diagnostics[0]!.message, /"reward" must be a number/);
    assert.equal(platform.emulator.requests.slice(before).filter((request) => request.method === 'POST').length, 0);
  });

  it('reports both APIs healthy, and a failing system check as degraded', async () => {
    const healthy = (await vscode.commands.executeCommand('rlStudio.checkHealth')) as { level: string };
    assert.equal(healthy.level, 'healthy');
    platform.emulator.setSystemCheckFailure('gpu_queue');
    try {
      const degraded = (await vscode.commands.executeCommand('rlStudio.checkHealth')) as { level: string; detail: string[] };
      assert.equal(degraded.level, 'degraded');
      assert.match(degraded.detail.join('\n'), /gpu_queue/);
    } finally {
      platform.emulator.setSystemCheckFailure(undefined);
    }
  });

  it("creates a model from the server's base models and removes it from the list", async () => {
    const ids = seeded();
    platform.api.dialogs.answerNext(ids.baseModels[0], 'sidebar-tests', 'created-model', '', 'Use the existing model', 'Create Model');
    const model = (await vscode.commands.executeCommand('rlStudio.createModel')) as { id: string; name: string; base_model: string };
    assert.equal(model.name, 'created-model');
    assert.equal(model.base_model, ids.baseModels[0]);
    const node = await trainingModelNode(model.id);
    assert.deepEqual((await checkpointSteps(node)).steps, [0], 'a new model has its step-0 checkpoint');
    await vscode.commands.executeCommand('rlStudio.removeModel', node);
    assert.equal(platform.api.storedState && JSON.stringify(platform.api.storedState()).includes(model.id), false);
  });

  it('resumes following a job from the last event seen after server errors', async () => {
    const jobId = await createJobFrom('long.jsonl');
    const node = await jobNode(jobId);
    await vscode.commands.executeCommand('rlStudio.openJobDetails', jobId);
    await waitUntil(
      'the first events',
      () => views.jobService.record(jobId)?.events.length ?? 0,
      (count) => count > 0,
    );
    // 500 is not retried by the client: the view's polling meets the failures itself.
    platform.emulator.addFault({ kind: 'status', status: 500, body: 'detail-string', path: `/training-jobs/${jobId}/events`, times: 2 });
    await waitUntil(
      'the job to succeed after the failures',
      () => description(views.jobs.getTreeItem(node)),
      (text) => text.startsWith('succeeded'),
      { timeoutMs: 60_000 },
    );
    await waitUntil(
      'the details panel to receive the snapshot and live updates',
      () => views.panels.posted.get(jobId) ?? 0,
      (count) => count >= 2,
    );
    assert.ok(views.panels.isOpen(jobId));
    views.panels.close(jobId);
    const record = views.jobService.record(jobId)!;
    const eventIds = record.events.map((event) => event.id);
    assert.equal(new Set(eventIds).size, eventIds.length, 'no event twice');
    assert.equal(record.status.step, record.status.totalSteps, 'every gradient step counted once');
    const polls = platform.emulator.requests.filter((request) => request.path.includes(`/training-jobs/${jobId}/events`));
    const firstWithCursor = polls.findIndex((request) => request.query.after);
    assert.ok(firstWithCursor >= 0, 'polls ask by cursor once an event was seen');
    assert.ok(
      polls.slice(firstWithCursor).every((request) => request.query.after),
      'and never read the history again',
    );
    const failedAt = polls.findIndex((request, index) => index > 0 && request.query.after && polls[index - 1]!.query.after === request.query.after);
    assert.ok(failedAt > 0, 'the poll after a failure asked again from the same cursor');
  });

  it('shows one warning row for an unreachable catalogue, not an error per node, and keeps the training models', async () => {
    await trainedModelListed(platform);
    await trainingModelNode(seeded().trainedModelId);
    const config = vscode.workspace.getConfiguration('rlStudio');
    const inference = config.get<string>('inferenceApiUrl');
    try {
      await config.update('inferenceApiUrl', 'http://127.0.0.1:9/v1', vscode.ConfigurationTarget.Global);
      const catalogue = await waitUntil(
        'the catalogue to fail',
        async () => {
          const groups = await modelChildren();
          const group = groups.find((node) => node.kind === 'group' && node.group === 'inference');
          return { groups, rows: group ? await modelChildren(group) : [] };
        },
        ({ rows }) => rows.length === 1 && rows[0]!.kind === 'notice',
        { timeoutMs: 30_000 },
      );
      assert.match(label(views.models.getTreeItem(catalogue.rows[0]!)), /^Can't reach the inference API at 127\.0\.0\.1:9\./);
      const training = catalogue.groups.find((node) => node.kind === 'group' && node.group === 'training');
      assert.ok(training, 'the training models are still listed');
      assert.ok((await modelChildren(training)).some((node) => node.kind === 'trainingModel'));
      assert.equal(views.models.viewState.catalogueFailure?.kind, 'unreachable');
    } finally {
      await config.update('inferenceApiUrl', inference, vscode.ConfigurationTarget.Global);
    }
    await waitUntil(
      'the models again',
      async () => {
        const group = (await modelChildren()).find((node) => node.kind === 'group' && node.group === 'inference');
        return group ? (await modelChildren(group)).filter((node) => node.kind === 'inferenceModel').length : 0;
      },
      (count) => count > 0,
      { timeoutMs: 30_000 },
    );
    assert.equal(views.models.viewState.catalogueFailure, undefined);
  });
});
