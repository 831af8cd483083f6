import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import type { AnswerEntry } from '../../../src/chat/model/conversationTypes';
import type { WebviewReport } from '../../../src/chat/protocol';
import { startEmulator, type Emulator } from '../../emulator';
import { openWebviewPage, type WebviewPage } from '../platform/pages/browserHarness';
import { bundlePageScript, chatPageSuite, singleLineAnswer } from './browserHarness';
import { createEmulatorController } from './emulatorChat';
import { until } from './support';

const fixtures = join(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'chat');
const hostileAnswers = JSON.parse(readFileSync(join(fixtures, 'hostile-answers.json'), 'utf8')) as { name: string; text: string }[];

/**
 * Raw markup a model may answer with, aimed at the sanitizer: SVG and MathML (where mutation XSS
 * lives: markup that parses as harmless HTML and re-parses as script inside a foreign element),
 * javascript: in every attribute that takes an address, and things that load from the network.
 * Each sets `window.top.__pwned` or opens a dialog if it ever runs.
 */
const hostileMarkup = [
  `<svg><script>window.top.__pwned='svg-script'</script></svg>`,
  `<svg onload="window.top.__pwned='svg-onload'"><circle r="5"/></svg>`,
  `<math><mtext><table><mglyph><style><img src=x onerror="window.top.__pwned='mxss-mglyph'">`,
  `<math><mtext><table><mglyph><style><!--</style><img title="--&gt;&lt;img src=1 onerror=window.top.__pwned='mxss-comment'&gt;">`,
  `<form><math><mtext></form><form><mglyph><style></math><img src onerror="window.top.__pwned='mxss-form'">`,
  `<math><style><img src=x onerror="window.top.__pwned='math-style'"></style></math>`,
  `<math><mi xlink:href="javascript:window.top.__pwned='math-href'">x</mi><maction actiontype="statusline" xlink:href="javascript:alert('maction')">y</maction></math>`,
  `<svg></p><style><a id="</style><img src=1 onerror=window.top.__pwned='svg-p'>">`,
  `<svg><foreignObject><iframe srcdoc="<script>parent.__pwned='fo-iframe'</script>"></iframe><img src=x onerror="window.top.__pwned='fo-img'"><p>inside</p></foreignObject></svg>`,
  `<svg><a xlink:href="javascript:window.top.__pwned='xlink'"><text x="0" y="20">click</text></a></svg>`,
  `<svg><a href="javascript:window.top.__pwned='svg-href'"><text>svg link</text></a><use href="https://evil.invalid/sprite.svg#x"/></svg>`,
  `<svg><animate onbegin="window.top.__pwned='animate'" attributeName="x" dur="1s"/><set attributeName="onmouseover" to="alert(1)"/></svg>`,
  `<noscript><p title="</noscript><img src=x onerror=window.top.__pwned='noscript'>"></noscript>`,
  `<a href="javascript:window.top.__pwned='a'">a</a> <a href=" jav&#x09;ascript:alert('tab')">b</a> <a href="JAVASCRIPT:alert('upper')">c</a> <a href="data:text/html,<script>alert(1)</script>">d</a> <a href="vscode:extension/x">e</a> <a href="command:workbench.action.quit">f</a> <a href="file:///etc/passwd">g</a>`,
  `<details open ontoggle="window.top.__pwned='toggle'"><summary>s</summary></details><button formaction="javascript:alert(1)">b</button>`,
  `<img src="https://evil.invalid/pixel.gif"><div style="background:url(https://evil.invalid/bg.png)">bg</div><link rel="prefetch" href="https://evil.invalid/prefetch"><meta http-equiv="refresh" content="0;url=https://evil.invalid/"><iframe src="https://evil.invalid/frame"></iframe>`,
  `<template><img src=x onerror="window.top.__pwned='template'"></template><object data="javascript:alert(1)"></object><embed src="https://evil.invalid/e.swf">`,
];

/** The same attacks written as Markdown, as a model would send them. */
const hostileMarkdown = [
  `[click](javascript:window.top.__pwned='md-link') [svg](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+) [cmd](command:workbench.action.quit) [vs](vscode:extension/x) [f](file:///etc/passwd)`,
  `![x](javascript:alert(1)) ![y](https://evil.invalid/tracker.png) <svg><script>window.top.__pwned='md-svg'</script></svg>`,
  `<math><mtext><table><mglyph><style><img src=x onerror="window.top.__pwned='md-mxss'">`,
];

