/**
 * Checks `npm start` the way a person meets it, and keeps the picture: starts the demo in the browser
 * flavour (or uses one already running, `--url <printed address>`), opens the printed address in
 * headless chromium and, without typing anything, finds RL Studio signed in with the emulator's
 * catalogue, its two training models (the first expanded to its checkpoints) and its three training
 * jobs (running, failed, succeeded). Saves the screenshot to media/screenshots/demo-ready.png (or
 * `--out <file>`), then chats with a checkpoint (the models carry their names for that). Prints
 * `demo-screenshot: N passed, N failed` and exits non-zero on a failure.
 *
 *   node esbuild.mjs && node out/test/vscode/demoScreenshot.js [--url <address>] [--out <file>]
 */
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { Page } from 'playwright-core';
import { errorMessage } from '../../src/platform/client/errorMessage';
import { launchBrowser } from './browser';
import { repoRoot } from './paths';
import { summaryLine } from './testResult';
import { notificationMessages, openViewContainer, viewPane, viewWelcomeText, waitForText, waitForViewRows, waitForWorkbench } from '../ui/workbench';

const stage = 'demo-screenshot';
const results = { passed: 0, failed: 0 };

function option(flag: string): string | undefined {
  const index = process.argv.indexOf(flag);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

async function check(what: string, run: () => Promise<string | void>): Promise<void> {
  try {
    const detail = await run();
    results.passed++;
    console.log(`${stage}: ok   ${what}${detail ? ` (${detail})` : ''}`);
  } catch (error) {
    results.failed++;
    console.log(`${stage}: FAIL ${what}\n  ${errorMessage(error).replace(/\n/g, '\n  ')}`);
  }
}

/** Starts the demo (browser flavour) in a process group of its own; resolves with the printed address. */
async function startDemo(): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [join(repoRoot, 'out', 'test', 'vscode', 'demo.js')], {
    env: { ...process.env, RL_STUDIO_DEMO: 'web' },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    try {
      process.kill(-child.pid!, 'SIGINT'); // as Ctrl-C does: the demo stops what it started
    } catch {
      return; // already gone
    }
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 30_000))]);
  };
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the demo printed no address within 10 minutes:\n${output}`)), 600_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /VS Code:\s+open (\S+) in a browser/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    void exited.then(() => reject(new Error(`the demo ended before printing its address:\n${output}`)));
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  process.stdout.write(output.replace(/^(?=.)/gm, '  | '));
  return { url, stop };
}

async function collapseView(page: Page, name: string): Promise<void> {
  const header = viewPane(page, name).locator('.pane-header').first();
  if ((await header.count()) > 0 && (await header.getAttribute('aria-expanded')) === 'true') await header.locator('.title').first().click();
}

/** Drags from one point to another with the mouse, in small steps as a hand would (sashes need moves). */
async function drag(page: Page, from: { x: number; y: number }, to: { x: number; y: number }): Promise<void> {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(to.x, to.y, { steps: 10 });
  await page.mouse.up();
}

/**
 * Gives the picture room, as a person would by dragging: a wider side bar, and the Models view
 * taller, down to what the three jobs need.
 */
async function makeRoom(page: Page): Promise<void> {
  const sidebar = await page.locator('.part.sidebar').boundingBox();
  if (sidebar) await drag(page, { x: sidebar.x + sidebar.width + 1, y: sidebar.y + sidebar.height / 2 }, { x: sidebar.x + 560, y: sidebar.y + sidebar.height / 2 });
  const jobsHeader = await viewPane(page, 'Training Jobs').locator('.pane-header').first().boundingBox();
  const webhooksHeader = await viewPane(page, 'Webhooks').locator('.pane-header').first().boundingBox();
  if (jobsHeader && webhooksHeader) {
    // The jobs view needs its header and about five rows; the rest goes to the Models view.
    const target = webhooksHeader.y - 6 * jobsHeader.height;
    if (target > jobsHeader.y) await drag(page, { x: jobsHeader.x + 40, y: jobsHeader.y }, { x: jobsHeader.x + 40, y: target });
  }
}

/**
 * The README opening beside the views, or a layout drag while the workbench still settles, can
 * leave the side bar hidden: each check that reads a view shows it again first.
 */
async function showSidebar(page: Page): Promise<void> {
  await openViewContainer(page, 'RL Studio');
}

async function lookAtTheDemo(page: Page, screenshotPath: string): Promise<void> {
  await page.goto(option('--url') ?? '');
  await waitForWorkbench(page);
  await openViewContainer(page, 'RL Studio');
  // The demo is about the platform's models and jobs: the views below them give their room.
  await collapseView(page, 'Webhooks');
  await collapseView(page, 'Local Runs');

  await check('signed in, with no key typed: the Models view lists the catalogue and the two training models', async () => {
    const rows = await waitForViewRows(
      page,
      'Models',
      (shown) => ['Inference Models', 'Training Models', 'agent-001', 'agent-002'].every((label) => shown.some((row) => row.startsWith(label))),
      60_000,
    );
    const welcome = await viewWelcomeText(page, 'Models');
    if (welcome) throw new Error(`the Models view shows a welcome text: ${welcome}`);
    return `${rows.length} rows`;
  });

  await makeRoom(page);
  await check('agent-001 expands to its checkpoints, newest first', async () => {
    await showSidebar(page);
    await viewPane(page, 'Models').locator('.monaco-list-row').filter({ hasText: 'agent-001' }).first().click();
    const rows = await waitForViewRows(page, 'Models', (shown) => shown.filter((row) => /^step \d+/.test(row)).length >= 5);
    const steps = rows.filter((row) => /^step \d+/.test(row)).map((row) => Number(/^step (\d+)/.exec(row)![1]));
    if (steps.some((step, index) => index > 0 && step > steps[index - 1]!)) throw new Error(`not newest first: ${steps.join(', ')}`);
    return `steps ${steps[0]} down to ${steps.at(-1)} shown`;
  });

  await check('the Training Jobs view lists a running, a failed and a succeeded job', async () => {
    await showSidebar(page);
    const rows = await waitForViewRows(
      page,
      'Training Jobs',
      (shown) =>
        shown.some((row) => row.startsWith('long run → agent-001') && /running/.test(row)) &&
        shown.some((row) => row.startsWith('out-of-memory run → agent-002') && /failed · CUDA out of memory/.test(row)) &&
        shown.some((row) => row.startsWith('finished run → agent-001') && /succeeded/.test(row)),
      60_000,
    );
    return rows.filter((row) => row.includes('→')).join(' | ');
  });

  await check('the workspace README opens beside it, saying what to try', async () => {
    // The preview is a webview (nested frames); a resize redraws it, so wait for its heading.
    const heading = page.frameLocator('iframe.webview').first().frameLocator('iframe').first().locator('h1');
    await heading.waitFor({ state: 'visible', timeout: 30_000 });
    return (await heading.innerText()).trim();
  });

  mkdirSync(dirname(screenshotPath), { recursive: true });
  await page.screenshot({ path: screenshotPath });
  console.log(`${stage}: screenshot ${relative(repoRoot, screenshotPath)}`);

  await check('Chat with Model on a checkpoint opens the chat on its checkpoint id, which answers', async () => {
    await showSidebar(page);
    const shown = viewPane(page, 'Models')
      .locator('.monaco-list-row')
      .filter({ hasText: /^step \d+/ })
      .nth(3);
    const step = /^step (\d+)/.exec((await shown.innerText()).trim())?.[1];
    // The job goes on training: a new checkpoint at the top moves every row down, so the row is held
    // by its step, not by its place (one near the top, which stays in view as rows are added).
    const row = viewPane(page, 'Models')
      .locator('.monaco-list-row')
      .filter({ hasText: new RegExp(`^step ${step}(?!\\d)`) })
      .first();
    await row.hover();
    await row.locator('.action-label[aria-label^="Chat with Model"]').click();
    // The chat is a webview: its document sits in an iframe inside the webview's iframe.
    const chat = page.frameLocator('iframe.webview').last().frameLocator('iframe').first();
    const model = chat.locator('.model-select').first();
    const wanted = `wandb-artifact:///emulator-entity/demo-project/agent-001:step${step}`;
    await waitForText(async () => (await model.inputValue().catch(() => '')) || '', new RegExp(`^${wanted.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`), 30_000);
    const input = chat.locator('.composer-input');
    // The panel may still be restoring its saved state (and the composer's draft) when the model
    // shows: a message counts as sent once it stands in the transcript, so send until it does.
    const sent = chat.locator('article.message.user .user-text').filter({ hasText: /^\/echo hello from the demo$/ });
    for (let attempt = 1; ; attempt++) {
      await input.fill('/echo hello from the demo');
      await input.press('Enter');
      try {
        await sent.first().waitFor({ timeout: 5_000 });
        break;
      } catch (error) {
        if (attempt === 3) throw error;
      }
    }
    const answer = chat.locator('article.answer:not([data-status="streaming"]) .message-body').last();
    await waitForText(async () => (await answer.innerText().catch(() => '')).trim(), /^hello from the demo$/, 30_000);
    return wanted;
  });

  await check("a notification pops up as a toast, as in a person's VS Code, not only in the Notifications list", async () => {
    // Use in Chat and Model Picker, from a checkpoint's context menu, says what it did in a notification.
    await showSidebar(page);
    const row = viewPane(page, 'Models')
      .locator('.monaco-list-row')
      .filter({ hasText: /^step \d+/ })
      .first();
    const item = page
      .locator('.monaco-menu .action-label')
      .filter({ hasText: /^Use in Chat and Model Picker$/ })
      .first();
    // The tree redraws as the running job adds checkpoints, and a click on the menu can land while
    // it does: the menu then stays open and nothing runs. It has run once the menu is gone.
    for (let attempt = 1; ; attempt++) {
      await row.click({ button: 'right' });
      await item.waitFor({ state: 'visible', timeout: 10_000 });
      await item.click();
      try {
        await item.waitFor({ state: 'hidden', timeout: 5_000 });
        break;
      } catch (error) {
        if (attempt === 3) throw error;
        await page.keyboard.press('Escape');
      }
    }
    const toast = page.locator('.notifications-toasts .notification-toast .notification-list-item-message').filter({ hasText: /is pinned in the chat/ });
    try {
      await toast.first().waitFor({ state: 'visible', timeout: 30_000 });
    } catch (error) {
      // What the page shows instead, to tell a hidden toast from a notification that never came.
      const shown = page.locator('.notifications-toasts');
      const toasts = (await shown.allInnerTexts().catch(() => [])).join(' | ').replace(/\s+/g, ' ');
      const failure = join(repoRoot, 'test-results', 'demo', 'toast-check.png');
      mkdirSync(dirname(failure), { recursive: true });
      await page.screenshot({ path: failure }).catch(() => undefined);
      const listed = await notificationMessages(page).catch(() => [] as string[]);
      throw new Error(`${errorMessage(error)}\n  toasts shown: ${toasts || 'none'}\n  Notifications list: ${listed.join(' | ') || 'empty'}\n  screenshot: ${relative(repoRoot, failure)}`);
    }
    return (await toast.first().innerText()).trim();
  });
}

async function main(): Promise<void> {
  const screenshotPath = option('--out') ?? join(repoRoot, 'media', 'screenshots', 'demo-ready.png');
  const demo = option('--url') ? undefined : await startDemo();
  if (demo) process.argv.push('--url', demo.url);
  const browser = await launchBrowser();
  try {
    const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    page.setDefaultTimeout(30_000);
    await lookAtTheDemo(page, screenshotPath);
  } catch (error) {
    results.failed++;
    console.log(`${stage}: FAIL ${errorMessage(error)}`);
  } finally {
    await browser.close();
    await demo?.stop();
  }
  console.log(summaryLine(stage, results));
  process.exitCode = results.failed === 0 && results.passed > 0 ? 0 : 1;
}

void main();
