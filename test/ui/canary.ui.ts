/**
 * A canary as an engineer leaves one on an overnight run: pinned to a model from the palette (its
 * confirmation states the prompts, the budget and the address), the model's row says so, a job
 * followed by its id adds checkpoints, and each is evaluated by itself: the training charts show the
 * canary's score against the step beside the reward.
 */
import * as assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GENERATED_PROJECT } from '../emulator/seed';
import { DEFAULT_ENTITY } from '../emulator/state';
import type { UiTestContext } from './context';
import { addModelByIdAndName, collapseView, ensureSignedIn, openViewContainer, pickInQuickInput, runCommand, typeInto, until, waitForViewRows } from './workbench';

const setName = 'arith.evalset.jsonl';
const demoSet = join(__dirname, '../../../test/vscode/demo-workspace/evals', setName);
const groupsFile = join(__dirname, '../../../test/fixtures/jobs/groups.jsonl');
const modelName = 'canary-demo';

async function quickInputTitled(context: UiTestContext, title: string): Promise<void> {
  await context.page.locator('.quick-input-widget .quick-input-title').filter({ hasText: title }).first().waitFor({ state: 'visible', timeout: 30_000 });
}

export async function pinsACanaryAndChartsItsScoreBesideTheReward(context: UiTestContext): Promise<void> {
  const { page, emulator, workspace, screenshot } = context;
  const ids = emulator.seeded!;
  mkdirSync(join(workspace, 'evals'), { recursive: true });
  if (!existsSync(join(workspace, 'evals', setName))) copyFileSync(demoSet, join(workspace, 'evals', setName));
  await openViewContainer(page, 'RL Studio');
  await ensureSignedIn(page, emulator.apiKey, ids.inferenceModels);
  // Steps 0–20; step 20 is the emulator's best, so the job's steps 21–24 fall below it.
  const modelId = await emulator.createModelWithCheckpoints(modelName, 21);
  await addModelByIdAndName(page, modelId, `${DEFAULT_ENTITY}/${GENERATED_PROJECT}/${modelName}`);
  for (const other of ['Training Jobs', 'Webhooks', 'Local Runs']) await collapseView(page, other);
  await waitForViewRows(page, 'Models', (rows) => rows.some((row) => row.startsWith(modelName)));

  await runCommand(page, 'RL Studio: Pin a Canary Eval Set…');
  await quickInputTitled(context, 'Pin a Canary: training model');
  await pickInQuickInput(page, modelName);
  await quickInputTitled(context, `Canary of ${modelName}: eval set`);
  await pickInQuickInput(page, `evals/${setName}`);
  await quickInputTitled(context, `Canary of ${modelName}: scorers`);
  await page.keyboard.press('Enter'); // exact match, picked already: the set has references
  const dialog = page.locator('.monaco-dialog-box').first();
  await dialog.waitFor({ state: 'visible', timeout: 30_000 });
  const confirmation = (await dialog.innerText()).replace(/\s+/g, ' ');
  assert.match(confirmation, /Pin a canary to canary-demo\?/);
  assert.match(confirmation, /is asked the first 40 of the 100 prompts of evals\/arith\.evalset\.jsonl/);
  assert.match(confirmation, /Budget: 40 requests per checkpoint/);
  assert.match(confirmation, /Training API host: 127\.0\.0\.1:\d+/);
  await page.locator('.monaco-dialog-box .dialog-buttons .monaco-button').filter({ hasText: 'Pin Canary' }).first().click();
  await waitForViewRows(page, 'Models', (rows) => rows.some((row) => row.startsWith(modelName) && row.includes('canary')));

  // A job started elsewhere (from Python, say) and followed here by its id.
  const groups = readFileSync(groupsFile, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as unknown);
  const response = await fetch(`${emulator.trainingUrl}/preview/training-jobs`, {
    method: 'POST',
    headers: { authorization: `Bearer ${emulator.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model_id: modelId, trajectory_groups: groups }),
  });
  assert.equal(response.status, 200, 'the job was created');
  const job = (await response.json()) as { id: string };
  await runCommand(page, 'RL Studio: Add Training Job by ID…');
  await typeInto(page, 'Add Training Job by ID', job.id);

  await runCommand(page, 'RL Studio: Open Training Charts');
  await pickInQuickInput(page, modelName);
  const webview = page.frameLocator('iframe.webview').last().frameLocator('iframe').first();
  const canaryLine = webview.locator('figure.chart[data-metric="canary: exact match"] path.line').first();
  // The baseline (step 20) and at least two of the job's checkpoints: a line through three points.
  await until(
    'the canary chart through three checkpoints',
    async () => ((await canaryLine.count()) > 0 ? ((await canaryLine.getAttribute('d')) ?? '') : ''),
    (d) => d.split('L').length >= 3,
    120_000,
  );
  const metrics = await webview.locator('figure.chart').evaluateAll((figures) => figures.map((figure) => figure.getAttribute('data-metric')));
  console.log(`      charts: ${JSON.stringify(metrics)}`);
  assert.equal(metrics[metrics.indexOf('reward') + 1], 'canary: exact match', 'the canary is charted beside the reward');
  await screenshot('training-canary');
}
