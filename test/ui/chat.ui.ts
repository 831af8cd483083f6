/**
 * The chat panel as a user sees it in the real workbench: open it from the palette, ask a question
 * and watch the answer stream from the emulator, press Stop in the middle of a long answer and see
 * that nothing more arrives, export the conversation as Markdown, render hostile answers inertly,
 * and find the panel restored after a reload. Screenshots of each step are kept. A step that needs
 * the panel, or an answered conversation, opens or asks for one when it is not there.
 */
import * as assert from 'node:assert/strict';
import type { Frame, FrameLocator, Page } from 'playwright-core';
import type { UiTestContext } from './context';
import { ensureSignedIn, openViewContainer, runCommand, signInThroughThePalette, waitForText } from './workbench';

/** The chat webview's document: VS Code nests the content in an iframe inside the webview's iframe. */
function chatFrame(page: Page): FrameLocator {
  return page.frameLocator('iframe.webview').last().frameLocator('iframe').first();
}

/** The same document as a Frame, to evaluate script in it. */
async function chatDocument(page: Page): Promise<Frame> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    for (const frame of page.frames()) {
      if (
        await frame
          .locator('.composer-input')
          .count()
          .catch(() => 0)
      )
        return frame;
    }
    await page.waitForTimeout(200);
  }
  throw new Error('the chat webview did not appear');
}

async function ask(page: Page, text: string): Promise<void> {
  const input = chatFrame(page).locator('.composer-input');
  await input.fill(text);
  await input.press('Enter');
}

async function answerCount(page: Page, selector = 'article.answer:not([data-status="streaming"])'): Promise<number> {
  return chatFrame(page).locator(selector).count();
}

async function waitForAnswers(page: Page, count: number, timeoutMs = 60_000): Promise<void> {
  await waitForText(async () => String(await answerCount(page)), new RegExp(`^(${count}|[1-9]\\d{${String(count).length},})$`), timeoutMs);
}

const firstQuestion = 'How should I choose a learning rate?';

/** The chat panel shown, signed in: opened from the palette unless its tab is there. */
async function chatShown({ page, emulator }: UiTestContext): Promise<FrameLocator> {
  await ensureSignedIn(page, emulator.apiKey, emulator.seeded?.inferenceModels ?? []);
  const tab = page.locator('.tab').filter({ hasText: 'RL Studio Chat' }).first();
  if ((await tab.count()) === 0) await runCommand(page, 'RL Studio: Open Chat');
  else await tab.click();
  const frame = chatFrame(page);
  await frame.locator('.composer-input').waitFor({ state: 'visible', timeout: 30_000 });
  return frame;
}

/**
 * The chat panel on a conversation that `question` began and that has an answer: a new one is
 * started and the question asked unless the panel shows such a conversation already.
 */
async function conversationBegunWith(context: UiTestContext, question: string): Promise<FrameLocator> {
  const { page } = context;
  const frame = await chatShown(context);
  const opening = frame.locator('article.message.user').first();
  const begun = (await opening.count()) > 0 && (await opening.innerText()).includes(question);
  if (!begun || (await frame.locator('article.answer').count()) === 0) {
    if ((await frame.locator('article.message').count()) > 0) {
      await frame.locator('button.new-conversation').click();
      await waitForText(async () => String(await frame.locator('article.message').count()), /^0$/, 10_000);
    }
    await ask(page, question);
    await waitForAnswers(page, 1);
  }
  return frame;
}

export async function signsInForChat({ page, emulator }: UiTestContext): Promise<void> {
  await openViewContainer(page, 'RL Studio');
  await signInThroughThePalette(page, emulator.apiKey, emulator.seeded?.inferenceModels ?? []);
}

export async function opensTheChatFromThePalette({ page, emulator, screenshot }: UiTestContext): Promise<void> {
  await ensureSignedIn(page, emulator.apiKey, emulator.seeded?.inferenceModels ?? []);
  await runCommand(page, 'RL Studio: Open Chat');
  const frame = chatFrame(page);
  await frame.locator('.composer-input').waitFor({ state: 'visible', timeout: 30_000 });
  const model = frame.locator('.model-select').first();
  await waitForText(async () => (await model.inputValue()) || '', /.+/, 30_000);
  const offered = await model.locator('option').evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
  for (const id of emulator.seeded!.inferenceModels) assert.ok(offered.includes(id), `the picker offers ${id}`);
  await screenshot('chat-opened');
}

export async function typesQuestionAndSeesTheStreamedAnswer(context: UiTestContext): Promise<void> {
  const { page, screenshot } = context;
  await chatShown(context);
  const before = await answerCount(page);
  await ask(page, firstQuestion);
  await waitForAnswers(page, before + 1);
  const answer = chatFrame(page).locator('article.answer').last();
  await answer.scrollIntoViewIfNeeded();
  assert.match(await answer.locator('.message-body').innerText(), /learning/i);
  assert.equal((await answer.locator('.code-block button[data-action="copy"]').count()) > 0, true, 'code blocks have Copy');
  assert.match(await answer.locator('.message-stats').innerText(), /\d+ prompt \+ \d+ completion tokens · first token/);
  await screenshot('answer-streamed');
}

