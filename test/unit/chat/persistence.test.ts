import assert from 'node:assert/strict';
import { appendUserTurn, createConversation } from '../../../src/chat/model/conversation';
import { ConversationStore } from '../../../src/chat/model/conversationStore';
import { defaultSettings } from '../../../src/chat/model/conversationTypes';
import { isSafeId, parseConversation, parseIndex, serializeConversation } from '../../../src/chat/model/persistence';
import { MemoryStorage, testEnv } from './support';

describe('chat persistence', () => {
  it('round-trips a conversation exactly', () => {
    const env = testEnv();
    const conversation = createConversation(env, { ...defaultSettings('m'), systemPrompt: 'sys', parameters: { temperature: 0.3, stop: ['x'], jsonOutput: true } });
    const { answers } = appendUserTurn(conversation, 'hello', env);
    Object.assign(answers[0]!, {
      content: 'hi',
      reasoning: 'r',
      status: 'error',
      finishReason: 'stop',
      error: { kind: 'http', status: 429, message: 'slow down', retryable: true, action: 'signIn' },
      stats: { usageReported: true, streamedChunks: 2, totalMs: 40, promptTokens: 1, completionTokens: 2, totalTokens: 3, ttftMs: 5, tokensPerSecond: 20 },
    });
    conversation.draft = 'next question';
    assert.deepEqual(parseConversation(serializeConversation(conversation)), conversation);
  });

  it('marks an answer that was streaming when the window closed as stopped', () => {
    const env = testEnv();
    const conversation = createConversation(env, defaultSettings('m'));
    appendUserTurn(conversation, 'hello', env);
    const restored = parseConversation(serializeConversation(conversation))!;
    assert.equal((restored.messages[1] as { status: string }).status, 'stopped');
  });

  it('recovers what it can from damaged documents', () => {
    assert.equal(parseConversation('{not json'), undefined);
    assert.equal(parseConversation(JSON.stringify({ id: '../../etc/passwd' })), undefined);
    const restored = parseConversation(
      JSON.stringify({
        id: 'abc',
        settings: { model: 5, parameters: { temperature: 9 } },
        messages: [
          null,
          { id: 'u', role: 'user', content: 'hi' },
          { id: 'x', role: 'assistant', content: 'no replyTo' },
          { id: 'a', role: 'assistant', replyTo: 'u', model: 'm', content: 'ok', column: 7, status: 'weird' },
        ],
      }),
    )!;
    assert.equal(restored.settings.model, '');
    assert.equal(restored.settings.parameters.temperature, 2);
    assert.deepEqual(
      restored.messages.map((entry) => entry.id),
      ['u', 'a'],
    );
    assert.equal((restored.messages[1] as { column: number }).column, 0);
    assert.deepEqual(parseIndex('[]'), { version: 1, conversations: [] });
    assert.deepEqual(parseIndex(JSON.stringify({ conversations: [{ id: 'ok', title: 't' }, { id: 'bad/id' }, 3] })).conversations, [{ id: 'ok', title: 't', updatedAt: 0, messageCount: 0 }]);
  });

  it('accepts only plain ids as file names', () => {
    assert.ok(isSafeId('0f8e2c1a-1111-4bbb-8ccc-123456789abc'));
    for (const bad of ['', '../x', 'a/b', 'a\\b', 'a.json', 'x'.repeat(81)]) assert.equal(isSafeId(bad), false, bad);
  });

  it('stores conversations with an index, newest first, and deletes them', async () => {
    const storage = new MemoryStorage();
    const env = testEnv();
    const store = new ConversationStore(storage);
    const first = createConversation(env);
    const second = createConversation(env);
    await store.add(first);
    await store.add(second);
    second.updatedAt = first.updatedAt + 100;
    second.title = 'Second';
    await store.save(second);
    await store.setLastOpened(first.id);

    const reopened = new ConversationStore(storage);
    assert.deepEqual(
      (await reopened.list()).map((item) => item.title),
      ['Second', 'New chat'],
    );
    assert.equal(await reopened.lastOpenedId(), first.id);
    assert.deepEqual(await reopened.get(second.id), second);

    await reopened.delete(first.id);
    assert.equal(await reopened.lastOpenedId(), undefined);
    assert.equal(await reopened.get(first.id), undefined);
    assert.deepEqual([...storage.files.keys()].sort(), ['conversation-id2.json', 'index.json']);
  });

  it('writes the last state when saves overlap', async () => {
    const storage = new MemoryStorage();
    const slowWrites: (() => void)[] = [];
    const original = storage.write.bind(storage);
    storage.write = (name, text) => new Promise<void>((resolve) => slowWrites.push(() => void original(name, text).then(resolve)));
    const store = new ConversationStore(storage);
    const conversation = createConversation(testEnv());
    const saves: Promise<number>[] = [];
    for (let i = 0; i < 5; i++) {
      conversation.draft = `draft ${i}`;
      saves.push(store.save(conversation));
    }
    while (slowWrites.length > 0 || saves.length > 0) {
      const next = slowWrites.shift();
      if (next) next();
      await new Promise((resolve) => setTimeout(resolve, 1));
      if (slowWrites.length === 0) break;
    }
    await Promise.all(saves);
    assert.equal(parseConversation(storage.files.get(`conversation-${conversation.id}.json`))!.draft, 'draft 4');
  });
});
