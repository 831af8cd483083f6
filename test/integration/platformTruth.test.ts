/**
 * The sidebar and the status bar tell the truth about the platform, in the real extension host:
 * a platform that stops answering reaches the status bar by itself and shows in every view as what
 * it is, each section failing on its own; when it answers again everything recovers by itself;
 * checkpoints of a model being trained appear while the job runs. How fast is for `npm run bench`.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { JobsNode } from '../../src/training/host/jobs/jobNodes';
import type { ModelsNode } from '../../src/training/host/models/modelNodes';
import type { RegisteredViews } from '../../src/training/activation';
import { startJobThroughTheApi } from '../support/emulatorJobs';
import { seededIds, trainedModelListed } from './helpers/models';
import { connectToEmulator, type ConnectedPlatform } from './helpers/platform';
import { itemDescription, itemLabel } from './helpers/tree';
import { waitUntil } from './helpers/waitUntil';

const label = itemLabel;
const description = itemDescription;
const iconId = (item: vscode.TreeItem) => (item.iconPath instanceof vscode.ThemeIcon ? item.iconPath.id : '');

describe('Truth of the sidebar and the status bar', function () {
  this.timeout(120_000);
  let platform: ConnectedPlatform;
  let views: RegisteredViews;
  let hostAndPort: string;

  before(async () => {
    platform = await connectToEmulator({ secondsPerStep: 0.05 });
    views = platform.api.views as unknown as RegisteredViews;
    hostAndPort = new URL(platform.emulator.url).host;
    await vscode.commands.executeCommand('rlStudio.jobs.focus');
  });

  after(async () => {
    await platform?.emulator.setReachable(true);
    await platform?.disconnect();
  });

  const seeded = () => seededIds(platform);

  /** A job on the trained model that runs for a while (`steps` gradient steps at `secondsPerStep`), followed in the view. */
  async function startSlowJob(steps: number, secondsPerStep: number): Promise<string> {
    const id = await startJobThroughTheApi(platform.emulator, { steps, secondsPerStep });
    await vscode.commands.executeCommand('rlStudio.addJob', id);
    return id;
  }

  /** A slow job (50 steps of 1 s), followed, once it runs. */
  async function runningSlowJob(): Promise<string> {
    const jobId = await startSlowJob(50, 1);
    await waitUntil(
      'the job to run',
      () => views.jobService.record(jobId)?.status.phase,
      (phase) => phase === 'running',
      { timeoutMs: 30_000 },
    );
    return jobId;
  }

  async function statusBarDown(): Promise<void> {
    await waitUntil(
      'the status bar to say the platform is down',
      () => views.health.summary?.level,
      (level) => level === 'down',
      { timeoutMs: 30_000 },
    );
  }

  /**
   * The platform stopped while a followed job runs, and the status bar saying so: what the recovery
   * case starts from, made here unless the platform is down already.
   */
  async function platformStopped(): Promise<void> {
    if (platform.emulator.reachable) {
      await runningSlowJob();
      await platform.emulator.setReachable(false);
    }
    await statusBarDown();
  }

  async function children(provider: vscode.TreeDataProvider<ModelsNode> | vscode.TreeDataProvider<JobsNode>, node?: unknown): Promise<any[]> {
    return ((await (provider as vscode.TreeDataProvider<unknown>).getChildren(node)) ?? []) as any[];
  }

  async function modelsSections(): Promise<{ catalogue: string[]; training: string[] }> {
    const groups = (await children(views.models)) as ModelsNode[];
    const rowsOf = async (group: 'inference' | 'training') => {
      const node = groups.find((candidate) => candidate.kind === 'group' && candidate.group === group);
      return node ? ((await children(views.models, node)) as ModelsNode[]).map((child) => label(views.models.getTreeItem(child))) : [];
    };
    return { catalogue: await rowsOf('inference'), training: await rowsOf('training') };
  }

  it('names a job like its details page, numbers its events in job steps and shows a failure message once', async () => {
    const ids = seeded();
    await vscode.commands.executeCommand('rlStudio.addJob', ids.failedJobId);
    const node = await waitUntil(
      'the failed job',
      async () => ((await children(views.jobs)) as JobsNode[]).find((candidate) => candidate.kind === 'job' && candidate.job.id === ids.failedJobId),
      (found) => found !== undefined,
    );
    await waitUntil(
      'its status',
      () => description(views.jobs.getTreeItem(node!)),
      (text) => text.startsWith('failed'),
    );
    assert.equal(label(views.jobs.getTreeItem(node!)), `Job ${ids.failedJobId.slice(0, 8)}`);
    const rows = ((await children(views.jobs, node)) as JobsNode[]).map((child) => views.jobs.getTreeItem(child));
    const message = views.jobService.record(ids.failedJobId)!.status.errorMessage!;
    assert.equal(rows.filter((row) => `${label(row)} ${description(row)}`.includes(message)).length, 1, 'the error message once');
    const stepLabels = rows.map(label).filter((text) => /^(job )?step/.test(text));
    assert.ok(stepLabels.length > 0 && stepLabels.every((text) => /^job step \d+$/.test(text)), JSON.stringify(stepLabels));
    assert.equal(stepLabels[0], `job step ${views.jobService.record(ids.failedJobId)!.status.step}`, 'newest first, numbered as the status counts');
  });

  it('shows new checkpoints of a model while a followed job trains it, without Refresh', async () => {
    const ids = seeded();
    await vscode.commands.executeCommand('rlStudio.addModel', ids.trainedModelId, `${ids.trainedModelEntity}/${ids.trainedModelProject}/${ids.trainedModelName}`);
    const model = await waitUntil(
      'the trained model',
      () => views.models.trainingNode(ids.trainedModelId),
      (found) => found !== undefined,
    );
    const newest = async () => ((await children(views.models, model)) as ModelsNode[]).flatMap((child) => (child.kind === 'checkpoint' ? [child.checkpoint.step] : []))[0] ?? -1;
    const before = await newest();
    const checkpointReads = () => platform.emulator.requests.filter((request) => request.path.endsWith(`/models/${ids.trainedModelId}/checkpoints`)).length;
    const readsBefore = checkpointReads();
    let redrawn = 0;
    const listening = views.models.onDidChangeTreeData((node) => {
      if (node === model) redrawn++;
    });
    try {
      await startSlowJob(12, 0.5);
      const after = await waitUntil('a newer checkpoint in the Models view', newest, (step) => step > before + 2, { timeoutMs: 30_000 });
      assert.ok(after > before);
      assert.ok(redrawn > 0, 'the model node was redrawn by itself');
      // Bounded: at most one read per model every few seconds, whatever the number of steps.
      const reads = checkpointReads() - readsBefore;
      assert.ok(reads <= 12, `${reads} checkpoint reads for a dozen steps`);
    } finally {
      listening.dispose();
    }
  });

  it('a stopped platform turns the status bar red by itself and shows in each section, which fail on their own', async () => {
    await trainedModelListed(platform);
    const jobId = await runningSlowJob();
    await vscode.commands.executeCommand('rlStudio.checkHealth');
    assert.equal(views.health.summary?.level, 'healthy');

    await platform.emulator.setReachable(false);
    const stopped = Date.now();
    await statusBarDown();
    console.log(`      status bar down after ${Date.now() - stopped} ms: ${views.health.summary?.text}`);

    const jobNode = views.jobs.node(jobId)!;
    const row = await waitUntil(
      'the job row in a warning state',
      () => views.jobs.getTreeItem(jobNode),
      (item) => iconId(item) === 'warning',
      { timeoutMs: 15_000 },
    );
    assert.match(description(row), new RegExp(`^Can't reach the training API at ${hostAndPort.replace(/\./g, '\\.')}\\. Retrying (in \\d+ s|now)\\.`));
    assert.doesNotMatch(description(row), /GET |attempts/, 'no request line in the row');
    assert.match((row.tooltip as vscode.MarkdownString).value, /could not connect/, 'the request is in the tooltip');

    const sections = await waitUntil(
      'the catalogue to say it cannot be reached',
      modelsSections,
      ({ catalogue }) => catalogue.length === 1 && catalogue[0]!.startsWith("Can't reach the inference API"),
      { timeoutMs: 15_000 },
    );
    assert.ok(sections.training.includes(seeded().trainedModelName), `the training models are still listed: ${JSON.stringify(sections.training)}`);
    assert.match(sections.training[0]!, /^Can't reach the training API/, 'with what failed on top');
    assert.equal(views.models.viewState.catalogueFailure?.kind, 'unreachable');
  });

  it('when the platform answers again, every view and the status bar recover by themselves, without a click', async () => {
    await trainedModelListed(platform);
    await platformStopped();
    const back = Date.now();
    await platform.emulator.setReachable(true);
    await waitUntil(
      'the status bar to be healthy again',
      () => views.health.summary?.level,
      (level) => level === 'healthy',
      { timeoutMs: 30_000 },
    );
    await waitUntil(
      'the catalogue again',
      modelsSections,
      ({ catalogue, training }) => catalogue.length > 1 && !catalogue[0]!.startsWith("Can't") && training.length > 0 && !training[0]!.startsWith("Can't"),
      { timeoutMs: 30_000 },
    );
    const failing = () => views.jobService.jobs().filter((job) => views.jobService.record(job.id)?.connectionError !== undefined);
    await waitUntil('every job to poll again', failing, (jobs) => jobs.length === 0, { timeoutMs: 30_000 });
    console.log(`      recovered after ${Date.now() - back} ms`);
  });
});
