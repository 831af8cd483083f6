/**
 * Choosing which checkpoint to ship, as an engineer does: three checkpoints selected in the Models
 * view are evaluated on an eval set, the report's leaderboard names the best, "Use step N" promotes
 * it, and the chat's model picker offers it pinned and starts with it.
 */
import * as assert from 'node:assert/strict';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { GENERATED_PROJECT } from '../emulator/seed';
import { DEFAULT_ENTITY } from '../emulator/state';
import type { UiTestContext } from './context';
import { addModelByIdAndName, collapseView, ensureSignedIn, openViewContainer, runCommand, until, waitForViewRows } from './workbench';

const setName = 'arith.evalset.jsonl';
const demoSet = join(__dirname, '../../../test/vscode/demo-workspace/evals', setName);
const steps = [20, 22, 24];
const modelName = 'eval-candidate';

/** The active webview's document: VS Code nests the page in an iframe inside the webview's iframe. */
function activeWebview(page: Page): FrameLocator {
  return page.frameLocator('iframe.webview').last().frameLocator('iframe').first();
}

/** Waits until the quick input shows the step whose title starts with `title`. */
async function quickInputTitled(page: Page, title: string): Promise<void> {
  await page.locator('.quick-input-widget .quick-input-title').filter({ hasText: title }).first().waitFor({ state: 'visible', timeout: 30_000 });
}

async function pressInQuickInput(page: Page, text: string | undefined): Promise<void> {
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: 20_000 });
  if (text !== undefined) {
    await input.fill(text);
    await page.locator('.quick-input-list .monaco-list-row').filter({ hasText: text }).first().waitFor({ state: 'visible', timeout: 20_000 });
  }
  await page.keyboard.press('Enter');
}

export async function evaluatesThreeCheckpointsAndReadsTheLeaderboard(context: UiTestContext): Promise<void> {
  const { page, emulator, workspace, screenshot } = context;
  const ids = emulator.seeded!;
  mkdirSync(join(workspace, 'evals'), { recursive: true });
  copyFileSync(demoSet, join(workspace, 'evals', setName));
  await openViewContainer(page, 'RL Studio');
  await ensureSignedIn(page, emulator.apiKey, ids.inferenceModels);
  // A model of 25 checkpoints (steps 0 to 24), all on the view's first page.
  const modelId = await emulator.createModelWithCheckpoints(modelName, 25);
  await addModelByIdAndName(page, modelId, `${DEFAULT_ENTITY}/${GENERATED_PROJECT}/${modelName}`);
  for (const other of ['Training Jobs', 'Webhooks', 'Local Runs']) await collapseView(page, other);
  await waitForViewRows(page, 'Models', (rows) => rows.some((row) => row.startsWith(modelName)));
  await waitForViewRows(page, 'Models', (rows) => rows.some((row) => row.startsWith(modelName)));
  // The checkpoints, picked in the command's list: the Models view refreshes as checkpoints come, so its rows move.
  await runCommand(page, 'RL Studio: Evaluate Checkpoints…');
  await quickInputTitled(page, 'Evaluate Checkpoints of');
  for (const step of steps) {
    // A click on a row of a pick-many list toggles its box.
    await page
      .locator('.quick-input-list .monaco-list-row')
      .filter({ hasText: new RegExp(`step ${step}(?!\\d)`) })
      .first()
      .click();
  }
  await page.keyboard.press('Enter');
  await quickInputTitled(page, 'Evaluate Checkpoints: eval set');
  await pressInQuickInput(page, `evals/${setName}`);
  await quickInputTitled(page, 'Evaluate Checkpoints: scorers');
  await pressInQuickInput(page, undefined); // exact match, picked already
  await quickInputTitled(page, 'Compare with');
  await pressInQuickInput(page, undefined); // nothing else
  await quickInputTitled(page, 'Evaluate Checkpoints: sampling');
  await pressInQuickInput(page, 'Deterministic');

  const report = activeWebview(page);
  const rows = report.locator('table.leaderboard tbody tr');
  const labels = await until(
    'the leaderboard of the three steps, every answer in',
    async () => {
      try {
        return (await report.locator('progress').count()) === 0 || !(await report.locator('progress').first().isVisible()) ? await rows.allInnerTexts() : [];
      } catch {
        // The report's frame is replaced while its webview loads: read again.
        return [];
      }
    },
    (shown) => shown.length === steps.length,
    120_000,
  );
  console.log(`      leaderboard: ${JSON.stringify(labels.map((row) => row.replace(/\s+/g, ' ')))}`);
  assert.match(labels[0]!, /step 20/, 'step 20 leads');
  assert.match(labels[0]!, /best/);
  await screenshot('eval-report');
}

export async function promotesTheBestStepToTheChat(context: UiTestContext): Promise<void> {
  const { page, screenshot } = context;
  const report = activeWebview(page);
  await report.locator('table.leaderboard button').filter({ hasText: 'Use step 20' }).first().click();
  await runCommand(page, 'RL Studio: Open Chat');
  const chat = activeWebview(page);
  await chat.locator('.composer-input').waitFor({ state: 'visible', timeout: 30_000 });
  // The promoted step is what new chats start with (an open conversation keeps its own model).
  await chat.locator('button.new-conversation').click();
  const picker = chat.locator('.model-select').first();
  const id = `wandb-artifact:///${DEFAULT_ENTITY}/${GENERATED_PROJECT}/${modelName}:step20`;
  await until(
    'the promoted step pinned in the chat picker, and chosen',
    async () => {
      try {
        const pinned = await picker.locator('optgroup[label="Pinned"] option').evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
        return { pinned, chosen: await picker.inputValue() };
      } catch {
        // The panel's frame is replaced while it loads: read again.
        return { pinned: [] as string[], chosen: '' };
      }
    },
    ({ pinned, chosen }) => pinned.includes(id) && chosen === id,
    30_000,
  );
  await screenshot('promoted-step-in-chat');
}
