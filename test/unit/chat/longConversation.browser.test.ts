import assert from 'node:assert/strict';
import { ChatController } from '../../../src/chat/model/chatController';
import { createConversation } from '../../../src/chat/model/conversation';
import { ConversationStore } from '../../../src/chat/model/conversationStore';
import { defaultSettings, type Conversation } from '../../../src/chat/model/conversationTypes';
import type { WebviewReport } from '../../../src/chat/protocol';
import { openWebviewPage, type WebviewPage } from '../platform/pages/browserHarness';
import { chatPageSuite } from './browserHarness';
import { FakeBackend, FakeUi } from './controllerHarness';
import { answerEntry, userEntry } from './fixtures';
import { MemoryStorage, pacedWords, testEnv } from './support';

/** A Markdown answer of some 8,000 characters: headings, lists, code, as a model writes them. */
const longAnswer = Array.from({ length: 40 }, (_, i) => `## Part ${i}\n\nSome text about part ${i}, with **bold** and \`code\`.\n\n- one\n- two\n\n\`\`\`ts\nconst part = ${i};\n\`\`\`\n`).join('\n');

function conversationOf(turns: number, last: { status?: 'done' | 'error'; content?: string } = {}): Conversation {
  const conversation = createConversation(testEnv(), defaultSettings('model-a'));
  for (let turn = 1; turn <= turns; turn++) {
    const final = turn === turns;
    conversation.messages.push(
      userEntry({ id: `u${turn}`, content: `Question ${turn}` }),
      answerEntry({ id: `a${turn}`, replyTo: `u${turn}`, model: 'model-a', content: final ? (last.content ?? longAnswer) : longAnswer, status: final ? (last.status ?? 'done') : 'done' }),
    );
  }
  return conversation;
}

/** Words paced a few ms apart, so the answer streams over many frames. */
const paced = (words: string[], delayMs = 4) => pacedWords(words, delayMs);

/**
 * What a change cost the page: layout reads by the panel's code (scrollHeight, offsetHeight,
 * getBoundingClientRect…), animation frames, and DOM changes inside or around the messages that
 * were on screen before it, `except` those (the last turn's, whose buttons change).
 */
