/**
 * A first look at RL Studio as a user meets it: sign in from the palette, then browse models and
 * jobs. Each step signs in or out first when it needs to, so it shows what it says whatever the
 * step before it did.
 */
import * as assert from 'node:assert/strict';
import type { UiTestContext } from './context';
import {
  ensureSignedIn,
  ensureSignedOut,
  inputBox,
  openViewContainer,
  runCommand,
  signedOutPrompt,
  submitInputBox,
  typeAll,
  viewRows,
  viewWelcomeText,
  waitForText,
  waitForViewRows,
} from './workbench';

const inferenceModelsOf = ({ emulator }: UiTestContext) => emulator.seeded?.inferenceModels ?? [];

export async function opensTheRlStudioContainerSignedOut(context: UiTestContext): Promise<void> {
  const { page, screenshot } = context;
  await openViewContainer(page, 'RL Studio');
  await ensureSignedOut(page, inferenceModelsOf(context));
  const welcome = await waitForText(() => viewWelcomeText(page, 'Training Jobs'), signedOutPrompt);
  assert.match(welcome, /Sign In/);
  await screenshot('signed-out');
}

export async function promptsToSignInFromTheModelsView(context: UiTestContext): Promise<void> {
  const { page } = context;
  await ensureSignedOut(page, inferenceModelsOf(context));
  const welcome = await waitForText(() => viewWelcomeText(page, 'Models'), signedOutPrompt, 5_000);
  assert.match(welcome, /Sign In/);
}

export async function signsInWithTheKeyTypedIntoThePasswordBox(context: UiTestContext): Promise<void> {
  const { page, emulator, screenshot } = context;
  await ensureSignedOut(page, inferenceModelsOf(context));
  await runCommand(page, 'RL Studio: Sign In (Set API Key)');
  const input = await inputBox(page, 'RL Studio: Sign In');
  assert.equal(await input.getAttribute('type'), 'password', 'the key is typed into a password box');
  await typeAll(input, emulator.apiKey);
  await screenshot('api-key-input');
  await submitInputBox(input);
  await waitForText(() => viewWelcomeText(page, 'Training Jobs'), signedOutPrompt, 30_000, false);
}

export async function saysARefusedKeyUnderWhatWasTypedAndKeepsTheBoxOpen(context: UiTestContext): Promise<void> {
  const { page, emulator, screenshot } = context;
  await ensureSignedOut(page, inferenceModelsOf(context));
  await runCommand(page, 'RL Studio: Sign In (Set API Key)');
  const input = await inputBox(page, 'RL Studio: Sign In');
  await typeAll(input, 'not-the-key');
  await input.press('Enter');
  const message = page.locator('.quick-input-widget .quick-input-message');
  await waitForText(async () => (await message.innerText()).trim(), /rejected this key \(401\)/);
  assert.ok(await input.isVisible(), 'the box stays open, with what was typed');
  await screenshot('refused-key-in-the-box');
  await typeAll(input, emulator.apiKey);
  await submitInputBox(input);
  await waitForText(() => viewWelcomeText(page, 'Training Jobs'), signedOutPrompt, 30_000, false);
}

export async function showsTheInferenceModelsInTheModelsView(context: UiTestContext): Promise<void> {
  const { page, emulator, screenshot } = context;
  const models = inferenceModelsOf(context);
  assert.ok(models.length > 0, 'the emulator seeds inference models');
  await ensureSignedIn(page, emulator.apiKey, models);
  const rows = await waitForViewRows(page, 'Models', (shown) => models.every((id) => shown.some((row) => row.includes(id))));
  console.log(`      Models: ${JSON.stringify(rows)}`);
  await screenshot('models-view');
}

export async function showsTheTrainingJobsView(context: UiTestContext): Promise<void> {
  const { page, emulator, screenshot } = context;
  await ensureSignedIn(page, emulator.apiKey, inferenceModelsOf(context));
  const rows = await viewRows(page, 'Training Jobs');
  console.log(`      Training Jobs: ${JSON.stringify(rows)}`);
  assert.doesNotMatch(await viewWelcomeText(page, 'Training Jobs'), signedOutPrompt, 'no sign-in prompt once signed in');
  await screenshot('training-jobs-view');
}

export async function showsTheSignInPromptAgainAfterSigningOut(context: UiTestContext): Promise<void> {
  const { page, emulator, screenshot } = context;
  const models = inferenceModelsOf(context);
  await ensureSignedIn(page, emulator.apiKey, models);
  await runCommand(page, 'RL Studio: Sign Out');
  await waitForText(() => viewWelcomeText(page, 'Training Jobs'), signedOutPrompt);
  await waitForViewRows(page, 'Models', (rows) => !rows.some((row) => models.some((id) => row.includes(id))));
  await screenshot('signed-out-again');
}
