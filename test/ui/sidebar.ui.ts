/**
 * The sidebar as a user sees it: a training model expanded to its checkpoints, training jobs with
 * their live status, and a job's details page with its charts. Screenshots of each step are kept.
 */
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { UiTestContext } from './context';
import {
  addModelByIdAndName,
  collapseView,
  ensureSignedIn,
  openViewContainer,
  pickInQuickInput,
  runCommand,
  signInThroughThePalette,
  typeInto,
  until,
  viewPane,
  viewRows,
  waitForViewRows,
} from './workbench';

function seededIds(context: UiTestContext) {
  const ids = context.emulator.seeded;
  assert.ok(ids, 'the emulator was seeded');
  return ids;
}

export async function signsIn({ page, emulator }: UiTestContext): Promise<void> {
  await openViewContainer(page, 'RL Studio');
  await signInThroughThePalette(page, emulator.apiKey, emulator.seeded?.inferenceModels ?? []);
}

const jobRowName = (jobId: string) => `Job ${jobId.slice(0, 8)}`;

export async function expandsATrainingModelToItsCheckpoints(context: UiTestContext): Promise<void> {
  const { page, emulator, screenshot } = context;
  const ids = seededIds(context);
  await ensureSignedIn(page, emulator.apiKey, ids.inferenceModels);
  await addModelByIdAndName(page, ids.trainedModelId, `${ids.trainedModelEntity}/${ids.trainedModelProject}/${ids.trainedModelName}`);
  await waitForViewRows(page, 'Models', (rows) => rows.some((row) => row.startsWith(ids.trainedModelName)));
  await viewPane(page, 'Models').locator('.monaco-list-row').filter({ hasText: ids.trainedModelName }).first().click();
  for (const other of ['Training Jobs', 'Webhooks', 'Local Runs']) await collapseView(page, other);
  const rows = await waitForViewRows(page, 'Models', (shown) => shown.some((row) => /^step \d+/.test(row)));
  const steps = rows.filter((row) => /^step \d+/.test(row)).map((row) => Number(/^step (\d+)/.exec(row)![1]));
  assert.deepEqual(
    steps,
    [...steps].sort((a, b) => b - a),
    'checkpoints newest first',
  );
  await screenshot('models-with-checkpoints');
}

export async function followsTrainingJobsLive(context: UiTestContext): Promise<void> {
  const { page, emulator, screenshot } = context;
  const ids = seededIds(context);
  await ensureSignedIn(page, emulator.apiKey, ids.inferenceModels);
  await collapseView(page, 'Models');
  const jobIds = [ids.succeededJobId, ids.failedJobId, ids.runningJobId];
  for (const jobId of jobIds) {
    await runCommand(page, 'RL Studio: Add Training Job by ID…');
    await typeInto(page, 'Add Training Job by ID', jobId);
  }
  const short = jobRowName;
  const rows = await waitForViewRows(
    page,
    'Training Jobs',
    (shown) =>
      jobIds.every((id) => shown.some((row) => row.startsWith(short(id)) && !row.includes('loading…'))) &&
      shown.some((row) => row.startsWith(`${short(ids.failedJobId)} failed · `)) &&
      shown.some((row) => row.startsWith(`${short(ids.succeededJobId)} succeeded`)),
  );
  console.log(`      Training Jobs: ${JSON.stringify(rows)}`);
  // A failed job opens on its error message, above its events.
  await viewPane(page, 'Training Jobs')
    .locator('.monaco-list-row')
    .filter({ hasText: short(ids.failedJobId) })
    .first()
    .click();
  const expanded = await waitForViewRows(page, 'Training Jobs', (shown) => shown.some((row) => row === 'failed' || row.startsWith('failed ')));
  const failedAt = expanded.findIndex((row) => row.startsWith(short(ids.failedJobId)));
  assert.ok(expanded[failedAt + 1] && !expanded[failedAt + 1]!.startsWith('Job '), 'the failed job expands to its message and events');
  await screenshot('training-jobs');
}