/** What must never be inside the rendered transcript. */
async function inspectTranscript(view: WebviewPage) {
  return view.page.evaluate(() => {
    const transcript = document.querySelector('.transcript')!;
    const forbidden = [...transcript.querySelectorAll('script, iframe, object, embed, img, svg, math, style, form, input, meta, link, base, video, audio, source')].map((element) => element.tagName);
    // Any element not in the HTML namespace (SVG, MathML), whatever its name.
    for (const element of transcript.querySelectorAll('*')) if (element.namespaceURI !== 'http://www.w3.org/1999/xhtml') forbidden.push(`${element.namespaceURI} ${element.tagName}`);
    const badAttributes: string[] = [];
    for (const element of transcript.querySelectorAll('*')) {
      for (const attribute of element.attributes) {
        if (/^on/i.test(attribute.name) || attribute.name === 'style' || attribute.name === 'srcdoc' || attribute.name.includes(':')) badAttributes.push(`${element.tagName}.${attribute.name}`);
      }
    }
    const hrefs = [...transcript.querySelectorAll('a[href]')].map((link) => link.getAttribute('href')!);
    const w = window as unknown as { __pwned?: string; __cspViolations?: string[] };
    return { forbidden, badAttributes, hrefs, pwned: w.__pwned, cspViolations: w.__cspViolations ?? [], text: (transcript as HTMLElement).innerText };
  });
}

/**
 * Asserts the transcript is inert after hostile answers: nothing forbidden or foreign was rendered,
 * no handler or style attribute, only http(s) links, no script ran, no dialog opened, nothing tried
 * to load, and the page stayed where it was. Returns what was seen, for the case's own checks.
 */
