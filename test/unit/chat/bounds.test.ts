import assert from 'node:assert/strict';
import type { ChatCompletionChunk } from '../../../src/platform/client/types';
import { createConversation } from '../../../src/chat/model/conversation';
import { ConversationStore, ConversationTooLargeError } from '../../../src/chat/model/conversationStore';
import type { AnswerEntry, Conversation } from '../../../src/chat/model/conversationTypes';
import { cutNotice, describeChars, maxAnswerChars } from '../../../src/chat/model/limits';
import { parseConversation } from '../../../src/chat/model/persistence';
import { chatParams as params } from '../../../src/chat/protocol';
import { RateLimit } from '../../../src/chat/model/rateLimit';
import { RpcEndpoint } from '../../../src/platform/pages/rpc';
import { parseWireMessage, ProtocolError } from '../../../src/platform/pages/wire';
import { SaveScheduler } from '../../../src/chat/model/saveScheduler';
import { runStream } from '../../../src/chat/model/streamRun';
import { WebviewGuards } from '../../../src/chat/model/webviewGuards';
import { FakeClock } from '../support/fakeClock';
import { conversationWithAnswer, shownLength, textReceiver } from './fixtures';
import { chunk, MemoryStorage, testEnv } from './support';

/** Chunks of `size` characters, forever, counting how many were taken. */
function endless(size: number, field: 'content' | 'reasoning' = 'content') {
  const state = { taken: 0, returned: false };
  const text = 'x'.repeat(size);
  const stream: AsyncIterable<ChatCompletionChunk> = {
    [Symbol.asyncIterator]: () => ({
      next: async () => {
        state.taken++;
        return { done: false, value: field === 'content' ? chunk(text) : chunk('', { reasoning: text }) };
      },
      return: async () => {
        state.returned = true;
        return { done: true, value: undefined };
      },
    }),
  };
  return { stream, state };
}

