/**
 * The Get Started walkthrough as a newcomer meets it: opened from the palette, its steps in order,
 * the sign-in step checked off once signed in, each step's page rendered beside the list.
 */
import * as assert from 'node:assert/strict';
import type { UiTestContext } from './context';
import { ensureSignedOut, inputBox, pickInQuickInput, runCommand, submitInputBox, typeAll, until } from './workbench';

const stepTitles = [
  'Point RL Studio at the platform',
  'Sign in with your API key',
  'Follow a training job',
  'Chat with a checkpoint',
  'Read what the model did',
  'Evaluate checkpoints',
  'Author a webhook payload',
];

export async function opensTheGetStartedWalkthroughWithTheSignInStepCheckedOff(context: UiTestContext): Promise<void> {
  const { page, emulator, screenshot } = context;
  const models = emulator.seeded?.inferenceModels ?? [];
  await ensureSignedOut(page, models);
  await runCommand(page, 'Welcome: Open Walkthrough...');
  await pickInQuickInput(page, 'Get Started with RL Studio');
  const steps = page.locator('.gettingStartedSlideDetails .getting-started-step');
  const titles = await until(
    'the walkthrough steps',
    async () => (await steps.locator('.step-title').allInnerTexts()).map((text) => text.trim()),
    (shown) => stepTitles.every((title) => shown.includes(title)),
  );
  assert.deepEqual(titles, stepTitles);
  const signIn = steps.filter({ hasText: 'Sign in with your API key' });
  // The step's check box: a codicon whose aria-checked says whether the step is done.
  const checked = async (): Promise<string> => (await signIn.locator('.codicon[data-done-step-id]').getAttribute('aria-checked')) ?? '';
  assert.equal(await checked(), 'false', 'not checked off while signed out');
  // As a person would: open the step, press its button, type the key.
  await signIn.click();
  await signIn.getByRole('button', { name: 'Sign In' }).click();
  const input = await inputBox(page, 'RL Studio: Sign In');
  await typeAll(input, emulator.apiKey);
  await submitInputBox(input);
  await until('the sign-in step checked off', checked, (value) => value === 'true');
  await steps.filter({ hasText: 'Follow a training job' }).click();
  await until(
    'the step page',
    async () => (await page.locator('.gettingStartedSlideDetails').innerText()).replace(/\s+/g, ' '),
    (text) => text.includes('Add Training Job by ID'),
  );
  await screenshot('walkthrough');
}