export async function showsTheJobDetailsWithLiveCharts(context: UiTestContext): Promise<void> {
  const { page, emulator, screenshot } = context;
  const ids = seededIds(context);
  await ensureSignedIn(page, emulator.apiKey, ids.inferenceModels);
  // The details page offers the jobs the view follows: the succeeded one, followed here unless it is already.
  if (!(await viewRows(page, 'Training Jobs')).some((row) => row.startsWith(jobRowName(ids.succeededJobId)))) {
    await runCommand(page, 'RL Studio: Add Training Job by ID…');
    await typeInto(page, 'Add Training Job by ID', ids.succeededJobId);
    await waitForViewRows(page, 'Training Jobs', (rows) => rows.some((row) => row.startsWith(jobRowName(ids.succeededJobId))));
  }
  await runCommand(page, 'RL Studio: Open Job Details');
  await pickInQuickInput(page, ids.succeededJobId);
  const webview = page.frameLocator('iframe.webview').last().frameLocator('iframe').first();
  const loss = webview.locator('figure.chart[data-metric="loss"] path.line');
  await loss.waitFor({ state: 'attached', timeout: 30_000 });
  const path = await loss.getAttribute('d');
  assert.ok(path && path.split('L').length > 2, 'the loss chart draws a line through several steps');
  const metrics = await webview.locator('figure.chart').evaluateAll((figures) => figures.map((figure) => figure.getAttribute('data-metric')));
  console.log(`      charts: ${JSON.stringify(metrics)}`);
  assert.ok(metrics.includes('reward'), 'a chart per numeric key of gradient steps');
  const events = await webview.locator('.events .event').count();
  assert.ok(events > 2, 'the timeline lists the events');
  assert.match(await webview.locator('.pill').innerText(), /succeeded/);
  await screenshot('job-details-chart');
}

export async function comparesAModelAndAJobOnSharedChartsAndSavesTheData(context: UiTestContext): Promise<void> {
  const { page, emulator, screenshot, workspace } = context;
  const ids = seededIds(context);
  await ensureSignedIn(page, emulator.apiKey, ids.inferenceModels);
  await runCommand(page, 'RL Studio: Compare Runs');
  // Tick the trained model and the succeeded job (the list offers every model and job followed).
  let ticked = 0;
  for (const text of [ids.trainedModelName, jobRowName(ids.succeededJobId)]) {
    const row = page.locator('.quick-input-list .monaco-list-row').filter({ hasText: text }).first();
    await row.waitFor({ state: 'visible', timeout: 10_000 });
    // A click on the row's label toggles its tick in a list of many.
    await row.locator('.label-name').first().click();
    ticked++;
    await page.locator('.quick-input-widget').getByText(`${ticked} Selected`).waitFor({ timeout: 10_000 });
  }
  await page.locator('.quick-input-widget').getByRole('button', { name: 'OK' }).click();
  const webview = page.frameLocator('iframe.webview').last().frameLocator('iframe').first();
  await webview.locator('.run-list li').nth(1).waitFor({ state: 'attached', timeout: 30_000 });
  const runs = await webview.locator('.run-list li').allInnerTexts();
  console.log(`      runs: ${JSON.stringify(runs)}`);
  assert.equal(runs.length, 2, 'the model and the job');
  // A metric both runs have is drawn once per run on its chart.
  const shared = await until(
    'a chart with a line per run',
    () => webview.locator('figure.chart').evaluateAll((figures) => figures.map((figure) => [figure.getAttribute('data-metric'), figure.querySelectorAll('path.line').length] as const)),
    (charts) => charts.some(([, lines]) => lines >= 2),
  );
  const [metric] = shared.find(([, lines]) => lines >= 2)!;
  await webview.locator('input.smoothing').fill('0.6');
  await screenshot('compare-runs');

  // Its data saved as CSV, where the save dialog says.
  await webview.locator(`figure.chart[data-metric="${metric}"]`).getByRole('button', { name: 'CSV' }).click();
  const target = join(workspace, `compared-${Date.now()}.csv`);
  // The workbench's own save dialog (a quick input with the path), once it is the one showing.
  await page.locator('.quick-input-widget .quick-input-title').filter({ hasText: 'Save Chart Data as CSV' }).waitFor({ state: 'visible', timeout: 15_000 });
  const input = page.locator('.quick-input-widget input').first();
  await until(
    'the save dialog to offer a path',
    () => input.inputValue(),
    (value) => value.endsWith('.csv'),
  );
  await input.fill(target);
  await until(
    'the path to be typed',
    () => input.inputValue(),
    (value) => value === target,
  );
  await page.locator('.quick-input-widget').getByRole('button', { name: 'OK' }).click();
  const csv = await until(
    'the CSV to be written',
    async () => (existsSync(target) ? readFileSync(target, 'utf8') : ''),
    (text) => text.length > 0,
  );
  assert.match(csv.split('\n')[0]!, /^series,step,value,smoothed$/);
  assert.ok(csv.split('\n').length > 3, 'a row per point');
}
