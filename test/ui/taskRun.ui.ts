/**
 * Training from a task file as an engineer tries it in an afternoon: the demo's task file opened in
 * the editor, Start Training Run pressed on its title bar, the model's creation and the run
 * confirmed in the workbench's own dialogs (the run's names what it spends at most), and the run
 * dashboard charting reward per step as the steps come, to the end.
 */
import * as assert from 'node:assert/strict';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { UiTestContext } from './context';
import { collapseView, ensureSignedIn, openViewContainer, runCommand, until } from './workbench';

const demo = join(__dirname, '../../../test/vscode/demo-workspace');

async function confirmDialog(context: UiTestContext, button: string): Promise<string> {
  const dialog = context.page.locator('.monaco-dialog-box').first();
  await dialog.waitFor({ state: 'visible', timeout: 30_000 });
  const text = (await dialog.innerText()).replace(/\s+/g, ' ');
  await context.page.locator('.monaco-dialog-box .dialog-buttons .monaco-button').filter({ hasText: button }).first().click();
  await dialog.waitFor({ state: 'hidden', timeout: 10_000 });
  return text;
}

export async function startsARunFromItsTaskFileAndWatchesTheDashboard(context: UiTestContext): Promise<void> {
  const { page, emulator, workspace, screenshot } = context;
  mkdirSync(join(workspace, 'evals'), { recursive: true });
  for (const file of ['evals/arith.evalset.jsonl', 'evals/arith-heldout.evalset.jsonl', 'arith.rltask.json']) copyFileSync(join(demo, file), join(workspace, file));
  await openViewContainer(page, 'RL Studio');
  await ensureSignedIn(page, emulator.apiKey, emulator.seeded!.inferenceModels);
  emulator.setSecondsPerStep(0.05);

  await runCommand(page, 'Go to File...');
  await page.keyboard.type('arith.rltask.json');
  await page.locator('.quick-input-list .monaco-list-row').filter({ hasText: 'arith.rltask.json' }).first().waitFor({ state: 'visible', timeout: 20_000 });
  await page.keyboard.press('Enter');
  await page.locator('.tab.active').filter({ hasText: 'arith.rltask.json' }).waitFor({ state: 'visible', timeout: 20_000 });
  // The play button of the editor's title bar.
  await page.locator('.editor-actions .action-label[aria-label^="Start Training Run"]').first().click();
  assert.match(await confirmDialog(context, 'Create Model'), /Create the model emulator-entity\/demo-project\/arith-rl\?/);
  const start = await confirmDialog(context, 'Start Run');
  assert.match(start, /Trains arith-rl for 3 steps: each step asks 6 prompts of evals\/arith\.evalset\.jsonl for 8 answers/);
  assert.match(start, /At most \d+ requests/);

  const dashboard = page.frameLocator('iframe.webview').last().frameLocator('iframe').first();
  await dashboard.locator('h1').filter({ hasText: 'Run arith' }).waitFor({ state: 'visible', timeout: 30_000 });
  const status = await until(
    'the run to finish on the dashboard',
    () => dashboard.locator('.pill').innerText(),
    (text) => text === 'finished' || text === 'failed',
    180_000,
  );
  assert.equal(
    status,
    'finished',
    await dashboard
      .locator('.failure')
      .innerText()
      .catch(() => ''),
  );
  const rewardLine = dashboard.locator('figure.chart[data-metric="reward"] path.line').first();
  const d = await until(
    'reward per step through three steps',
    async () => ((await rewardLine.count()) > 0 ? ((await rewardLine.getAttribute('d')) ?? '') : ''),
    (path) => path.split('L').length >= 3,
  );
  assert.ok(d.length > 0);
  const rows = await dashboard.locator('table.steps tbody tr').allInnerTexts();
  console.log(`      steps: ${JSON.stringify(rows)}`);
  assert.equal(rows.length, 3);
  assert.ok(rows.every((row) => row.includes('trained')));
  // The dashboard alone, for a look at all of it.
  await page.locator('.tab').filter({ hasText: 'Run arith' }).first().click();
  await runCommand(page, 'View: Close Editors in Other Groups');
  for (const other of ['Webhooks', 'Local Runs']) await collapseView(page, other);
  await page.locator('.tab').filter({ hasText: 'arith.rltask.json' }).waitFor({ state: 'detached', timeout: 10_000 });
  await dashboard.locator('figure.chart[data-metric="heldOut"] path.line').first().waitFor({ state: 'attached', timeout: 10_000 });
  await screenshot('task-run-dashboard');
}
