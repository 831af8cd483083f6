import assert from 'node:assert/strict';
import { PlatformError } from '../../../src/platform/client/errors';
import type { ChatCompletionChunk } from '../../../src/platform/client/types';
import { safeExternalUrl } from '../../../src/chat/model/externalLinks';
import { RpcError } from '../../../src/platform/pages/rpc';
import { createHarness, FakeBackend } from './controllerHarness';
import { catalogueOf, eventsAbout, finishedAnswers as finished, shownLength, shownText } from './fixtures';
import { chunk, MemoryStorage, pacedWords, until } from './support';

/** Words with a pause between them, until aborted, then their usage. */
const slowWords = (words: string[], delayMs: number) => pacedWords(words, delayMs, { usage: true });

describe('chat controller', () => {
  it('starts with a conversation on the last used model and the model list', async () => {
    const { webview, events } = createHarness({ lastModel: 'model-a' });
    const snapshot = await webview.request('ready', {});
    assert.equal(snapshot.conversation.settings.model, 'model-a');
    assert.equal(snapshot.conversations.length, 1);
    await until(() => events.some((event) => event.type === 'models' && !event.loading));
    const models = events.filter((event) => event.type === 'models');
    assert.deepEqual(models.at(-1), { type: 'models', catalogue: catalogueOf('model-a'), loading: false });
  });

  it('picks the first listed model when none was used before', async () => {
    const { webview, events } = createHarness();
    const snapshot = await webview.request('ready', {});
    await until(() => events.some((event) => event.type === 'settings' && event.settings.model === 'model-a'), 1000, 'default model');
    assert.equal(snapshot.conversation.id, (events.find((event) => event.type === 'settings') as { conversationId: string }).conversationId);
  });

  it('streams an answer to the webview, then sends the final text with usage and timing, and saves it', async () => {
    const backend = new FakeBackend();
    backend.scripts.push(slowWords(['Hello', ' there', '!'], 2));
    const storage = new MemoryStorage();
    const { webview, events } = createHarness({ backend, storage, lastModel: 'model-a' });
    const { conversation } = await webview.request('ready', {});
    await webview.request('send', { conversationId: conversation.id, text: 'Hi' });
    await until(() => finished(events).length === 1);
    const answer = finished(events)[0]!;
    assert.equal(answer.status, 'done');
    assert.equal(answer.content, 'Hello there!');
    assert.equal(answer.stats?.completionTokens, 3);
    assert.equal(answer.stats?.usageReported, true);
    assert.ok(answer.stats!.ttftMs! >= 0);
    assert.ok(
      events.some((event) => event.type === 'answerDelta'),
      'text was streamed before the end',
    );
    assert.equal(shownText(events).get(answer.id), 'Hello there!');
    assert.deepEqual(backend.calls[0]!.request.messages, [{ role: 'user', content: 'Hi' }]);
    assert.equal(backend.calls[0]!.api, 'inference');
    await until(() => (storage.files.get(`conversation-${conversation.id}.json`) ?? '').includes('Hello there!'));
  });

  it('keeps exactly the text shown when Stop is pressed, and posts no text after it', async () => {
    const backend = new FakeBackend();
    backend.scripts.push(
      slowWords(
        Array.from({ length: 500 }, (_, i) => `w${i} `),
        3,
      ),
    );
    const storage = new MemoryStorage();
    const { webview, events } = createHarness({ backend, storage, lastModel: 'model-a' });
    const { conversation } = await webview.request('ready', {});
    await webview.request('send', { conversationId: conversation.id, text: 'Count' });
    await until(() => (shownText(events).values().next().value ?? '').length > 20);
    const answerId = [...shownText(events).keys()][0]!;
    const seen = shownText(events).get(answerId)!;
    const { answers } = await webview.request('stop', { conversationId: conversation.id, shown: [shownLength(answerId, seen.length)] });
    const eventsAtStop = events.length;
    assert.equal(answers.length, 1);
    assert.equal(answers[0]!.status, 'stopped');
    assert.equal(answers[0]!.content, seen);
    assert.equal(backend.calls.length, 1);
    await until(() => JSON.parse(storage.files.get(`conversation-${conversation.id}.json`)!).messages[1].content === seen);
    // A next answer streams through the same batching and timers: once it has ended, anything the
    // stopped answer still had on the way would have arrived before it.
    backend.scripts.push(slowWords(['after', ' stop'], 3));
    await webview.request('send', { conversationId: conversation.id, text: 'Again' });
    await until(() => finished(events).length === 2, 3000, 'the next answer');
    assert.equal(finished(events)[1]!.content, 'after stop');
    assert.ok(
      eventsAbout(events.slice(eventsAtStop), finished(events)[1]!.id).some((event) => event.type === 'answerDelta'),
      'the next answer was streamed in batches',
    );
    assert.deepEqual(eventsAbout(events.slice(eventsAtStop), answerId), [], 'nothing about the stopped answer arrives after the Stop reply');
  });

  it('cuts back an answer that finished just before the Stop arrived', async () => {
    const backend = new FakeBackend();
    backend.scripts.push(slowWords(['one ', 'two ', 'three'], 0));
    const { webview, events } = createHarness({ backend, lastModel: 'model-a' });
    const { conversation } = await webview.request('ready', {});
    await webview.request('send', { conversationId: conversation.id, text: 'go' });
    await until(() => finished(events).length === 1);
    const answer = finished(events)[0]!;
    const { answers } = await webview.request('stop', { conversationId: conversation.id, shown: [shownLength(answer.id, 4)] });
    assert.equal(answers[0]!.content, 'one ');
    assert.equal(answers[0]!.status, 'stopped');
  });

  it('shows an HTTP failure on the message, keeps the user message, and Retry answers again', async () => {
    const backend = new FakeBackend();
    backend.scripts.push(() =>
      (async function* (): AsyncGenerator<ChatCompletionChunk> {
        throw new PlatformError({
          kind: 'http',
          api: 'inference',
          method: 'POST',
          path: '/v1/chat/completions',
          message: 'POST /chat/completions failed: 429 Concurrency limit reached for requests',
          status: 429,
          retryAfterMs: 1000,
        });
      })(),
    );
    backend.scripts.push(slowWords(['Recovered'], 0));
    const { webview, events } = createHarness({ backend, lastModel: 'model-a' });
    const { conversation } = await webview.request('ready', {});
    await webview.request('send', { conversationId: conversation.id, text: 'Question' });
    await until(() => finished(events).length === 1);
    const failed = finished(events)[0]!;
    assert.equal(failed.status, 'error');
    assert.match(failed.error!.message, /429.*Try again in 1 s/);
    const { messageId } = await webview.request('retry', { conversationId: conversation.id, messageId: failed.id });
    await until(() => finished(events).length === 2);
    const retried = finished(events)[1]!;
    assert.equal(retried.id, messageId);
    assert.equal(retried.content, 'Recovered');
    const reopened = await webview.request('openConversation', { conversationId: conversation.id });
    assert.deepEqual(
      reopened.messages.map((entry) => entry.content),
      ['Question', 'Recovered'],
    );
    assert.deepEqual(backend.calls[1]!.request.messages, [{ role: 'user', content: 'Question' }]);
  });

  it('keeps the partial text of a cut stream next to the error', async () => {
    const backend = new FakeBackend();
    backend.scripts.push(() =>
      (async function* (): AsyncGenerator<ChatCompletionChunk> {
        yield chunk('Half of ');
        yield chunk('it');
        throw new PlatformError({ kind: 'stream-cut', api: 'inference', method: 'POST', path: '/v1/chat/completions', message: 'the stream ended before [DONE]' });
      })(),
    );
    const { webview, events } = createHarness({ backend, lastModel: 'model-a' });
    const { conversation } = await webview.request('ready', {});
    await webview.request('send', { conversationId: conversation.id, text: 'Question' });
    await until(() => finished(events).length === 1);
    assert.equal(finished(events)[0]!.content, 'Half of it');
    assert.equal(finished(events)[0]!.error?.kind, 'stream-cut');
  });

  it('sends one prompt to both models in compare mode, each on its own API', async () => {
    const backend = new FakeBackend();
    backend.fallback = (request) => slowWords([`answer from ${request.model}`], 0)(request, new AbortController().signal);
    const { webview, events } = createHarness({ backend, lastModel: 'model-a' });
    const { conversation } = await webview.request('ready', {});
    const checkpoint = 'wandb-artifact:///e/p/policy:step3';
    await webview.request('updateSettings', { conversationId: conversation.id, settings: { ...conversation.settings, compare: true, compareModel: checkpoint } });
    await webview.request('send', { conversationId: conversation.id, text: 'Compare' });
    await until(() => finished(events).length === 2);
    assert.deepEqual(backend.calls.map((call) => [call.request.model, call.api]).sort(), [
      ['model-a', 'inference'],
      [checkpoint, 'training'],
    ]);
    const byColumn = finished(events).sort((a, b) => a.column - b.column);
    assert.deepEqual(
      byColumn.map((answer) => answer.content),
      ['answer from model-a', `answer from ${checkpoint}`],
    );
  });

  it('refuses a second send while an answer streams, and an empty message', async () => {
    const backend = new FakeBackend();
    backend.scripts.push(
      slowWords(
        Array.from({ length: 100 }, () => 'x'),
        5,
      ),
    );
    const { webview } = createHarness({ backend, lastModel: 'model-a' });
    const { conversation } = await webview.request('ready', {});
    await webview.request('send', { conversationId: conversation.id, text: 'one' });
    await assert.rejects(webview.request('send', { conversationId: conversation.id, text: 'two' }), (error: unknown) => error instanceof RpcError && error.code === 'busy');
    await assert.rejects(webview.request('regenerate', { conversationId: conversation.id }), (error: unknown) => error instanceof RpcError && error.code === 'busy');
    await webview.request('stop', { conversationId: conversation.id, shown: [] });
    await assert.rejects(webview.request('send', { conversationId: conversation.id, text: '   ' }), (error: unknown) => error instanceof RpcError && error.code === 'empty');
  });

  it('edits and resends the last message, and regenerates', async () => {
    const backend = new FakeBackend();
    backend.fallback = (request) => slowWords([`re: ${request.messages.at(-1)!.content}`], 0)(request, new AbortController().signal);
    const { webview, events } = createHarness({ backend, lastModel: 'model-a' });
    const { conversation } = await webview.request('ready', {});
    await webview.request('send', { conversationId: conversation.id, text: 'frist' });
    await until(() => finished(events).length === 1);
    await webview.request('editLastUserMessage', { conversationId: conversation.id, text: 'first' });
    await until(() => finished(events).length === 2);
    await webview.request('regenerate', { conversationId: conversation.id });
    await until(() => finished(events).length === 3);
    const final = await webview.request('openConversation', { conversationId: conversation.id });
    assert.deepEqual(
      final.messages.map((entry) => entry.content),
      ['first', 're: first'],
    );
    assert.equal(backend.calls.length, 3);
  });

  it('opens exactly the given checkpoint, in a new conversation when the current one has messages', async () => {
    const backend = new FakeBackend();
    backend.scripts.push(slowWords(['ok'], 0));
    const { controller, webview, events, lastModel } = createHarness({ backend, lastModel: 'model-a' });
    const { conversation } = await webview.request('ready', {});
    const checkpoint = 'wandb-artifact:///emulator-entity/demo-project/policy-001:step7';
    const reused = await controller.openWithModel(checkpoint);
    assert.equal(reused.id, conversation.id, 'an empty conversation is reused');
    assert.equal(reused.settings.model, checkpoint);
    await webview.request('send', { conversationId: conversation.id, text: 'hello' });
    await until(() => finished(events).length === 1);
    assert.equal(backend.calls[0]!.api, 'training');
    const other = 'wandb-artifact:///emulator-entity/demo-project/policy-001:step3';
    const fresh = await controller.openWithModel(other);
    assert.notEqual(fresh.id, conversation.id);
    assert.equal(fresh.settings.model, other);
    assert.equal(lastModel(), other);
    await until(() => events.some((event) => event.type === 'conversation' && event.conversation.id === fresh.id && event.reveal === true), 3000, 'the webview told to show the new conversation');
  });

  it('keeps the editor selection as the draft when no model can answer yet', async () => {
    const backend = new FakeBackend();
    backend.catalogue = { options: [], problems: ['Inference models: sign in to list them'] };
    const { controller, webview, events } = createHarness({ backend });
    await webview.request('ready', {});
    const conversation = await controller.sendAsNewConversation('explain this code');
    assert.equal(conversation.messages.length, 0);
    assert.equal(conversation.draft, 'explain this code');
    assert.equal(backend.calls.length, 0);
    await until(() => events.some((event) => event.type === 'conversation' && event.reveal === true && event.conversation.draft === 'explain this code'));
  });

  it('sends the editor selection as the first message of a new conversation', async () => {
    const backend = new FakeBackend();
    backend.scripts.push(slowWords(['ok'], 0));
    const { controller, webview, events } = createHarness({ backend, lastModel: 'model-a' });
    const { conversation: first } = await webview.request('ready', {});
    await webview.request('send', { conversationId: first.id, text: 'earlier' });
    await until(() => finished(events).length === 1);
    backend.scripts.push(slowWords(['about the selection'], 0));
    const conversation = await controller.sendAsNewConversation('```ts\nconst a = 1;\n```');
    assert.notEqual(conversation.id, first.id);
    await until(() => finished(events).length === 2);
    assert.deepEqual(
      conversation.messages.map((entry) => entry.content),
      ['```ts\nconst a = 1;\n```', 'about the selection'],
    );
    assert.deepEqual(backend.calls[1]!.request.messages, [{ role: 'user', content: '```ts\nconst a = 1;\n```' }]);
  });

  it('restores conversations, the open one and its draft after a reload', async () => {
    const storage = new MemoryStorage();
    const backend = new FakeBackend();
    backend.scripts.push(slowWords(['kept'], 0));
    const first = createHarness({ storage, backend, lastModel: 'model-a' });
    const { conversation } = await first.webview.request('ready', {});
    await first.webview.request('send', { conversationId: conversation.id, text: 'remember me' });
    await until(() => finished(first.events).length === 1);
    await first.webview.request('saveDraft', { conversationId: conversation.id, text: 'unsent words' });
    // Closing the panel writes the coalesced draft at once.
    await first.controller.dispose();

    const second = createHarness({ storage });
    const snapshot = await second.webview.request('ready', { conversationId: conversation.id });
    assert.equal(snapshot.conversation.id, conversation.id);
    assert.deepEqual(
      snapshot.conversation.messages.map((entry) => entry.content),
      ['remember me', 'kept'],
    );
    assert.equal(snapshot.conversation.draft, 'unsent words');
    assert.equal(snapshot.conversation.title, 'remember me');
  });

  it('renames, exports and deletes through the editor dialogs', async () => {
    const { webview, ui, events } = createHarness({ lastModel: 'model-a' });
    const { conversation } = await webview.request('ready', {});
    ui.titles.push('  Renamed chat  ');
    assert.deepEqual(await webview.request('renameConversation', { conversationId: conversation.id }), { title: 'Renamed chat' });
    ui.titles.push(undefined);
    assert.equal(await webview.request('renameConversation', { conversationId: conversation.id }), null);
    await until(() => events.some((event) => event.type === 'conversations' && event.items[0]?.title === 'Renamed chat'));

    assert.deepEqual(await webview.request('exportConversation', { conversationId: conversation.id, format: 'markdown' }), { exported: true });
    assert.equal(ui.exported[0]!.format, 'markdown');
    await assert.rejects(webview.request('exportConversation', { conversationId: conversation.id, format: 'pdf' as 'json' }));

    ui.confirmations.push(false);
    assert.equal((await webview.request('deleteConversation', { conversationId: conversation.id })).deleted, false);
    ui.confirmations.push(true);
    const result = await webview.request('deleteConversation', { conversationId: conversation.id });
    assert.equal(result.deleted, true);
    assert.notEqual(result.conversation.id, conversation.id);
    await assert.rejects(webview.request('openConversation', { conversationId: conversation.id }), (error: unknown) => error instanceof RpcError && error.code === 'not-found');
  });

  it('opens only http(s) links, and passes code to the clipboard and the editor', async () => {
    const { webview, ui } = createHarness();
    await webview.request('ready', {});
    for (const href of [
      'javascript:alert(1)',
      'JAVASCRIPT:alert(1)',
      'data:text/html,<script>',
      'file:///etc/passwd',
      'vscode:extension/x',
      'command:workbench.action.quit',
      'https://user:pw@example.com/',
      'not a url',
    ]) {
      assert.deepEqual(await webview.request('openLink', { href }), { opened: false }, href);
    }
    assert.deepEqual(await webview.request('openLink', { href: 'https://example.com/a?b=c' }), { opened: true });
    assert.deepEqual(ui.opened, ['https://example.com/a?b=c']);
    await webview.request('copyText', { text: 'print(1)' });
    await webview.request('insertText', { text: 'print(2)' });
    assert.deepEqual([ui.copied, ui.inserted], [['print(1)'], ['print(2)']]);
    await assert.rejects(webview.request('runAction', { action: 'rm -rf' as 'signIn' }));
    await webview.request('runAction', { action: 'signIn' });
    assert.deepEqual(ui.actions, ['signIn']);
    assert.equal(safeExternalUrl(' http://example.com '), 'http://example.com/');
  });

  it('stops and saves answers still streaming when the panel closes', async () => {
    const backend = new FakeBackend();
    backend.scripts.push(
      slowWords(
        Array.from({ length: 1000 }, () => 'y'),
        2,
      ),
    );
    const storage = new MemoryStorage();
    const { controller, webview, events } = createHarness({ backend, storage, lastModel: 'model-a' });
    const { conversation } = await webview.request('ready', {});
    await webview.request('send', { conversationId: conversation.id, text: 'long' });
    await until(() => events.some((event) => event.type === 'answerDelta'));
    await controller.dispose();
    assert.equal(controller.isStreaming(), false);
    const saved = JSON.parse(storage.files.get(`conversation-${conversation.id}.json`)!);
    assert.equal(saved.messages[1].status, 'stopped');
    assert.ok(saved.messages[1].content.length > 0);
  });

  it('asks the webview what it shows', async () => {
    const report = { conversationId: 'c', selectedModels: ['m'], compare: false, messageCount: 0, streamingMessageIds: [], messages: [], draft: '' };
    const { controller, webview } = createHarness({ report: () => report });
    await webview.request('ready', {});
    assert.deepEqual(await controller.report(), report);
  });
});
