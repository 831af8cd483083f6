/** Writing a webhook payload as a user does: a template, completion inside a string, then the preview. */
import * as assert from 'node:assert/strict';
import type { UiTestContext } from './context';
import { openViewContainer, runCommand, viewWelcomeText, waitForText } from './workbench';

export async function showsTheWebhooksViewWithItsFirstSteps({ page, screenshot }: UiTestContext): Promise<void> {
  // The container shows once the extension's contributions are loaded; commands exist from then on.
  await openViewContainer(page, 'RL Studio');
  const welcome = await waitForText(() => viewWelcomeText(page, 'Webhooks'), /No webhooks yet/);
  assert.match(welcome, /Start Local Receiver/);
  await screenshot('webhooks-view');
}

export async function createsAPayloadFromATemplate({ page, screenshot }: UiTestContext): Promise<void> {
  await runCommand(page, 'RL Studio: New Payload from Template');
  const row = page.locator('.quick-input-list .monaco-list-row').filter({ hasText: 'Messaging blocks' }).first();
  await row.waitFor({ state: 'visible', timeout: 10_000 });
  await row.click();
  const editor = page.locator('.editor-instance .monaco-editor').first();
  await editor.waitFor({ state: 'visible', timeout: 10_000 });
  await page.locator('.view-lines').filter({ hasText: '"blocks"' }).first().waitFor({ state: 'visible', timeout: 10_000 });
  const language = page.locator('.statusbar-item').filter({ hasText: 'Webhook Payload' }).first();
  await language.waitFor({ state: 'visible', timeout: 10_000 });
  await screenshot('template');
}

export async function opensCompletionInsideAStringValue({ page, screenshot }: UiTestContext): Promise<void> {
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
  try {
    await suggestions.waitFor({ state: 'visible', timeout: 5_000 });
  } catch {
    // Completion opens on `{`; ask explicitly if the trigger raced the typing.
    await page.keyboard.press('Control+Space');
    await suggestions.waitFor({ state: 'visible', timeout: 10_000 });
  }
  const rows = suggestions.locator('.monaco-list-row');
  await rows.first().waitFor({ state: 'visible', timeout: 10_000 });
  const labels = await rows.allInnerTexts();
  assert.ok(labels.some((label) => label.includes('project_name')), `project_name is offered (saw ${JSON.stringify(labels)})`);
  await screenshot('completion-open');

  await page.keyboard.type('event_au', { delay: 30 });
  await page.waitForTimeout(300);
  await page.keyboard.press('Enter');
  await page.locator('.view-lines').filter({ hasText: 'Built by ${event_author}' }).first().waitFor({ state: 'visible', timeout: 10_000 });
}

export async function previewsTheRenderedPayloadBeside({ page, screenshot }: UiTestContext): Promise<void> {
  await runCommand(page, 'RL Studio: Preview Payload');
  await page.locator('.view-lines').filter({ hasText: 'Built by jane-doe' }).first().waitFor({ state: 'visible', timeout: 15_000 });
  await screenshot('preview-beside');
}
