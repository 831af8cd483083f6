import assert from 'node:assert/strict';
import type { ChatCompletionChunk } from '../../../src/platform/client/types';
import { createConversation } from '../../../src/chat/model/conversation';
import { ConversationStore } from '../../../src/chat/model/conversationStore';
import { defaultSettings, type Conversation } from '../../../src/chat/model/conversationTypes';
import { maxTurnEntries } from '../../../src/chat/model/limits';
import { turnChangeFits, type HostEvent } from '../../../src/chat/protocol';
import { createHarness, FakeBackend } from './controllerHarness';
import { answerEntry, finishedAnswers as finished, userEntry } from './fixtures';
import { chunk, MemoryStorage, testEnv, until } from './support';

type TurnChanged = Extract<HostEvent, { type: 'turnChanged' }>;

const answerText = 'x'.repeat(20_000);

function conversationOf(turns: number): Conversation {
  const conversation = createConversation(testEnv(), defaultSettings('model-a'));
  conversation.id = 'long';
  for (let turn = 1; turn <= turns; turn++) {
    conversation.messages.push(userEntry({ id: `u${turn}`, content: `Question ${turn}` }), answerEntry({ id: `a${turn}`, replyTo: `u${turn}`, model: 'model-a', content: answerText }));
  }
  return conversation;
}

function answering(text: string) {
  return (): AsyncIterable<ChatCompletionChunk> =>
    (async function* () {
      yield chunk(text);
    })();
}

/** A controller whose store holds a conversation of `turns` turns, and the webview's end, ready. */
async function openedWith(turns: number) {
  const storage = new MemoryStorage();
  await new ConversationStore(storage).add(conversationOf(turns));
  const backend = new FakeBackend();
  backend.fallback = answering('An answer.');
  const harness = createHarness({ storage, backend, lastModel: 'model-a' });
  await harness.webview.request('ready', { conversationId: 'long' });
  return harness;
}

/** Characters posted for structural changes (conversation snapshots and turns), not the streamed text. */
function structuralChars(events: readonly HostEvent[]): number {
  return events.filter((event) => event.type === 'conversation' || event.type === 'turnChanged').reduce((sum, event) => sum + JSON.stringify(event).length, 0);
}

describe('the chat host posts only what a turn changed', () => {
  it('a message sent in a 40-turn conversation posts its turn alone: as many characters as in a 1-turn one', async () => {
    const posted: number[] = [];
    for (const turns of [1, 40]) {
      const { webview, events } = await openedWith(turns);
      await webview.request('send', { conversationId: 'long', text: 'One more question' });
      await until(() => finished(events).length === 1, 3000, 'the answer');
      assert.equal(events.filter((event) => event.type === 'conversation').length, 0, 'the whole conversation was posted');
      const turnEvents = events.filter((event): event is TurnChanged => event.type === 'turnChanged');
      assert.equal(turnEvents.length, 1);
      const [turn] = turnEvents;
      assert.equal(turn!.from, turns * 2);
      assert.equal(turn!.previousCount, turns * 2);
      assert.deepEqual(
        turn!.messages.map((entry) => [entry.role, entry.content]),
        [
          ['user', 'One more question'],
          ['assistant', ''],
        ],
      );
      posted.push(structuralChars(events));
    }
    assert.ok(posted[1]! < posted[0]! + 100, `characters posted: ${posted.join(' and ')}`);
  });

  it('Retry, Regenerate and an edit post the last turn from its question, and nothing before it', async () => {
    const { webview, events } = await openedWith(40);
    const lastTurn = () => events.filter((event): event is TurnChanged => event.type === 'turnChanged').at(-1)!;

    const { messageId } = await webview.request('retry', { conversationId: 'long', messageId: 'a40' });
    await until(() => finished(events).length === 1, 3000, 'the retried answer');
    assert.deepEqual([lastTurn().from, lastTurn().previousCount], [78, 80]);
    assert.deepEqual(
      lastTurn().messages.map((entry) => entry.id),
      ['u40', messageId],
    );

    const { messageIds } = await webview.request('regenerate', { conversationId: 'long' });
    await until(() => finished(events).length === 2, 3000, 'the regenerated answer');
    assert.deepEqual(
      lastTurn().messages.map((entry) => entry.id),
      ['u40', ...messageIds],
    );

    await webview.request('editLastUserMessage', { conversationId: 'long', text: 'Question 40, put better' });
    await until(() => finished(events).length === 3, 3000, 'the answer to the edit');
    assert.equal(lastTurn().from, 78);
    assert.equal(lastTurn().messages[0]!.content, 'Question 40, put better');
    assert.ok(structuralChars(events) < 2_000, 'no earlier answer was posted again');
  });

  it('the webview takes a turn only when it holds what the host had before it, and only one turn of entries with ids', () => {
    const turn = { from: 4, previousCount: 4, messages: [userEntry({ id: 'u3' }), answerEntry({ id: 'a3', replyTo: 'u3' })] };
    assert.equal(turnChangeFits(turn, 4), true);
    assert.equal(turnChangeFits(turn, 3), false, 'a message missed');
    assert.equal(turnChangeFits({ ...turn, from: 5 }, 4), false, 'from past the end');
    assert.equal(turnChangeFits({ ...turn, from: -1 }, 4), false);
    assert.equal(turnChangeFits({ ...turn, from: 1.5 }, 4), false);
    assert.equal(turnChangeFits({ ...turn, messages: 'nope' }, 4), false);
    assert.equal(turnChangeFits({ ...turn, messages: Array.from({ length: maxTurnEntries + 1 }, (_, i) => answerEntry({ id: `a${i}` })) }, 4), false, 'more than one turn');
    assert.equal(turnChangeFits({ ...turn, messages: [{ role: 'user' }] }, 4), false, 'an entry without an id');
    assert.equal(turnChangeFits({ ...turn, messages: [userEntry({ id: 'x'.repeat(500) })] }, 4), false, 'an overlong id');
    assert.equal(turnChangeFits({ ...turn, messages: [null] }, 4), false);
  });
});
