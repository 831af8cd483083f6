import assert from 'node:assert/strict';
import type { ChatCompletionChunk } from '../../../src/platform/client/types';
import type { AnswerEntry } from '../../../src/chat/model/conversationTypes';
import { maxAnswerChars, maxRunningAnswers } from '../../../src/chat/model/limits';
import { serializeConversation } from '../../../src/chat/model/persistence';
import { RpcError } from '../../../src/platform/pages/rpc';
import { createHarness, FakeBackend } from './controllerHarness';
import { answerEntry, finishedAnswers as finished, shownLength, userEntry } from './fixtures';
import { chunk, MemoryStorage, sleep, until } from './support';

/** Text until aborted, one chunk every `delayMs`; records whether the signal was aborted. */
function untilAborted(text: string, delayMs: number, seen: { aborted: boolean }) {
  return (_request: unknown, signal: AbortSignal): AsyncIterable<ChatCompletionChunk> =>
    (async function* () {
      signal.addEventListener('abort', () => (seen.aborted = true));
      while (!signal.aborted) {
        yield chunk(text);
        if (delayMs > 0) await sleep(delayMs);
        else await Promise.resolve();
      }
    })();
}

/** Storage that counts the writes of each document. */
class CountingStorage extends MemoryStorage {
  readonly writesOf = new Map<string, number>();
  override async write(name: string, text: string): Promise<void> {
    this.writesOf.set(name, (this.writesOf.get(name) ?? 0) + 1);
    await super.write(name, text);
  }
}

