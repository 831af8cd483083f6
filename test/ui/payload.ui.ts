/**
 * Writing a webhook payload as a user does: a template, completion inside a string, then the
 * preview. A step that needs what an earlier one made (the template open, the completed line)
 * makes it when it is not there.
 */
import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { UiTestContext } from './context';
import { openViewContainer, pickInQuickInput, runCommand, viewWelcomeText, waitForText } from './workbench';

const completedLine = 'Built by ${event_author}';

/** Whether the editor shows a line with `text`. */
async function editorShows(page: Page, text: string): Promise<boolean> {
  return (await page.locator('.view-lines').filter({ hasText: text }).count()) > 0;
}

/** A new payload from the messaging-blocks template, open in the editor as Webhook Payload. */
async function newMessagingBlocksPayload(page: Page): Promise<void> {
  // The container shows once the extension's contributions are loaded; commands exist from then on.
  await openViewContainer(page, 'RL Studio');
  await runCommand(page, 'RL Studio: New Payload from Template');
  await pickInQuickInput(page, 'Messaging blocks');
  const editor = page.locator('.editor-instance .monaco-editor').first();
  await editor.waitFor({ state: 'visible', timeout: 10_000 });
  await page.locator('.view-lines').filter({ hasText: '"blocks"' }).first().waitFor({ state: 'visible', timeout: 10_000 });
  const language = page.locator('.statusbar-item').filter({ hasText: 'Webhook Payload' }).first();
  await language.waitFor({ state: 'visible', timeout: 10_000 });
}

/**
 * Types a new property under the template's first line, and `${` inside its value: completion must
 * open by itself on `{`, the trigger character. `whileOpen` runs while it shows; returns the labels it offered.
 */
async function typeReferenceWithCompletion(page: Page, whileOpen: () => Promise<unknown> = async () => undefined): Promise<string[]> {
  // Line 2 is `  "text": "${event_type}: ${artifact_version_string}",`: type a new property below it.
  await page.locator('.monaco-editor .view-lines').first().click();
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  // Auto-closing quotes: each opening quote is typed, each closing one is typed over. The cursor
  // then goes back inside the value, before its closing quote and the comma.
  await page.keyboard.type('"summary": "Built by ",', { delay: 20 });
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.type('${', { delay: 50 });
  const suggestions = page.locator('.editor-widget.suggest-widget.visible');
  await suggestions.waitFor({ state: 'visible', timeout: 10_000 });
  const rows = suggestions.locator('.monaco-list-row');
  await rows.first().waitFor({ state: 'visible', timeout: 10_000 });
  const labels = await rows.allInnerTexts();
  await whileOpen();

  await page.keyboard.type('event_au', { delay: 30 });
  // Enter takes the focused suggestion: wait until the filtering has focused the one meant.
  await suggestions.locator('.monaco-list-row.focused').filter({ hasText: 'event_author' }).first().waitFor({ state: 'visible', timeout: 10_000 });
  await page.keyboard.press('Enter');
  await page.locator('.view-lines').filter({ hasText: completedLine }).first().waitFor({ state: 'visible', timeout: 10_000 });
  return labels;
}

export async function showsTheWebhooksViewWithItsFirstSteps({ page, screenshot }: UiTestContext): Promise<void> {
  await openViewContainer(page, 'RL Studio');
  const welcome = await waitForText(() => viewWelcomeText(page, 'Webhooks'), /No webhooks yet/);
  assert.match(welcome, /Start Local Receiver/);
  await screenshot('webhooks-view');
}

export async function createsAPayloadFromATemplate({ page, screenshot }: UiTestContext): Promise<void> {
  await newMessagingBlocksPayload(page);
  await screenshot('template');
}

export async function opensCompletionInsideAStringValue({ page, screenshot }: UiTestContext): Promise<void> {
  if (!(await editorShows(page, '"blocks"'))) await newMessagingBlocksPayload(page);
  const labels = await typeReferenceWithCompletion(page, () => screenshot('completion-open'));
  assert.ok(
    labels.some((label) => label.includes('project_name')),
    `project_name is offered (saw ${JSON.stringify(labels)})`,
  );
}

export async function previewsTheRenderedPayloadBeside({ page, screenshot }: UiTestContext): Promise<void> {
  if (!(await editorShows(page, completedLine))) {
    await newMessagingBlocksPayload(page);
    await typeReferenceWithCompletion(page);
  }
  await runCommand(page, 'RL Studio: Preview Payload');
  await page.locator('.view-lines').filter({ hasText: 'Built by jane-doe' }).first().waitFor({ state: 'visible', timeout: 15_000 });
  await screenshot('preview-beside');
}