async function watchEarlierMessages(view: WebviewPage, except: string[]): Promise<void> {
  await view.page.evaluate((except) => {
    const w = window as unknown as Record<string, unknown>;
    const earlier = new Set([...document.querySelectorAll<HTMLElement>('article.message')].filter((article) => !except.includes(article.dataset.messageId ?? '')));
    const counts = { layoutReads: 0, frames: 0, earlierChanged: 0, earlierMissing: 0 };
    w.__watch = { counts, earlier, stop: false };
    for (const name of ['scrollHeight', 'scrollTop', 'clientHeight', 'offsetHeight', 'offsetTop'] as const) {
      const owner = name.startsWith('offset') ? HTMLElement.prototype : Element.prototype;
      const descriptor = Object.getOwnPropertyDescriptor(owner, name)!;
      Object.defineProperty(owner, name, {
        ...descriptor,
        get(this: Element) {
          counts.layoutReads++;
          return descriptor.get!.call(this);
        },
      });
    }
    const rect = Element.prototype.getBoundingClientRect;
    Element.prototype.getBoundingClientRect = function (this: Element) {
      counts.layoutReads++;
      return rect.call(this);
    };
    // A change inside an earlier message, or one that adds, moves or removes it (or what holds it).
    const inside = (node: Node) => [...earlier].some((article) => article.contains(node));
    const holds = (node: Node) => [...earlier].some((article) => node.contains(article));
    new MutationObserver((records) => {
      for (const record of records) {
        if (inside(record.target) || [...record.addedNodes, ...record.removedNodes].some(holds)) counts.earlierChanged++;
      }
    }).observe(document.querySelector('.transcript')!, { childList: true, subtree: true, characterData: true, attributes: true });
    const frame = () => {
      if ((w.__watch as { stop: boolean }).stop) return;
      counts.frames++;
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  }, except);
}

async function watched(view: WebviewPage): Promise<{ layoutReads: number; frames: number; earlierChanged: number; earlierMissing: number }> {
  return view.page.evaluate(() => {
    const watch = (window as unknown as { __watch: { counts: { layoutReads: number; frames: number; earlierChanged: number; earlierMissing: number }; earlier: Set<Element>; stop: boolean } }).__watch;
    watch.stop = true;
    watch.counts.earlierMissing = [...watch.earlier].filter((article) => !article.isConnected).length;
    return watch.counts;
  });
}

describe('a long conversation in the chat webview (chromium)', function () {
  this.timeout(120_000);
  const chromium = chatPageSuite();

  /** The panel on a controller whose store holds `conversation`, drawn to its end. */
  async function open(conversation: Conversation, backend = new FakeBackend()) {
    const store = new ConversationStore(new MemoryStorage());
    await store.add(conversation);
    let post!: (message: unknown) => void;
    const controller = new ChatController({ store, backend, ui: new FakeUi(), post: (message) => post(message), lastModel: () => 'model-a', env: testEnv() });
    const view = await openWebviewPage(chromium.browser, chromium.url, (toPage) => {
      post = (message) => toPage(message as Parameters<typeof toPage>[0]);
      return (message) => controller.receive(message);
    });
    await view.page.waitForFunction((count) => document.querySelectorAll('article.answer').length === count && !document.querySelector('.transcript[aria-busy]'), conversation.messages.length / 2, {
      polling: 50,
    });
    return {
      view,
      controller,
      report: () => controller.report() as Promise<WebviewReport>,
      send: async (text: string) => {
        await view.page.fill('.composer-input', text);
        await view.page.press('.composer-input', 'Enter');
      },
      answersIn: (status: string, count: number) =>
        view.page.waitForFunction(([status, count]) => document.querySelectorAll(`article.answer[data-status="${status}"]`).length === count, [status, count] as const, { polling: 50 }),
      close: async () => {
        await view.page.context().close();
        await controller.dispose();
      },
    };
  }

  it('opens a 40-turn conversation newest first and shows every message, in order, in its report', async () => {
    const chat = await open(conversationOf(40));
    try {
      // The newest turn is at the bottom, in view.
      const atBottom = await chat.view.page.evaluate(() => {
        const transcript = document.querySelector('.transcript')!;
        return transcript.scrollHeight - transcript.scrollTop - transcript.clientHeight < 48;
      });
      assert.ok(atBottom, 'the transcript opens at its bottom');
      const report = await chat.report();
      assert.equal(report.messages.length, 80);
      assert.deepEqual(
        report.messages.slice(0, 4).map((message) => message.id),
        ['u1', 'a1', 'u2', 'a2'],
      );
      // Every answer's text is there in full, the ones far out of view too.
      for (const message of report.messages.filter((entry) => entry.role === 'assistant')) assert.match(message.text, /Part 39[\s\S]*const part = 39;/, message.id);
      assert.deepEqual(chat.view.problems, []);
    } finally {
      await chat.close();
    }
  });

  it('a new message in a 40-turn conversation leaves the earlier messages alone and reads layout at most once a frame', async () => {
    for (const turns of [2, 40]) {
      const backend = new FakeBackend();
      backend.fallback = paced(Array.from({ length: 60 }, (_, i) => `word ${i}${i % 10 === 9 ? '\n\n' : ' '}`));
      const chat = await open(conversationOf(turns), backend);
      try {
        await watchEarlierMessages(chat.view, [`u${turns}`, `a${turns}`]);
        await chat.send('One more question');
        await chat.answersIn('done', turns + 1);
        const cost = await watched(chat.view);
        assert.equal(cost.earlierChanged, 0, `DOM changes in or around the ${turns * 2} earlier messages`);
        assert.equal(cost.earlierMissing, 0, 'earlier messages drawn anew');
        assert.ok(cost.layoutReads <= cost.frames + 2, `${cost.layoutReads} layout reads in ${cost.frames} frames (${turns} turns)`);
        assert.match((await chat.report()).messages.at(-1)!.text, /word 59/);
      } finally {
        await chat.close();
      }
    }
  });

  it('redraws an answer that Retry replaced and one that Stop cut, and nothing before them', async () => {
    const backend = new FakeBackend();
    backend.scripts.push(paced(['Recovered', ' in', ' full.'], 1));
    // The second answer streams until stopped.
    backend.scripts.push(
      paced(
        Array.from({ length: 2000 }, (_, i) => `w${i} `),
        5,
      ),
    );
    const chat = await open(conversationOf(40, { status: 'error', content: 'Half of' }), backend);
    try {
      await chat.view.page.locator('article.answer[data-message-id="a40"] .message-footer').getByRole('button', { name: 'Retry' }).waitFor();
      await watchEarlierMessages(chat.view, ['u40', 'a40']);
      await chat.view.page.locator('article.answer[data-message-id="a40"]').getByRole('button', { name: 'Retry' }).click();
      await chat.view.page.locator('article.answer[data-status="done"]', { hasText: 'Recovered in full.' }).waitFor();
      let report = await chat.report();
      assert.equal(report.messages.length, 80);
      assert.equal(report.messages.at(-1)!.text.trim(), 'Recovered in full.');
      assert.ok(!report.messages.some((message) => message.id === 'a40'), 'the failed answer is gone');

      await chat.send('Another question');
      await chat.view.page.waitForFunction(() => (document.querySelector('article.answer[data-status="streaming"] .message-body')?.textContent?.length ?? 0) > 100);
      await chat.view.page.click('button.stop');
      await chat.answersIn('stopped', 1);
      report = await chat.report();
      const stopped = report.messages.at(-1)!;
      assert.equal(stopped.status, 'stopped');
      assert.match(stopped.text, /^w0 w1 /);
      assert.equal(await chat.view.page.locator('article.answer[data-status="stopped"] .message-status').textContent(), 'stopped');
      // The 39 turns before the retried one were never touched.
      const cost = await watched(chat.view);
      assert.equal(cost.earlierChanged, 0, 'DOM changes in or around the 78 earlier messages');
      assert.equal(cost.earlierMissing, 0, 'earlier messages drawn anew');
    } finally {
      await chat.close();
    }
  });
});