describe('chat bounds', () => {
  describe('answer length limit', () => {
    it('cuts an endless answer at the limit, keeps the text, stops reading and asks for the abort once', async () => {
      const { stream, state } = endless(1000);
      const receiver = textReceiver();
      let limitCalls = 0;
      const abort = new AbortController();
      const outcome = await runStream(stream, {
        signal: abort.signal,
        onDelta: receiver.onDelta,
        limits: { content: 10_500, reasoning: 100 },
        onLimit: () => {
          limitCalls++;
          abort.abort();
        },
      });
      assert.equal(outcome.status, 'stopped');
      assert.deepEqual(outcome.cut, { part: 'answer', limitChars: 10_500 });
      assert.equal(receiver.text.content.length, 10_500, 'exactly the kept text is passed on');
      assert.equal(limitCalls, 1);
      assert.equal(state.taken, 11);
      assert.equal(state.returned, true, 'the stream was released');
    });

    it('cuts reasoning at its own limit', async () => {
      const { stream } = endless(64, 'reasoning');
      const receiver = textReceiver();
      const outcome = await runStream(stream, { signal: new AbortController().signal, onDelta: receiver.onDelta, limits: { content: 1000, reasoning: 100 } });
      assert.deepEqual(outcome.cut, { part: 'reasoning', limitChars: 100 });
      assert.equal(receiver.text.reasoning.length, 100);
      assert.equal(outcome.status, 'stopped');
    });

    it('never splits a surrogate pair at the cut', async () => {
      const receiver = textReceiver();
      await runStream(
        (async function* () {
          yield chunk('ab😀cd');
        })(),
        { signal: new AbortController().signal, onDelta: receiver.onDelta, limits: { content: 3, reasoning: 10 } },
      );
      assert.equal(receiver.text.content, 'ab');
    });

    it('ignores text fields that are not strings', async () => {
      const odd = { ...chunk(''), choices: [{ index: 0, delta: { content: { toString: () => 'object' } }, finish_reason: null }] } as unknown as ChatCompletionChunk;
      const receiver = textReceiver();
      await runStream(
        (async function* () {
          yield odd;
          yield chunk('fine');
        })(),
        { signal: new AbortController().signal, onDelta: receiver.onDelta },
      );
      assert.equal(receiver.text.content, 'fine');
    });

    it('says where the answer was cut, in words', () => {
      assert.equal(cutNotice({ part: 'answer', limitChars: maxAnswerChars }), 'The answer was cut at 1 MiB; RL Studio stopped the request.');
      assert.equal(describeChars(200 * 1024), '200 KiB');
      assert.equal(describeChars(1500), '1,500 characters');
    });

    it('stores and reads back where an answer was cut', () => {
      const conversation = conversationWithAnswer({ content: 'x', status: 'stopped', cut: { part: 'answer', limitChars: 5 } });
      const answer = conversation.messages[1] as AnswerEntry;
      const read = parseConversation(JSON.stringify(conversation))!;
      assert.deepEqual((read.messages[1] as AnswerEntry).cut, { part: 'answer', limitChars: 5 });
      const odd = parseConversation(JSON.stringify({ ...conversation, messages: [conversation.messages[0], { ...answer, cut: { part: 'all', limitChars: 'x' } }] }))!;
      assert.equal((odd.messages[1] as AnswerEntry).cut, undefined);
    });
  });

  describe('conversation saves', () => {
    function scheduler(options: { minIntervalMs?: number; charsPerSecond?: number; chars?: number } = {}) {
      const clock = new FakeClock(0);
      const written: string[] = [];
      const saves = new SaveScheduler({
        write: async (conversation) => {
          written.push(conversation.draft);
          return options.chars ?? 100;
        },
        minIntervalMs: options.minIntervalMs ?? 5_000,
        charsPerSecond: options.charsPerSecond,
        clock,
      });
      return { saves, clock, written };
    }

    it('coalesces changes into one pending write that carries the latest state', async () => {
      const { saves, clock, written } = scheduler();
      const conversation = createConversation(testEnv());
      for (let i = 0; i < 100; i++) {
        conversation.draft = `draft ${i}`;
        saves.schedule(conversation, 300);
      }
      assert.deepEqual(clock.delays(), [300]);
      await clock.advance(300);
      assert.deepEqual(written, ['draft 99']);
    });

    it('waits the interval after a write, and longer after a large one', async () => {
      const small = scheduler();
      const conversation = createConversation(testEnv());
      await small.saves.writeNow(conversation);
      await small.clock.advance(1_000);
      small.saves.schedule(conversation, 300);
      assert.deepEqual(small.clock.delays(), [4_000], 'five seconds after the previous write');

      const large = scheduler({ chars: 8 * 1024 * 1024, charsPerSecond: 256 * 1024 });
      await large.saves.writeNow(conversation);
      large.saves.schedule(conversation, 300);
      assert.deepEqual(large.clock.delays(), [32_000], '8 MiB at 256 KiB/s');
    });

    it('counts a write from its start, so a change during a slow write still waits', async () => {
      const clock = new FakeClock(0);
      let finish!: () => void;
      const saves = new SaveScheduler({
        write: () => new Promise<number>((resolve) => (finish = () => resolve(10))),
        clock,
      });
      const conversation = createConversation(testEnv());
      const writing = saves.writeNow(conversation);
      await clock.advance(2_000);
      saves.schedule(conversation, 300);
      assert.deepEqual(clock.delays(), [3_000]);
      finish();
      await writing;
    });

    it('writes a pending change at once when flushed', async () => {
      const { saves, clock, written } = scheduler();
      const conversation = createConversation(testEnv());
      conversation.draft = 'unsent';
      saves.schedule(conversation, 500);
      await saves.flush();
      assert.deepEqual(written, ['unsent']);
      assert.deepEqual(clock.delays(), []);
    });
  });

  describe('stored conversation size', () => {
    function bigConversation(reasoning: number, content: number): Conversation {
      return conversationWithAnswer({ content: 'c'.repeat(content), reasoning: 'r'.repeat(reasoning) });
    }

    it('stores a document over the limit without its reasoning, and keeps the reasoning in memory', async () => {
      const storage = new MemoryStorage();
      const store = new ConversationStore(storage, 5_000);
      const conversation = bigConversation(6_000, 1_000);
      const chars = await store.save(conversation);
      assert.ok(chars <= 5_000);
      const stored = parseConversation(storage.files.get(`conversation-${conversation.id}.json`))!;
      assert.equal((stored.messages[1] as AnswerEntry).reasoning, '');
      assert.equal((stored.messages[1] as AnswerEntry).content.length, 1_000);
      assert.equal((conversation.messages[1] as AnswerEntry).reasoning.length, 6_000);
      assert.equal(store.storedChars(conversation.id), chars);
    });

    it('refuses to write a document still over the limit and leaves the previous file as it was', async () => {
      const storage = new MemoryStorage();
      const store = new ConversationStore(storage, 5_000);
      const conversation = bigConversation(0, 1_000);
      await store.save(conversation);
      const before = storage.files.get(`conversation-${conversation.id}.json`);
      (conversation.messages[1] as AnswerEntry).content = 'c'.repeat(6_000);
      await assert.rejects(store.save(conversation), ConversationTooLargeError);
      assert.equal(storage.files.get(`conversation-${conversation.id}.json`), before);
    });
  });

  describe('messages from the webview', () => {
    it('reads only own properties: inherited and prototype keys are never taken for params', () => {
      const inherited = Object.create({ text: 'inherited', conversationId: 'c' }) as Record<string, unknown>;
      assert.throws(() => params.string(inherited, 'text', 10), ProtocolError);
      assert.equal(params.optionalId(inherited, 'conversationId'), undefined);
      const hostile = JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}, "text": "ok"}');
      assert.equal(params.string(hostile, 'text', 10), 'ok');
      assert.throws(() => params.string(hostile, 'constructor', 10), ProtocolError);
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
    });

    it('validates shown lengths and settings from the webview', () => {
      assert.deepEqual(params.shownLengths({ shown: [shownLength('m', 3)] }), [shownLength('m', 3)]);
      assert.throws(() => params.shownLengths({ shown: [shownLength('m', -1)] }), ProtocolError);
      assert.throws(() => params.shownLengths({ shown: 'all' }), ProtocolError);
      const settings = params.settings({ settings: { model: 'a', compareModel: 7, compare: 'yes', parameters: { temperature: 0.5 } } });
      assert.deepEqual(settings, { models: ['a', ''], compare: false, systemPrompt: '', parameters: { temperature: 0.5 } });
    });

    it('builds settings from checked fields only, with every string bounded', () => {
      const settings = params.settings(
        JSON.parse(
          '{"settings": {"model": "m", "__proto__": {"compare": true}, "parameters": {"__proto__": {"temperature": 1}, "stop": ["a", 5, "' +
            'b'.repeat(600) +
            '", "c", "d", "e"], "seed": "' +
            '9'.repeat(100) +
            '"}}}',
        ),
      );
      assert.equal(settings.compare, false);
      assert.equal(Object.getPrototypeOf(settings.parameters), Object.prototype);
      assert.equal(Object.prototype.hasOwnProperty.call(settings.parameters, 'temperature'), false);
      assert.deepEqual(settings.parameters.stop, ['a', 'b'.repeat(500), 'c']);
      assert.equal(settings.parameters.seed, undefined, 'a long string is not a number typed in a form');
      assert.throws(() => params.settings({ settings: { model: 'm'.repeat(2_000) } }), /too long/);
      assert.throws(() => params.settings({ settings: { systemPrompt: 's'.repeat(200_001) } }), /too long/);
      assert.throws(() => params.shownLengths({ shown: Array.from({ length: 9 }, () => shownLength('m', 0)) }), ProtocolError);
    });

    it('handles a bounded number of requests at once and refuses the rest with an error reply', async () => {
      const replies: { id: number; ok: boolean; code?: string }[] = [];
      const release: (() => void)[] = [];
      const endpoint = new RpcEndpoint<Record<string, never>, { wait: { params: unknown; result: null } }, never, never>({
        post: (message) => {
          if (message.kind === 'reply') replies.push({ id: message.id, ok: message.ok, code: message.ok ? undefined : message.error.code });
        },
        handlers: { wait: () => new Promise<null>((resolve) => release.push(() => resolve(null))) },
        maxConcurrentIncoming: 4,
      });
      for (let id = 1; id <= 10; id++) endpoint.receive({ kind: 'request', id, method: 'wait', params: {} });
      assert.deepEqual(
        replies.map((reply) => [reply.id, reply.code]),
        [5, 6, 7, 8, 9, 10].map((id) => [id, 'too-many-requests']),
      );
      for (const done of release.splice(0)) done();
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(replies.filter((reply) => reply.ok).length, 4);
      endpoint.receive({ kind: 'request', id: 11, method: 'wait', params: {} });
      assert.equal(release.length, 1, 'a slot is free again');
    });

    it('reads wire messages by own properties only', () => {
      assert.equal(parseWireMessage(Object.create({ kind: 'request', id: 1, method: 'send' })), undefined);
      assert.equal(parseWireMessage([]), undefined);
      const reply = parseWireMessage({ kind: 'reply', id: 1, ok: false, error: { message: 'm'.repeat(5_000), code: 'c' } });
      assert.equal(reply?.kind === 'reply' && !reply.ok && reply.error.message.length, 2_000);
    });
  });

  describe('rate limits', () => {
    it('allows a burst, then one action per refill period', () => {
      let clock = 0;
      const limit = new RateLimit(3, 1_000, { now: () => clock });
      assert.deepEqual([limit.take(), limit.take(), limit.take(), limit.take()], [true, true, true, false]);
      clock = 999;
      assert.equal(limit.take(), false);
      clock = 1_000;
      assert.deepEqual([limit.take(), limit.take()], [true, false]);
      clock = 100_000;
      assert.deepEqual([limit.take(), limit.take(), limit.take(), limit.take()], [true, true, true, false], 'never more than the burst');
    });

    it('refuses a flood of one action, one dialog at a time, and logs a bounded number of problems', async () => {
      const logged: string[] = [];
      let clock = 0;
      const guards = new WebviewGuards((problem) => logged.push(problem), { now: () => clock });
      let refused = 0;
      for (let i = 0; i < 100; i++) {
        try {
          guards.action('openLink');
        } catch (error) {
          assert.equal((error as ProtocolError).code, 'rate-limited');
          refused++;
        }
      }
      assert.equal(refused, 95);
      guards.action('copyText');

      let close!: (value: boolean) => void;
      const first = guards.dialog(() => new Promise<boolean>((resolve) => (close = resolve)));
      await assert.rejects(
        guards.dialog(async () => true),
        (error: unknown) => (error as ProtocolError).code === 'busy',
      );
      close(true);
      assert.equal(await first, true);
      assert.equal(await guards.dialog(async () => 'again'), 'again');

      for (let i = 0; i < 1_000; i++) guards.log(`problem ${i}`);
      assert.equal(logged.length, 21);
      assert.match(logged.at(-1)!, /more problems than are logged/);

      assert.equal(guards.refreshAllowed(), true);
      assert.equal(guards.refreshAllowed(), false);
      clock = 2_000;
      assert.equal(guards.refreshAllowed(), true);
    });
  });
});