async function assertInert(s: { view: WebviewPage }, onPage: string) {
  const seen = await inspectTranscript(s.view);
  assert.deepEqual(seen.forbidden, [], 'forbidden or foreign-namespace elements');
  assert.deepEqual(seen.badAttributes, [], 'event handlers, styles or namespaced attributes');
  for (const href of seen.hrefs) assert.match(href, /^https?:\/\//, href);
  assert.equal(seen.pwned, undefined, 'a script ran');
  assert.deepEqual(s.view.dialogs, [], 'a dialog opened');
  assert.deepEqual(seen.cspViolations, [], 'something tried to load or run');
  assert.deepEqual(s.view.problems, []);
  assert.equal(s.view.page.url(), onPage);
  return seen;
}

/**
 * The text a person reads in an element, scrolled into view first: turns out of view are not laid
 * out (`content-visibility`), and innerText leaves their text out.
 */
async function shownText(locator: Locator): Promise<string> {
  await locator.scrollIntoViewIfNeeded();
  return locator.innerText();
}

describe('chat webview in a real browser', function () {
  this.timeout(120_000);
  const chromium = chatPageSuite();

  /** A page connected to a controller on the emulator, with what one test needs. */
  async function connectPage(emulator: Emulator) {
    let chat!: ReturnType<typeof createEmulatorController>;
    const view = await openWebviewPage(chromium.browser, chromium.url, (post) => {
      chat = createEmulatorController(emulator, post);
      return (message) => chat.controller.receive(message);
    });
    const requests: string[] = [];
    view.page.on('request', (request) => requests.push(request.url()));
    await view.page.waitForSelector('.composer-input');
    await view.page.waitForFunction(() => (document.querySelector('.model-select') as HTMLSelectElement | null)?.value !== '');
    const ask = async (text: string) => {
      await view.page.fill('.composer-input', text);
      await view.page.press('.composer-input', 'Enter');
    };
    const answersDone = (count: number) => view.page.waitForFunction((n) => document.querySelectorAll('article.answer:not([data-status="streaming"])').length >= n, count, { timeout: 60_000 });
    const report = () => chat.controller.report() as Promise<WebviewReport>;
    /**
     * Waits for two more frames and a round trip through the page's channel: whatever drawing the
     * answers set off (a blocked load, an error event) has had its turn before the checks.
     */
    const settled = async () => {
      await view.page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      await report();
    };
    return {
      view,
      chat,
      ask,
      answersDone,
      report,
      settled,
      requests,
      close: async () => {
        await view.page.context().close();
        await chat.close();
      },
    };
  }

  describe('on a fast emulator', () => {
    let emulator: Emulator;
    let s: Awaited<ReturnType<typeof connectPage>>;
    before(async () => {
      emulator = await startEmulator();
      s = await connectPage(emulator);
    });
    after(async () => {
      await s?.close();
      await emulator?.close();
    });

    it('streams a Markdown answer with code blocks that copy and insert through the extension', async () => {
      await s.ask('How do I write a reward function?');
      await s.answersDone(1);
      const answer = s.view.page.locator('article.answer').last();
      assert.match(await shownText(answer.locator('.message-stats')), /^\d+ prompt \+ \d+ completion tokens · first token \d+ ms/);
      await answer.locator('.code-block').first().waitFor();
      const code = await shownText(answer.locator('.code-block code').first());
      await answer.locator('.code-block button[data-action="copy"]').first().click();
      await answer.locator('.code-block button[data-action="insert"]').first().click();
      await until(() => s.chat.ui.copied.length > 0 && s.chat.ui.inserted.length > 0, 5000, 'the copy and the insert');
      assert.deepEqual(s.chat.ui.copied, [code]);
      assert.deepEqual(s.chat.ui.inserted, [code]);
      assert.ok(code.length > 10);
    });

    it('names every button in words: an accessible name and a tooltip that says what it does', async () => {
      const page = s.view.page;
      if ((await page.locator('article.answer .code-block').count()) === 0) {
        await s.ask('How do I write a reward function?');
        await s.answersDone(1);
      }
      // The settings panel open too, so every kind of control is on the page.
      await page.click('button.settings-toggle');
      try {
        const cdp = await page.context().newCDPSession(page);
        const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as { nodes: { role?: { value?: string }; name?: { value?: string }; ignored?: boolean }[] };
        const names = nodes.filter((node) => node.role?.value === 'button' && !node.ignored).map((node) => String(node.name?.value ?? ''));
        assert.ok(names.length >= 10, `buttons found: ${JSON.stringify(names)}`);
        // A name is words, not a glyph such as "↻" read out as "clockwise open circle arrow".
        assert.deepEqual(
          names.filter((name) => !/\p{L}{2}/u.test(name)),
          [],
          'buttons without a name in words',
        );
        assert.ok(names.includes('Refresh models'), `the model list's refresh button: ${JSON.stringify(names)}`);
        // Every button, shown or hidden: a tooltip, and words a sighted user reads on it (a glyph is
        // only ever beside them, hidden from assistive technology).
        const buttons = await page.evaluate(() =>
          [...document.querySelectorAll('button')].map((button) => {
            const visible = button.cloneNode(true) as HTMLElement;
            for (const hidden of visible.querySelectorAll('[aria-hidden="true"]')) hidden.remove();
            return { html: button.outerHTML.slice(0, 160), words: /\p{L}{2}/u.test(visible.textContent ?? ''), title: button.title.trim() };
          }),
        );
        assert.deepEqual(
          buttons.filter((button) => !button.words || button.title.length < 8).map((button) => button.html),
          [],
        );
        const refresh = page.locator('button.refresh-models');
        assert.match(await refresh.innerText(), /Refresh/);
        assert.match((await refresh.getAttribute('title')) ?? '', /models/);
      } finally {
        await page.click('button.settings-toggle');
      }
    });

    it('renders hostile answers as inert text: no script runs, nothing loads, links stay http(s)', async () => {
      const onPage = s.view.page.url();
      for (const [index, hostile] of hostileAnswers.entries()) {
        await s.ask(`/echo ${hostile.text}`);
        await s.answersDone(2 + index);
      }
      await s.settled();
      await assertInert(s, onPage);
      // The report's text: what the user sees of every message, scrolled into view or not.
      const shown = (await s.report()).messages.map((message) => message.text).join('\n');
      assert.ok(shown.includes("<script>window.top.__pwned='script';alert('script')</script>"), 'a script tag is shown as text');
      assert.ok(!s.requests.some((url) => url.includes('tracker.invalid') || url.includes('evil.invalid')), 'a remote resource was requested');
      assert.ok((await s.view.page.locator('.transcript th.align-right').count()) > 0, 'table alignment survives as a class');

      // Clicking a link asks the extension; only http(s) is opened, and the page never navigates.
      const safe = s.view.page.locator('.transcript a[href="https://example.com/safe"]').last();
      await safe.click();
      await s.view.page.locator('.transcript a.blocked-image').first().click();
      await until(() => s.chat.ui.opened.length >= 2, 5000, 'both links to open');
      assert.deepEqual(s.chat.ui.opened, ['https://example.com/safe', 'https://tracker.invalid/pixel.gif']);
      assert.equal(s.view.page.url(), onPage);
    });

    it('shows the whole of a 1 MB single-line answer', async () => {
      // How fast it renders is a figure of `npm run bench` (chat rendering), not an assert here: a
      // timing bound in a functional test fails on a busy machine and proves nothing.
      const line = singleLineAnswer();
      const before = await s.view.page.locator('article.answer').count();
      await s.ask(`/echo ${line}`);
      await s.view.page.waitForFunction((n) => document.querySelectorAll('article.answer:not([data-status="streaming"])').length > n, before, { timeout: 60_000, polling: 100 });
      const answerText = await shownText(s.view.page.locator('article.answer').last().locator('.message-body'));
      assert.equal(answerText.length, line.length, 'the whole line is shown');
      assert.equal((await inspectTranscript(s.view)).pwned, undefined);
    });

    it('renders SVG, MathML and mutation-XSS answers as inert text: no foreign element, no script, no request', async () => {
      const onPage = s.view.page.url();
      await s.view.page.click('.new-conversation');
      await s.view.page.waitForFunction(() => document.querySelectorAll('article.message').length === 0);
      for (const [index, text] of [...hostileMarkup, ...hostileMarkdown].entries()) {
        await s.ask(`/echo ${text}`);
        await s.answersDone(index + 1);
      }
      await s.settled();
      await assertInert(s, onPage);
      const shown = (await s.report()).messages.map((message) => message.text).join('\n');
      assert.ok(shown.includes("<svg><script>window.top.__pwned='svg-script'</script></svg>"), 'raw markup is shown as text');
      assert.ok(!s.requests.some((url) => url.includes('evil.invalid')), 'a remote resource was requested');
    });

    it('shows the footer of an answer cut at its limit', async () => {
      await s.ask('/echo cut here');
      const count = await s.view.page.locator('article.answer').count();
      await s.answersDone(count);
      const { conversationId } = await s.report();
      const stored = JSON.parse(s.chat.storage.files.get(`conversation-${conversationId}.json`)!) as { messages: AnswerEntry[] };
      const answer = stored.messages.at(-1)!;
      // What the host sends when an answer reaches its limit.
      s.view.post({ kind: 'event', event: { type: 'answerUpdated', conversationId, answer: { ...answer, status: 'stopped', cut: { part: 'answer', limitChars: 1024 * 1024 } } } });
      const footer = s.view.page.locator(`article.answer[data-message-id="${answer.id}"] .message-cut`);
      await footer.waitFor();
      assert.equal(await shownText(footer), 'The answer was cut at 1 MiB; RL Studio stopped the request.');
      assert.equal(await s.view.page.locator(`article.answer[data-message-id="${answer.id}"]`).getAttribute('data-status'), 'stopped');
    });

    it('shows reasoning folded and compare answers side by side', async () => {
      const reasoningModel = emulator.seeded!.inferenceModels.find((id) => id.includes('reason'))!;
      const other = emulator.seeded!.inferenceModels[1]!;
      await s.view.page.click('.new-conversation');
      await s.view.page.waitForFunction(() => document.querySelectorAll('article.message').length === 0);
      await s.view.page.selectOption('.model-select:not(.compare-select)', reasoningModel);
      await s.view.page.check('.compare-toggle');
      await s.view.page.selectOption('.compare-select', other);
      await s.ask('Why is the sky blue?');
      await s.answersDone(2);
      const row = s.view.page.locator('.answers.compare');
      assert.equal(await row.locator('article.answer').count(), 2);
      const reasoning = row.locator('article.answer').first().locator('details.reasoning');
      assert.equal(await reasoning.isVisible(), true);
      assert.equal(await reasoning.evaluate((element) => (element as HTMLDetailsElement).open), false);
      const report = await s.report();
      assert.deepEqual(report.selectedModels, [reasoningModel, other]);
      assert.equal(report.compare, true);
      const stats = await Promise.all((await row.locator('.message-stats').all()).map((each) => shownText(each)));
      assert.equal(stats.length, 2);
      for (const line of stats) assert.match(line, /completion tokens/);
    });

    it('shows a 429 on the message with Retry, keeps the question, and Retry answers', async () => {
      await s.view.page.click('.new-conversation');
      await s.view.page.waitForFunction(() => document.querySelectorAll('article.message').length === 0);
      assert.equal(await s.view.page.isChecked('.compare-toggle'), false, 'a new conversation starts without compare');
      emulator.addFault({ kind: 'status', status: 429, retryAfter: 1, path: '/chat/completions' });
      await s.ask('/echo after the limit');
      await s.view.page.locator('article.answer[data-status="error"]').waitFor();
      assert.match(await shownText(s.view.page.locator('.message-error')), /429/);
      assert.equal(await shownText(s.view.page.locator('article.user .user-text').last()), '/echo after the limit');
      await s.view.page.locator('article.answer[data-status="error"] button', { hasText: 'Retry' }).click();
      await s.view.page.locator('article.answer[data-status="done"]').waitFor();
      assert.equal(await shownText(s.view.page.locator('article.answer .message-body').last()), 'after the limit');
    });

    it('switches to exactly the model the extension opens, even one the picker does not list', async () => {
      const ids = emulator.seeded!;
      const checkpoint = `wandb-artifact:///${ids.trainedModelEntity}/${ids.trainedModelProject}/${ids.trainedModelName}:step1`;
      const before = await s.report();
      assert.ok(before.messageCount > 0);
      await s.chat.controller.openWithModel(checkpoint);
      await s.view.page.waitForFunction((id) => (document.querySelector('.model-select') as HTMLSelectElement).value === id, checkpoint);
      const report = await s.report();
      assert.notEqual(report.conversationId, before.conversationId, 'a conversation with messages is kept; a new one opens');
      assert.equal(report.messageCount, 0);
      assert.deepEqual(report.selectedModels, [checkpoint]);
      const group = await s.view.page.locator('.model-select:not(.compare-select) option:checked').evaluate((option) => (option.parentElement as HTMLOptGroupElement).label);
      assert.equal(group, 'Other');
      await s.view.page.selectOption('.conversation-select', before.conversationId);
      await s.view.page.waitForFunction((count) => document.querySelectorAll('article.message').length === count, before.messageCount);
    });

    it('edits and resends the last message', async () => {
      await s.view.page.locator('article.user button', { hasText: 'Edit' }).last().click();
      assert.equal(await s.view.page.inputValue('.composer-input'), '/echo after the limit');
      await s.view.page.fill('.composer-input', '/echo edited');
      await s.view.page.press('.composer-input', 'Enter');
      await s.view.page.waitForFunction(() => document.querySelector('article.answer[data-status="done"] .message-body')?.textContent?.trim() === 'edited');
      const report = await s.report();
      assert.deepEqual(
        report.messages.map((message) => message.text.trim()),
        ['/echo edited', 'edited'],
      );
    });
  });

  describe('on a slow emulator', () => {
    let emulator: Emulator;
    let s: Awaited<ReturnType<typeof connectPage>>;
    before(async () => {
      emulator = await startEmulator({ streamChunkDelayMs: 4 });
      s = await connectPage(emulator);
    });
    after(async () => {
      await s?.close();
      await emulator?.close();
    });

    it('Stop freezes the answer at once: no text appears after it, and what was shown is what is kept', async () => {
      await s.ask('/long 4000');
      await s.view.page.waitForFunction(() => (document.querySelector('article.answer .message-body')?.textContent?.length ?? 0) > 300);
      const answer = `article.answer[data-message-id="${await s.view.page.locator('article.answer').last().getAttribute('data-message-id')}"]`;
      const body = s.view.page.locator(`${answer} .message-body`);
      await s.view.page.click('button.stop');
      const atStop = await shownText(body);
      await s.view.page.locator(`${answer}[data-status="stopped"]`).waitFor();
      const conversationId = (await s.report()).conversationId;
      const stored = JSON.parse(s.chat.storage.files.get(`conversation-${conversationId}.json`) ?? '{}');
      const kept: string = stored.messages?.[1]?.content ?? '';
      assert.ok(kept.length > 300);
      assert.equal(await s.view.page.locator('button.send').isVisible(), true);
      // The next answer streams through the same channel: once it is drawn to its end, anything the
      // stopped answer still had on the way would have been drawn before it.
      await s.ask('/echo after stop');
      await s.view.page.locator('article.answer[data-status="done"] .message-body', { hasText: 'after stop' }).waitFor();
      const later = await shownText(body);
      assert.equal(later, atStop, 'text appeared after Stop');
      assert.equal(kept.replace(/\s+/g, ' ').trim(), later.replace(/\s+/g, ' ').trim());
    });

    it('shows usage, time to first token and decoding speed of a streamed answer', async () => {
      const done = await s.view.page.locator('article.answer[data-status="done"]').count();
      await s.ask('/long 60');
      await s.view.page.waitForFunction((count) => document.querySelectorAll('article.answer[data-status="done"]').length > count, done, { timeout: 30_000 });
      const stats = await shownText(s.view.page.locator('article.answer[data-status="done"] .message-stats').last());
      assert.match(stats, /^\d+ prompt \+ 60 completion tokens · first token \d+ ms · \d+\.\d tok\/s · /);
    });
  });
  describe('the sanitizer alone, on raw markup, in a page without any Content Security Policy', () => {
    let page: Page;
    const requests: string[] = [];
    const dialogs: string[] = [];

    before(async () => {
      // The renderer's own module, bundled for the page: no CSP here, so the sanitizer is the only defence.
      const script = await bundlePageScript(`
            import { createMarkdownRenderer, sanitizeHtml } from './src/chat/page/markdownRenderer';
            const renderer = createMarkdownRenderer();
            window.__show = (html, markdown) => {
              const box = document.createElement('div');
              box.className = 'case';
              box.append(markdown ? renderer.render(html) : sanitizeHtml(html));
              document.getElementById('app').append(box);
            };`);
      const context = await chromium.browser.newContext();
      page = await context.newPage();
      page.on('request', (request) => requests.push(request.url()));
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      await page.goto(`${chromium.url}plain`);
      await page.addScriptTag({ content: script });
    });
    after(async () => page?.context().close());

    it('keeps no SVG or MathML element, no script, no handler, no javascript: address, and loads nothing', async () => {
      const origin = new URL(chromium.url).origin;
      await page.evaluate(
        ({ markup, markdown }) => {
          const show = (window as unknown as { __show(text: string, markdown: boolean): void }).__show;
          for (const text of markup) show(text, false);
          for (const text of markdown) show(text, true);
          // A control outside the sanitizer: when its error handler has run, the payloads' would have too.
          const control = document.createElement('img');
          control.addEventListener('error', () => ((window as unknown as { __control: boolean }).__control = true));
          control.src = 'control-missing.png';
          document.body.append(control);
        },
        { markup: hostileMarkup, markdown: hostileMarkdown },
      );
      await page.waitForFunction(() => (window as unknown as { __control?: boolean }).__control === true);
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      const seen = await page.evaluate(() => {
        const app = document.getElementById('app')!;
        const foreign = [...app.querySelectorAll('*')].filter((element) => element.namespaceURI !== 'http://www.w3.org/1999/xhtml').map((element) => element.tagName);
        const named = [...app.querySelectorAll('svg, math, script, style, img, iframe, object, embed, template, noscript, form, meta, link, foreignObject, mglyph')].map((element) => element.tagName);
        const attributes: string[] = [];
        for (const element of app.querySelectorAll('*')) {
          for (const attribute of element.attributes) {
            if (/^on/i.test(attribute.name) || ['style', 'src', 'srcdoc', 'formaction', 'action'].includes(attribute.name) || attribute.name.includes(':'))
              attributes.push(`${element.tagName}.${attribute.name}`);
          }
        }
        const hrefs = [...app.querySelectorAll('[href]')].map((element) => element.getAttribute('href')!);
        return { foreign, named, attributes, hrefs, cases: app.querySelectorAll('.case').length, pwned: (window as unknown as { __pwned?: string }).__pwned };
      });
      assert.equal(seen.cases, hostileMarkup.length + hostileMarkdown.length);
      assert.deepEqual(seen.foreign, [], 'elements of the SVG or MathML namespace');
      assert.deepEqual(seen.named, [], 'forbidden elements');
      assert.deepEqual(seen.attributes, [], 'handlers, styles, sources or namespaced attributes');
      for (const href of seen.hrefs) assert.match(href, /^https?:\/\//, href);
      assert.equal(seen.pwned, undefined, 'a script ran');
      assert.deepEqual(dialogs, []);
      const remote = requests.filter((url) => !url.startsWith(origin));
      assert.deepEqual(remote, [], 'requests beyond the test page');
      assert.ok(
        requests.some((url) => url.endsWith('/control-missing.png')),
        'the control image was requested',
      );
    });
  });
});
