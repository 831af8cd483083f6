/**
 * `@rlstudio` in VS Code's own Chat view, on a workbench with no chat provider signed in (no
 * Copilot), as a newcomer has it. In Ask mode the model picker offers RL Studio's models and
 * `@rlstudio /explain` answers: its measured facts and the model's reading stay open once the
 * answer completes, with the Open Job Details button after them, not folded under "Completed N
 * steps". (In Agent mode the picker offers only the provider's sign-in, since RL Studio's models
 * call no tools, and VS Code refuses the request before `@rlstudio` is asked.)
 */
import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { UiTestContext } from './context';
import { ensureSignedIn, openViewContainer, runCommand, typeInto, until, waitForViewRows } from './workbench';

/** The names RL Studio's models have in VS Code's model picker: the last part of each catalogue id. */
function pickerNames(inferenceModels: string[]): string[] {
  return inferenceModels.map((id) => id.split('/').at(-1) ?? id);
}

/** The chat's input area: the prompt, the mode and the model picker. */
function chatInput(page: Page) {
  return page.locator('.interactive-input-part').first();
}

/** The last answer in the Chat view. */
function lastResponse(page: Page) {
  return page.locator('.interactive-item-container.interactive-response').last();
}

/** The test workbench starts with AI features off (quiet by default); a person with the Chat view has them on. */
async function turnOnChat(page: Page): Promise<void> {
  await runCommand(page, 'Preferences: Open Settings (UI)');
  await page.locator('.settings-editor .settings-header .monaco-editor').first().waitFor({ state: 'visible', timeout: 10_000 });
  await page.keyboard.type('chat.disableAIFeatures');
  const checkbox = page
    .locator('.settings-editor .setting-item-bool')
    .filter({ hasText: /Disable AI Features/i })
    .locator('.setting-value-checkbox')
    .first();
  await checkbox.waitFor({ state: 'visible', timeout: 10_000 });
  if ((await checkbox.getAttribute('aria-checked')) === 'true') await checkbox.click();
  await until(
    'the AI features setting to turn off',
    async () => checkbox.getAttribute('aria-checked'),
    (checked) => checked === 'false',
  );
  await runCommand(page, 'View: Close All Editors');
}

/** Runs a command the workbench offers only once the chat is on: the palette is asked again until it lists it. */
async function runChatCommand(page: Page, title: string): Promise<void> {
  await until(
    `the command palette to offer "${title}"`,
    async () => {
      try {
        await runCommand(page, title);
        return true;
      } catch {
        await page.keyboard.press('Escape');
        return false;
      }
    },
    (ran) => ran,
    60_000,
  );
}

export async function inAskModeThePickerOffersRlStudiosModels({ page, emulator, screenshot }: UiTestContext): Promise<void> {
  await openViewContainer(page, 'RL Studio');
  await ensureSignedIn(page, emulator.apiKey, emulator.seeded!.inferenceModels);
  await turnOnChat(page);
  await runChatCommand(page, 'Chat: Open Chat (Ask)');
  const names = pickerNames(emulator.seeded!.inferenceModels);
  const input = await until(
    "an RL Studio model chosen in the Ask mode's picker",
    async () => ((await chatInput(page).count()) ? await chatInput(page).innerText() : ''),
    (text) => /\bAsk\b/.test(text) && names.some((name) => text.includes(name)),
  );
  console.log(`      chat input: ${input.replace(/\s+/g, ' ').trim()}`);
  await screenshot('ask-mode-rl-studio-model');
}

export async function explainShowsItsFactsOpenWithTheButtonAfterThem({ page, emulator, screenshot }: UiTestContext): Promise<void> {
  const failedJobId = emulator.seeded!.failedJobId;
  await runCommand(page, 'RL Studio: Add Training Job by ID…');
  await typeInto(page, 'Add Training Job by ID', failedJobId);
  await waitForViewRows(page, 'Training Jobs', (rows) => rows.some((row) => row.includes(failedJobId.slice(0, 8))));

  await chatInput(page).locator('.monaco-editor').first().click();
  await page.keyboard.type(`@rlstudio /explain why did ${failedJobId} fail`);
  await page.keyboard.press('Enter');
  const response = lastResponse(page);
  // The chat folds the work steps only once the answer is complete, and then says "Completed N steps".
  await until(
    'the answer to complete',
    async () => ((await response.count()) ? await response.innerText() : ''),
    (text) => /Completed \d+ steps?/.test(text),
    60_000,
  );
  const button = response.getByRole('button', { name: 'Open Job Details' });
  assert.ok(await button.isVisible(), 'the Open Job Details button is visible');
  // What the person sees without unfolding anything: the facts, the model's reading and the button.
  const facts = response.getByText(/CUDA out of memory/).first();
  await facts.waitFor({ state: 'visible', timeout: 10_000 });
  assert.ok(await facts.isVisible(), 'the failure message is visible');
  const shown = await response.innerText();
  console.log(`      answer: ${shown.replace(/\s+/g, ' ').trim().slice(0, 400)}`);
  assert.match(shown, /what its events and metrics show/);
  assert.doesNotMatch(shown, /Language model unavailable/);
  // The work steps fold ("Completed N steps"); the facts and the button are not in that group.
  const folded = response.locator('.completed-response-disclosure');
  assert.match(await folded.first().innerText(), /Completed \d+ steps?/);
  assert.equal(await folded.filter({ hasText: /CUDA out of memory|Open Job Details/ }).count(), 0, 'the folded steps hold the facts or the button');
  await screenshot('explain-reading-and-button');
  // Wider, the whole answer fits: the facts, the reading and the button in one screenshot.
  const maximize = page.locator('.part.auxiliarybar .action-label[aria-label*="Maximize"]').first();
  if (await maximize.count()) await maximize.click();
  await screenshot('explain-facts-open');
}