export async function stopsLongAnswerMidStreamAndNoMoreTextArrives(context: UiTestContext): Promise<void> {
  const { page, emulator, screenshot } = context;
  const frame = await chatShown(context);
  const before = await frame.locator('article.answer').count();
  const closedBefore = emulator.streamStats().closedByClient;
  // Slow the stream down (2,000 tokens at 20 ms a chunk take well over a minute), so Stop surely
  // lands mid-stream, and the emulator can tell whether the client really closed the request.
  emulator.setStreamChunkDelay(20);
  try {
    await ask(page, '/long 2000');
    const body = frame.locator('article.answer').nth(before).locator('.message-body');
    const stop = frame.locator('button.stop');
    await stop.waitFor({ state: 'visible', timeout: 30_000 });
    await waitForText(async () => String((await body.textContent())?.length ?? 0), /^\d{3,}$/, 30_000);
    await stop.click();
    await frame.locator('article.answer[data-status="stopped"]').last().waitFor({ timeout: 15_000 });
    const atStop = await body.textContent();
    // The server saw the request closed: it sends nothing more.
    await waitForText(async () => String(emulator.streamStats().closedByClient - closedBefore), /^[1-9]/, 10_000);
    assert.equal(await frame.locator('button.send').isVisible(), true, 'Send is back');
    // What the extension had already sent reaches the webview before anything sent later: once a
    // later answer shows, any text left over for the stopped one would have shown too.
    emulator.setStreamChunkDelay(0);
    const answers = await answerCount(page);
    await ask(page, '/echo after stop');
    await waitForAnswers(page, answers + 1);
    const later = await body.textContent();
    assert.equal(later, atStop, 'no text appeared after Stop');
    assert.ok((later ?? '').split(/\s+/).length < 2000, 'the answer was cut short');
    await screenshot('answer-stopped');
  } finally {
    emulator.setStreamChunkDelay(0);
  }
}

export async function exportsTheConversationAsMarkdown(context: UiTestContext): Promise<void> {
  const { page, screenshot } = context;
  const frame = await conversationBegunWith(context, firstQuestion);
  await frame.locator('button.export-markdown').click();
  const editor = page.locator('.editor-instance .monaco-editor .view-lines').last();
  const text = await waitForText(async () => (await editor.innerText().catch(() => '')).replace(/\u00a0/g, ' '), /## User/, 30_000);
  assert.match(text, /^# How should I choose a learning rate\?/m);
  assert.match(text, /- Model: `/);
  assert.match(text, /## Assistant \(`/);
  await screenshot('exported-markdown');
}

export async function rendersHostileAnswersWithoutRunningThem(context: UiTestContext): Promise<void> {
  const { page, screenshot } = context;
  await chatShown(context);
  const webview = await chatDocument(page);
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  const hostile = [
    `<script>window.top.__pwned='script';alert('script')</script>`,
    `<img src=x onerror="window.top.__pwned='img'">`,
    `[click](javascript:window.top.__pwned='link') <svg onload="window.top.__pwned='svg'"></svg>`,
    `[x](&#106;avascript:alert(1)) ![pixel](https://tracker.invalid/p.gif)`,
  ];
  const before = await answerCount(page);
  for (const [index, text] of hostile.entries()) {
    await ask(page, `/echo ${text}`);
    await waitForAnswers(page, before + index + 1);
  }
  const seen = await webview.evaluate(() => {
    const transcript = document.querySelector('.transcript')!;
    return {
      forbidden: transcript.querySelectorAll('script, img, svg, iframe, object, embed, style').length,
      handlers: [...transcript.querySelectorAll('*')].filter((element) => [...element.attributes].some((attribute) => /^on/i.test(attribute.name))).length,
      badLinks: [...transcript.querySelectorAll('a[href]')].map((link) => link.getAttribute('href')!).filter((href) => !/^https?:\/\//.test(href)),
      // textContent: turns scrolled out of view are not laid out, and innerText leaves them out.
      shownScript: (transcript.textContent ?? '').includes("<script>window.top.__pwned='script'"),
    };
  });
  const pwned = await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned);
  assert.deepEqual(seen, { forbidden: 0, handlers: 0, badLinks: [], shownScript: true });
  assert.equal(pwned, undefined);
  assert.deepEqual(dialogs, []);
  await screenshot('hostile-answers-inert');
}

export async function restoresThePanelAfterReloadingTheWindow(context: UiTestContext): Promise<void> {
  const { page, screenshot } = context;
  const frame = await conversationBegunWith(context, firstQuestion);
  const messages = await frame.locator('article.message').count();
  assert.ok(messages > 0);
  await page.reload();
  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 90_000 });
  // The panel comes back as a tab; VS Code restores its content when the tab is shown.
  await page.locator('.tab').filter({ hasText: 'RL Studio Chat' }).first().click({ timeout: 60_000 });
  const restored = chatFrame(page);
  await restored.locator('article.message').first().waitFor({ state: 'visible', timeout: 60_000 });
  await waitForText(async () => String(await restored.locator('article.message').count()), new RegExp(`^${messages}$`), 30_000);
  await screenshot('restored-after-reload');
}

export async function closesThePanelAndTheExportLeavingNothingToRestore(context: UiTestContext): Promise<void> {
  const { page, screenshot } = context;
  await chatShown(context);
  const exported = page.locator('.tab').filter({ hasText: /\.md/ }).first();
  if (await exported.count()) {
    await exported.click();
    await runCommand(page, 'View: Revert and Close Editor');
  }
  const chatTab = page.locator('.tab').filter({ hasText: 'RL Studio Chat' }).first();
  // A middle click closes a tab, wherever the keyboard focus is (inside the webview, F1 is not seen).
  await chatTab.click({ button: 'middle' });
  await waitForText(async () => String(await page.locator('.tabs-container .tab').count()), /^0$/, 15_000);
  await screenshot('closed');
}
