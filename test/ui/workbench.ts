/**
 * Acting on the VS Code workbench as a person would, through the DOM the workbench renders:
 * activity bar, view panes, the command palette and quick input, notifications.
 */
import type { Locator, Page } from 'playwright-core';

export async function waitForWorkbench(page: Page): Promise<void> {
  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 90_000 });
}

/** Opens a view container of the activity bar by the start of its label (its title, then maybe a keybinding). */
export async function openViewContainer(page: Page, title: string): Promise<void> {
  const item = page.locator(`.activitybar .action-item [aria-label^="${title}"]`).first();
  await item.waitFor({ state: 'visible', timeout: 60_000 });
  const expanded = await item.getAttribute('aria-expanded');
  const selected = await item.locator('xpath=..').getAttribute('class');
  if (expanded !== 'true' && !selected?.includes('checked')) await item.click();
  await page.locator('.sidebar .composite.title').filter({ hasText: title }).first().waitFor({ state: 'visible' });
}

/** The pane of a view in the side bar, by its name as shown in its header. */
export function viewPane(page: Page, name: string): Locator {
  return page
    .locator('.sidebar .pane')
    .filter({ has: page.locator('.pane-header .title', { hasText: new RegExp(`^${escapeRegExp(name)}$`, 'i') }) })
    .first();
}

/** Expands a view if it is collapsed. */
export async function expandView(page: Page, name: string): Promise<Locator> {
  const pane = viewPane(page, name);
  const header = pane.locator('.pane-header').first();
  await header.waitFor({ state: 'visible' });
  if ((await header.getAttribute('aria-expanded')) === 'false') await header.click();
  return pane;
}

/** The text of the rows a view shows, top to bottom. */
export async function viewRows(page: Page, name: string): Promise<string[]> {
  const pane = await expandView(page, name);
  // A row's label and description are separate elements with no text between them.
  const rows = await pane.locator('.pane-body .monaco-list-row').evaluateAll((elements) =>
    elements.map((row) => {
      const parts = ['.label-name', '.label-description'].map((selector) => row.querySelector(selector)?.textContent?.trim() ?? '');
      return parts.filter(Boolean).join(' ') || (row.textContent ?? '');
    }),
  );
  return rows.map((row) => row.replace(/\s+/g, ' ').trim());
}

/** Waits until a view shows rows satisfying a check; returns them. */
export async function waitForViewRows(page: Page, name: string, accept: (rows: string[]) => boolean, timeoutMs = 30_000): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  let rows: string[] = [];
  while (Date.now() < deadline) {
    rows = await viewRows(page, name);
    if (accept(rows)) return rows;
    await page.waitForTimeout(250);
  }
  throw new Error(`view "${name}" did not show the expected rows within ${timeoutMs / 1000}s; it shows ${JSON.stringify(rows)}`);
}

/** The welcome text a view shows instead of content (signed out, not configured), or '' when none. */
export async function viewWelcomeText(page: Page, name: string): Promise<string> {
  const pane = await expandView(page, name);
  const welcome = pane.locator('.pane-body .welcome-view-content');
  if ((await welcome.count()) === 0) return '';
  return (await welcome.first().innerText()).replace(/\s+/g, ' ').trim();
}

/** Runs a command from the command palette (F1) by its full title, "Category: Title". */
export async function runCommand(page: Page, title: string): Promise<void> {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: 10_000 });
  await input.fill(`>${title}`);
  const row = page.locator('.quick-input-list .monaco-list-row').filter({ hasText: title }).first();
  await row.waitFor({ state: 'visible', timeout: 10_000 });
  await row.click();
}

/**
 * The input box a command opened, once it shows, found by a part of its accessible name (its prompt
 * or title). The palette's own input is the same element until the command replaces it, so waiting
 * for the name is what tells them apart.
 */
export async function inputBox(page: Page, namePart: string): Promise<Locator> {
  const input = page.locator(`.quick-input-widget input[aria-label*="${namePart.replace(/"/g, '\\"')}"]`).first();
  await input.waitFor({ state: 'visible', timeout: 10_000 });
  return input;
}

/** Messages of the notification center (toasts are hidden when the workbench runs for automation). */
export async function notificationMessages(page: Page): Promise<string[]> {
  await runCommand(page, 'Notifications: Show Notifications');
  const items = page.locator('.notifications-center .notification-list-item-message');
  return (await items.allInnerTexts()).map((text) => text.trim());
}

