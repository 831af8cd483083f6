/** A first look at RL Studio as a user meets it: sign in from the palette, then browse models and jobs. */
import * as assert from 'node:assert/strict';
import type { UiTestContext } from './context';
import { inputBox, openViewContainer, runCommand, submitInputBox, viewRows, viewWelcomeText, waitForText, waitForViewRows } from './workbench';

/** The start of the welcome text both views show while signed out (package.json viewsWelcome). */
const signedOutPrompt = /Sign in with your platform API key/;

export async function opensTheRlStudioContainerSignedOut({ page, screenshot }: UiTestContext): Promise<void> {
  await openViewContainer(page, 'RL Studio');
  const welcome = await waitForText(() => viewWelcomeText(page, 'Training Jobs'), signedOutPrompt);
  assert.match(welcome, /Sign In/);
  await screenshot('signed-out');
}

export async function promptsToSignInFromTheModelsView({ page }: UiTestContext): Promise<void> {
  const welcome = await waitForText(() => viewWelcomeText(page, 'Models'), signedOutPrompt, 5_000);
  assert.match(welcome, /Sign In/);
}

export async function signsInWithTheKeyTypedIntoThePasswordBox({ page, emulator, screenshot }: UiTestContext): Promise<void> {
  await runCommand(page, 'RL Studio: Sign In (Set API Key)');
  const input = await inputBox(page, 'RL Studio: Sign In');
  assert.equal(await input.getAttribute('type'), 'password', 'the key is typed into a password box');
  await input.pressSequentially(emulator.apiKey);
  await screenshot('api-key-input');
  await submitInputBox(input);
  await waitForText(() => viewWelcomeText(page, 'Training Jobs'), signedOutPrompt, 30_000, false);
}

export async function showsTheInferenceModelsInTheModelsView({ page, emulator, screenshot }: UiTestContext): Promise<void> {
  const models = emulator.seeded?.inferenceModels ?? [];
  assert.ok(models.length > 0, 'the emulator seeds inference models');
  const rows = await waitForViewRows(page, 'Models', (shown) => models.every((id) => shown.some((row) => row.includes(id))));
  console.log(`      Models: ${JSON.stringify(rows)}`);
  await screenshot('models-view');
}

export async function showsTheTrainingJobsView({ page, screenshot }: UiTestContext): Promise<void> {
  const rows = await viewRows(page, 'Training Jobs');
  console.log(`      Training Jobs: ${JSON.stringify(rows)}`);
  assert.doesNotMatch(await viewWelcomeText(page, 'Training Jobs'), signedOutPrompt, 'no sign-in prompt once signed in');
  await screenshot('training-jobs-view');
}

export async function showsTheSignInPromptAgainAfterSigningOut({ page, emulator, screenshot }: UiTestContext): Promise<void> {
  await runCommand(page, 'RL Studio: Sign Out');
  await waitForText(() => viewWelcomeText(page, 'Training Jobs'), signedOutPrompt);
  const models = emulator.seeded?.inferenceModels ?? [];
  await waitForViewRows(page, 'Models', (rows) => !rows.some((row) => models.some((id) => row.includes(id))));
  await screenshot('signed-out-again');
}