describe('chat controller bounds', () => {
  it('stops an endless answer at its limit, aborts the request, keeps the text and says so', async () => {
    const backend = new FakeBackend();
    const seen = { aborted: false };
    backend.scripts.push(untilAborted('y'.repeat(4096), 0, seen));
    const { webview, events } = createHarness({ backend, lastModel: 'model-a' });
    const { conversation } = await webview.request('ready', {});
    await webview.request('send', { conversationId: conversation.id, text: 'go on forever' });
    await until(() => finished(events).length === 1, 10_000, 'the answer to end');
    const answer = finished(events)[0]!;
    assert.equal(answer.status, 'stopped');
    assert.equal(answer.content.length, maxAnswerChars);
    assert.deepEqual(answer.cut, { part: 'answer', limitChars: maxAnswerChars });
    assert.equal(seen.aborted, true, 'the request was aborted');
    const reopened = await webview.request('openConversation', { conversationId: conversation.id });
    assert.deepEqual((reopened.messages[1] as AnswerEntry).cut, answer.cut);
  });

  it('starts one answer for a burst of sends and answers every other one with an error', async () => {
    const backend = new FakeBackend();
    const seen = { aborted: false };
    backend.fallback = untilAborted('z', 5, seen);
    const { webview } = createHarness({ backend, lastModel: 'model-a' });
    const { conversation } = await webview.request('ready', {});
    const results = await Promise.allSettled(Array.from({ length: 200 }, (_, i) => webview.request('send', { conversationId: conversation.id, text: `message ${i}` })));
    assert.equal(results.filter((result) => result.status === 'fulfilled').length, 1);
    const codes = results.flatMap((result) => (result.status === 'rejected' ? [(result.reason as RpcError).code] : []));
    assert.equal(codes.length, 199, 'every other send got an error reply');
    assert.ok(
      codes.every((code) => code === 'busy' || code === 'too-many-requests'),
      codes.join(),
    );
    assert.equal(backend.calls.length, 1);
    await webview.request('stop', { conversationId: conversation.id, shown: [] });
  });

  it('refuses a new answer when too many stream in other conversations', async () => {
    const backend = new FakeBackend();
    backend.fallback = untilAborted('z', 5, { aborted: false });
    const { webview } = createHarness({ backend, lastModel: 'model-a' });
    await webview.request('ready', {});
    const ids: string[] = [];
    for (let i = 0; i < maxRunningAnswers; i++) {
      const conversation = await webview.request('newConversation', {});
      await webview.request('send', { conversationId: conversation.id, text: `q${i}` });
      ids.push(conversation.id);
    }
    const extra = await webview.request('newConversation', {});
    await assert.rejects(webview.request('send', { conversationId: extra.id, text: 'one more' }), (error: unknown) => error instanceof RpcError && error.code === 'busy');
    assert.equal(backend.calls.length, maxRunningAnswers);
    for (const id of ids) await webview.request('stop', { conversationId: id, shown: [] });
  });

  it('reuses the open conversation for New while it is still empty', async () => {
    const storage = new MemoryStorage();
    const { webview } = createHarness({ storage, lastModel: 'model-a' });
    const { conversation } = await webview.request('ready', {});
    for (let i = 0; i < 50; i++) assert.equal((await webview.request('newConversation', {})).id, conversation.id);
    assert.equal([...storage.files.keys()].filter((name) => name.startsWith('conversation-')).length, 1);
  });

  it('writes a streaming conversation when the turn starts and when the answer ends, not as it streams', async () => {
    const backend = new FakeBackend();
    const seen = { aborted: false };
    backend.scripts.push(untilAborted('w ', 1, seen));
    const storage = new CountingStorage();
    const { webview, events } = createHarness({ backend, storage, lastModel: 'model-a' });
    const { conversation } = await webview.request('ready', {});
    const name = `conversation-${conversation.id}.json`;
    const before = storage.writesOf.get(name) ?? 0;
    await webview.request('send', { conversationId: conversation.id, text: 'stream for a while' });
    await until(() => events.filter((event) => event.type === 'answerDelta').length >= 100, 10_000, '100 deltas');
    assert.equal((storage.writesOf.get(name) ?? 0) - before, 1, 'only the new turn was written while streaming');
    await webview.request('stop', { conversationId: conversation.id, shown: [] });
    assert.equal((storage.writesOf.get(name) ?? 0) - before, 2, 'and the end of the answer');
  });

  it('refuses a new turn in a conversation too large to keep growing', async () => {
    const storage = new MemoryStorage();
    const { webview: first } = createHarness({ storage, lastModel: 'model-a' });
    const { conversation } = await first.request('ready', {});
    conversation.messages.push(userEntry(), answerEntry({ model: 'model-a', content: 'c'.repeat(9 * 1024 * 1024) }));
    storage.files.set(`conversation-${conversation.id}.json`, serializeConversation(conversation));
    const backend = new FakeBackend();
    const { webview } = createHarness({ storage, backend, lastModel: 'model-a' });
    await webview.request('ready', { conversationId: conversation.id });
    await assert.rejects(
      webview.request('send', { conversationId: conversation.id, text: 'more' }),
      (error: unknown) => error instanceof RpcError && error.code === 'conversation-full' && /start a new conversation/.test(error.message),
    );
    assert.equal(backend.calls.length, 0);
  });

  it('bounds what the webview hands to the editor: long text refused, floods of links and inserts refused', async () => {
    const { webview, ui } = createHarness({ lastModel: 'model-a' });
    await webview.request('ready', {});
    await assert.rejects(webview.request('insertText', { text: 'x'.repeat(10 * 1024 * 1024) }), (error: unknown) => error instanceof RpcError && error.code === 'too-long');
    await assert.rejects(webview.request('copyText', { text: 'x'.repeat(maxAnswerChars + 1) }), (error: unknown) => error instanceof RpcError && error.code === 'too-long');
    await assert.rejects(webview.request('send', { conversationId: 'c', text: 'x'.repeat(1_000_001) }), (error: unknown) => error instanceof RpcError && error.code === 'too-long');
    assert.deepEqual(ui.inserted, []);
    const links = await Promise.allSettled(Array.from({ length: 30 }, (_, i) => webview.request('openLink', { href: `https://example.com/${i}` })));
    assert.equal(links.filter((result) => result.status === 'fulfilled').length, 5);
    assert.equal(ui.opened.length, 5);
    const inserts = await Promise.allSettled(Array.from({ length: 30 }, () => webview.request('insertText', { text: 'ok' })));
    assert.equal(inserts.filter((result) => result.status === 'fulfilled').length, 5);
  });

  it('never cuts an answer of an earlier turn, whatever Stop says was shown', async () => {
    const backend = new FakeBackend();
    backend.fallback = (request) =>
      (async function* () {
        yield chunk(`answer to ${request.messages.at(-1)!.content}`);
      })();
    const { webview, events } = createHarness({ backend, lastModel: 'model-a' });
    const { conversation } = await webview.request('ready', {});
    await webview.request('send', { conversationId: conversation.id, text: 'first' });
    await until(() => finished(events).length === 1);
    await webview.request('send', { conversationId: conversation.id, text: 'second' });
    await until(() => finished(events).length === 2);
    const [older, newer] = finished(events);
    const { answers } = await webview.request('stop', {
      conversationId: conversation.id,
      shown: [older!, newer!].map((answer) => shownLength(answer.id, 0)),
    });
    assert.deepEqual(
      answers.map((answer) => answer.id),
      [newer!.id],
    );
    const reopened = await webview.request('openConversation', { conversationId: conversation.id });
    assert.deepEqual(
      reopened.messages.map((entry) => entry.content),
      ['first', 'answer to first', 'second', ''],
    );
  });

  it('opens one dialog at a time', async () => {
    const { webview, ui } = createHarness({ lastModel: 'model-a' });
    const { conversation } = await webview.request('ready', {});
    let answer!: (title: string) => void;
    ui.askTitle = () => new Promise<string>((resolve) => (answer = resolve));
    const renaming = webview.request('renameConversation', { conversationId: conversation.id });
    await until(() => answer !== undefined);
    await assert.rejects(webview.request('deleteConversation', { conversationId: conversation.id }), (error: unknown) => error instanceof RpcError && error.code === 'busy');
    answer('Named');
    assert.deepEqual(await renaming, { title: 'Named' });
  });
});