/** Polls `read` until its value satisfies `accept`; returns that value, or fails naming `what` and the last value. */
export async function until<T>(what: string, read: () => Promise<T>, accept: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!accept(value)) {
    if (Date.now() > deadline) throw new Error(`${what} within ${timeoutMs / 1000} s; saw ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    value = await read();
  }
  return value;
}

/** Polls a text read from the page until it matches `pattern` (or, with `matching` false, until it does not). */
export async function waitForText(read: () => Promise<string>, pattern: RegExp, timeoutMs = 30_000, matching = true): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let text = '';
  while (Date.now() < deadline) {
    text = await read();
    if (pattern.test(text) === matching) return text;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const expectation = matching ? 'matching' : 'no longer matching';
  throw new Error(`expected text ${expectation} ${pattern} within ${timeoutMs / 1000}s, saw ${JSON.stringify(text)}`);
}

/**
 * Types into the input box a command opened, once its title shows: the command palette's own input
 * is the same element, and typing before the title appears would type into the palette.
 */
export async function typeInto(page: Page, title: string, text: string): Promise<void> {
  await page.locator('.quick-input-widget .quick-input-title').filter({ hasText: title }).first().waitFor({ state: 'visible', timeout: 10_000 });
  const input = page.locator('.quick-input-widget input').first();
  await input.fill(text);
  await input.press('Enter');
  await page.locator('.quick-input-widget .quick-input-title').filter({ hasText: title }).first().waitFor({ state: 'hidden', timeout: 10_000 });
}

/** Adds a training model through the palette, by its id and then its entity/project/name. */
export async function addModelByIdAndName(page: Page, id: string, fullName: string): Promise<void> {
  await runCommand(page, 'RL Studio: Add Model by ID…');
  await typeInto(page, 'Add Model by ID', id);
  await typeInto(page, 'Model name', fullName);
}

/** Clicks the row of the open quick pick that shows `text`. */
export async function pickInQuickInput(page: Page, text: string): Promise<void> {
  const row = page.locator('.quick-input-list .monaco-list-row').filter({ hasText: text }).first();
  await row.waitFor({ state: 'visible', timeout: 10_000 });
  await row.click();
}

/** Collapses a view of the container (when it is there and open), to give the others room. */
export async function collapseView(page: Page, name: string): Promise<void> {
  const header = viewPane(page, name).locator('.pane-header').first();
  if ((await header.count()) === 0) return;
  // Click the title, not the header's middle, where the view's actions are.
  if ((await header.getAttribute('aria-expanded')) === 'true') await header.locator('.title').first().click();
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Presses Enter in an input box and waits for the box to close. A key press that lands while the
 * box is still validating what was typed can be dropped, so Enter is pressed again once if the box
 * is still open after a moment.
 */
export async function submitInputBox(input: Locator): Promise<void> {
  await input.press('Enter');
  try {
    await input.waitFor({ state: 'hidden', timeout: 3_000 });
  } catch {
    await input.press('Enter');
    await input.waitFor({ state: 'hidden', timeout: 10_000 });
  }
}

/**
 * Types `text` into an input box as a person does, key by key, and makes sure the box holds all of
 * it: keys pressed while a box that just opened takes the focus can be lost, so it types again then.
 */
export async function typeAll(input: Locator, text: string): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt++) {
    await input.fill('');
    await input.pressSequentially(text);
    if ((await input.inputValue()) === text) return;
  }
  throw new Error(`the input box did not take the ${text.length} characters typed`);
}

/**
 * Signs in through the palette and the password box, then waits for proof: the Models view lists
 * the emulator's inference models (a welcome view not yet drawn would look signed in too).
 */
export async function signInThroughThePalette(page: Page, apiKey: string, inferenceModels: string[]): Promise<void> {
  await runCommand(page, 'RL Studio: Sign In (Set API Key)');
  const input = await inputBox(page, 'RL Studio: Sign In');
  await typeAll(input, apiKey);
  await submitInputBox(input);
  await waitForViewRows(page, 'Models', (rows) => inferenceModels.some((id) => rows.some((row) => row.includes(id))));
}

/** The start of the welcome text the views show while signed out (package.json viewsWelcome). */
export const signedOutPrompt = /Sign in with your platform API key/;

/**
 * Whether RL Studio is signed in, once the views say so either way: the Training Jobs view asks to
 * sign in, or the Models view lists one of the inference models.
 */
export async function signInState(page: Page, inferenceModels: string[]): Promise<'signed in' | 'signed out'> {
  await openViewContainer(page, 'RL Studio');
  const state = await until(
    'the views to show whether RL Studio is signed in',
    async () => {
      if (signedOutPrompt.test(await viewWelcomeText(page, 'Training Jobs'))) return 'signed out';
      const rows = await viewRows(page, 'Models');
      return inferenceModels.some((id) => rows.some((row) => row.includes(id))) ? 'signed in' : 'unknown';
    },
    (value) => value !== 'unknown',
  );
  return state as 'signed in' | 'signed out';
}

/** Signs in through the palette unless signed in already: for steps that need it, whatever ran before them. */
export async function ensureSignedIn(page: Page, apiKey: string, inferenceModels: string[]): Promise<void> {
  if ((await signInState(page, inferenceModels)) === 'signed out') await signInThroughThePalette(page, apiKey, inferenceModels);
}

/** Signs out through the palette unless signed out already, and waits for the views to ask to sign in. */
export async function ensureSignedOut(page: Page, inferenceModels: string[]): Promise<void> {
  if ((await signInState(page, inferenceModels)) === 'signed out') return;
  await runCommand(page, 'RL Studio: Sign Out');
  await waitForText(() => viewWelcomeText(page, 'Training Jobs'), signedOutPrompt);
}
