/**
 * Finding the runs an RL engineer already trains with the official client: the Local Runs view says
 * where it looks while the workspace has no `.art` folder, lists the project, model and splits once
 * `model.log()` has written its step files, and a model's trajectories folder opens as a run whose
 * chart fills in across the steps and takes a step logged while it is open.
 */
import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { writeArtParquet } from '../support/artParquet';
import type { UiTestContext } from './context';
import { collapseView, openViewContainer, pickInQuickInput, runCommand, until, viewWelcomeText, waitForViewRows } from './workbench';

const view = 'Local Runs';
const steps = 12;

function modelFolder(workspace: string): string {
  return join(workspace, '.art', 'tic-tac-toe', 'models', 'agent-001');
}

/** One step's groups, as a tic-tac-toe run logs them: rewards climb with the step; a group in three has no signal. */
function stepGroups(step: number): unknown[] {
  return Array.from({ length: 6 }, (_, group) => ({
    trajectories: Array.from({ length: 4 }, (_, position) => ({
      messages_and_choices: [
        { role: 'user', content: `Board ${step}-${group}. Your move.` },
        { finish_reason: 'stop', index: 0, message: { role: 'assistant', content: `I take square ${(group + position) % 9}.` } },
      ],
      reward: group % 3 === 0 ? 0.5 : Math.min(1, step / steps + position / 8),
      metrics: {},
      metadata: {},
      logs: [],
    })),
    exceptions: [],
    metadata: {},
    metrics: {},
    logs: [],
  }));
}

async function logStep(workspace: string, split: string, step: number): Promise<void> {
  const folder = join(modelFolder(workspace), 'trajectories', split);
  mkdirSync(folder, { recursive: true });
  await writeArtParquet(join(folder, `${String(step).padStart(4, '0')}.parquet`), stepGroups(step));
}

/** The run view's page: VS Code nests it in an iframe inside the webview's iframe. */
function runFrame(page: Page): FrameLocator {
  return page.frameLocator('iframe.webview').last().frameLocator('iframe').first();
}

export async function saysWhereItLooksWhileTheWorkspaceHasNoRuns({ page }: UiTestContext): Promise<void> {
  await openViewContainer(page, 'RL Studio');
  for (const other of ['Models', 'Training Jobs', 'Webhooks']) await collapseView(page, other);
  const welcome = await until(
    'the welcome of Local Runs',
    () => viewWelcomeText(page, view),
    (text) => /No local runs found/.test(text),
  );
  assert.match(welcome, /\.art at the root of each workspace folder/);
  assert.match(welcome, /rlStudio\.localRuns\.folders/);
}

export async function listsTheModelOnceTheClientLogsSteps(context: UiTestContext): Promise<void> {
  const { page, workspace } = context;
  mkdirSync(modelFolder(workspace), { recursive: true });
  writeFileSync(
    join(modelFolder(workspace), 'model.json'),
    JSON.stringify({
      name: 'agent-001',
      project: 'tic-tac-toe',
      entity: null,
      id: null,
      base_model: 'Qwen/Qwen2.5-7B-Instruct',
      run_name: 'agent-001',
      trainable: true,
      inference_api_key: 'sk-local-secret',
      inference_base_url: 'http://localhost:8000/v1',
    }),
  );
  for (let step = 0; step < steps; step++) await logStep(workspace, 'train', step);
  await logStep(workspace, 'val', 0);
  // The view refreshes on its own when step files appear (its watcher, debounced).
  const listed = (shown: string[]) => shown.some((row) => /agent-001/.test(row) && /train 12, val 1/.test(row));
  const rows = await waitForViewRows(page, view, listed, 20_000);
  console.log(`      rows: ${JSON.stringify(rows)}`);
  assert.ok(rows.some((row) => /tic-tac-toe/.test(row)));
  assert.ok(rows.some((row) => /latest 11/.test(row) && /Qwen\/Qwen2\.5-7B-Instruct/.test(row)));
  assert.ok(!rows.join(' ').includes('sk-local-secret'));
  await context.screenshot('local-runs-view');
}

export async function opensTheTrajectoriesFolderAsARun(context: UiTestContext): Promise<void> {
  const { page } = context;
  await runCommand(page, 'RL Studio: Open Run');
  await pickInQuickInput(page, 'agent-001');
  const frame = runFrame(page);
  const progress = await until(
    'every step read',
    async () => ((await frame.locator('.progress').count()) ? await frame.locator('.progress').innerText() : ''),
    (text) => /12 of 12 steps read/.test(text),
    60_000,
  );
  console.log(`      ${progress}`);
  assert.equal(await frame.locator('.run-chart .hit').count(), steps, 'a column per step');
  assert.ok((await frame.locator('.run-chart .reward-line').count()) === 1, 'the mean reward is drawn as a line');
  assert.ok((await frame.locator('.run-chart .bar').count()) >= steps, 'the groups with no signal are drawn as bars');
  assert.match(await frame.locator('.step-list option').first().innerText(), /Step 0: mean reward .* 6 groups, 24 trajectories · NS 2/);
  await context.screenshot('local-run-chart');
}

export async function takesAStepLoggedWhileItIsOpen(context: UiTestContext): Promise<void> {
  const frame = runFrame(context.page);
  await logStep(context.workspace, 'train', steps);
  await until(
    'the new step listed and read',
    async () => await frame.locator('.progress').innerText(),
    (text) => /13 of 13 steps read/.test(text),
    60_000,
  );
  assert.equal(await frame.locator('.run-chart .hit').count(), steps + 1);
}
