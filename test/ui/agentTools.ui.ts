/**
 * RL Studio's language-model tools called by another extension, outside any chat (the Tool Caller
 * fixture stands for any agent): the workbench asks in a modal dialog before a tool deletes, the
 * dialog names what will go, Cancel leaves the platform untouched, the primary button deletes
 * exactly those checkpoints, and a call RL Studio refuses fails at once, without asking first.
 */
import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { Emulator } from '../emulator/contract';
import { GENERATED_PROJECT } from '../emulator/seed';
import { DEFAULT_ENTITY } from '../emulator/state';
import type { UiTestContext } from './context';
import { addModelByIdAndName, collapseView, ensureSignedIn, notificationMessages, openViewContainer, runCommand, typeInto, until, waitForViewRows } from './workbench';

const modelName = 'prune-candidate';
const deleteTool = 'rlstudio_delete_checkpoints';

/** The model this module made (8 checkpoints, steps 0 to 7), once the first step made it. */
let modelId: string | undefined;

/** Calls a tool through the Tool Caller extension, as an agent would, after clearing older notifications. */
async function invokeThroughAnotherExtension(page: Page, tool: string, input: unknown): Promise<void> {
  await runCommand(page, 'Notifications: Clear All Notifications');
  await runCommand(page, 'Tool Caller: Invoke a Language Model Tool');
  await typeInto(page, 'Tool name', tool);
  await typeInto(page, 'Tool input', JSON.stringify(input));
}

/** Waits for the Tool Caller's notification matching `pattern` and returns its text. */
async function toolCallerNotification(page: Page, pattern: RegExp): Promise<string> {
  const messages = await until(
    `a notification matching ${pattern}`,
    () => notificationMessages(page),
    (shown) => shown.some((text) => pattern.test(text)),
    30_000,
  );
  return messages.find((text) => pattern.test(text))!;
}

/** The confirmation dialog, once it shows, and its text. */
async function confirmationDialog(page: Page): Promise<string> {
  const dialog = page.locator('.monaco-dialog-box').first();
  await dialog.waitFor({ state: 'visible', timeout: 30_000 });
  return (await dialog.innerText()).replace(/\s+/g, ' ').trim();
}

async function clickDialogButton(page: Page, which: 'primary' | 'Cancel'): Promise<void> {
  const buttons = page.locator('.monaco-dialog-box .dialog-buttons .monaco-button');
  const button = which === 'Cancel' ? buttons.filter({ hasText: /^Cancel$/ }) : buttons.filter({ hasNotText: /^Cancel$/ });
  await button.first().click();
  await page.locator('.monaco-dialog-box').first().waitFor({ state: 'hidden', timeout: 10_000 });
}

/** The steps the emulator holds for a model, asked through the training API as any client would. */
async function checkpointSteps(emulator: Emulator, id: string): Promise<number[]> {
  const response = await fetch(`${emulator.trainingUrl}/preview/models/${encodeURIComponent(id)}/checkpoints?limit=100&order=asc`, { headers: { authorization: `Bearer ${emulator.apiKey}` } });
  assert.equal(response.status, 200, `listing the checkpoints of ${id}`);
  const page = (await response.json()) as { data: Array<{ step: number }> };
  return page.data.map((checkpoint) => checkpoint.step).sort((a, b) => a - b);
}

function deleteRequests(emulator: Emulator): string[] {
  return emulator.requests.filter((request) => request.method === 'DELETE').map((request) => `${request.method} ${request.path} ${request.body}`);
}

export async function asksBeforeAToolDeletesAndCancelDeletesNothing(context: UiTestContext): Promise<void> {
  const { page, emulator, screenshot } = context;
  await openViewContainer(page, 'RL Studio');
  await ensureSignedIn(page, emulator.apiKey, emulator.seeded!.inferenceModels);
  modelId = await emulator.createModelWithCheckpoints(modelName, 8);
  await addModelByIdAndName(page, modelId, `${DEFAULT_ENTITY}/${GENERATED_PROJECT}/${modelName}`);
  for (const other of ['Training Jobs', 'Webhooks', 'Local Runs']) await collapseView(page, other);
  await waitForViewRows(page, 'Models', (rows) => rows.some((row) => row.startsWith(modelName)));
  assert.deepEqual(await checkpointSteps(emulator, modelId), [0, 1, 2, 3, 4, 5, 6, 7]);

  await invokeThroughAnotherExtension(page, deleteTool, { modelId, steps: [2, 4] });
  const text = await confirmationDialog(page);
  console.log(`      dialog: ${text}`);
  for (const part of [`Delete 2 checkpoints of "${modelName}"?`, 'Steps: 2, 4', modelName, modelId, 'cannot be undone']) assert.ok(text.includes(part), `the dialog names "${part}": ${text}`);
  await screenshot('tool-confirmation');

  await clickDialogButton(page, 'Cancel');
  await toolCallerNotification(page, /^Tool cancelled$/);
  assert.deepEqual(deleteRequests(emulator), [], 'DELETE requests after Cancel');
  assert.deepEqual(await checkpointSteps(emulator, modelId), [0, 1, 2, 3, 4, 5, 6, 7]);
}

export async function confirmingInTheDialogDeletesExactlyThoseCheckpoints({ page, emulator }: UiTestContext): Promise<void> {
  assert.ok(modelId, 'the model of the first step');
  await invokeThroughAnotherExtension(page, deleteTool, { modelId, steps: [2, 4] });
  await confirmationDialog(page);
  await clickDialogButton(page, 'primary');
  const result = await toolCallerNotification(page, /^Tool (result|failed|cancelled)/);
  assert.match(result, /^Tool result: Deleted 2 checkpoints of "prune-candidate"/);
  assert.equal(deleteRequests(emulator).length, 1, `one DELETE request: ${JSON.stringify(deleteRequests(emulator))}`);
  assert.deepEqual(await checkpointSteps(emulator, modelId), [0, 1, 3, 5, 6, 7]);
}

export async function refusesAMalformedModelIdWithoutAskingFirst({ page, emulator }: UiTestContext): Promise<void> {
  // Any confirmation dialog drawn from here on is remembered, however briefly it shows.
  await page.evaluate(() => {
    const flags = window as unknown as { confirmationShown?: boolean };
    flags.confirmationShown = false;
    new MutationObserver(() => {
      if (document.querySelector('.monaco-dialog-box')) flags.confirmationShown = true;
    }).observe(document.body, { childList: true, subtree: true });
  });
  const before = deleteRequests(emulator).length;
  await invokeThroughAnotherExtension(page, deleteTool, { modelId: '../x', steps: [1] });
  const failure = await toolCallerNotification(page, /^Tool (result|failed|cancelled)/);
  assert.equal(await page.locator('.monaco-dialog-box').isVisible(), false, 'a dialog shows beside the failure');
  assert.equal(await page.evaluate(() => (window as unknown as { confirmationShown?: boolean }).confirmationShown), false, 'a confirmation dialog showed before the failure');
  console.log(`      refusal: ${failure}`);
  assert.match(failure, /^Tool failed: .*"modelId" is not an id/);
  assert.equal(deleteRequests(emulator).length, before, 'no DELETE request for a refused call');
}
