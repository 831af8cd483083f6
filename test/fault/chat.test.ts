/**
 * The chat against hostile parties: a model server whose answer never ends, and a compromised
 * webview that posts whatever it likes. Every case runs the real ChatController (and, where a
 * server is involved, the real platform client over a socket on 127.0.0.1).
 * Hostile Markdown (SVG, MathML, mutation XSS, javascript: links) rendered in a real browser is
 * covered in test/unit/chat/webview.browser.test.ts ("renders hostile markup inert…").
 */
import assert from 'node:assert/strict';
import { cutNotice, maxAnswerChars } from '../../src/chat/model/limits';
import { until } from '../unit/chat/support';
import { createHostileChat, type RawReply } from './support/chatHostileWebview';
import { faultModel, startSseServer, type SseServer } from './support/chatSseServer';
import { measure } from './support/measure';

const mebi = 1024 * 1024;

describe('chat against hostile parties', function () {
  this.timeout(30_000);

  describe('a model server whose answer never ends', () => {
    let server: SseServer;
    afterEach(async () => server?.close());

    it('a 50 MB answer without [DONE]: cut at 1 MiB, the request aborted (the server sees the socket close), the footer says so, heap and writes bounded', async () => {
      server = await startSseServer({ totalBytes: 50 * mebi });
      const chat = createHostileChat(server.baseUrl, faultModel);
      try {
        const ready = await chat.request('ready', {});
        const conversationId = (ready.result as { conversation: { id: string } }).conversation.id;
        const { result: answer, measurement } = await measure(async () => {
          const sent = await chat.request('send', { conversationId, text: 'Tell me everything.' });
          assert.equal(sent.ok, true, JSON.stringify(sent.error));
          await until(() => chat.events.answers.length === 1, 20_000, 'the answer to end');
          return chat.events.answers[0]!.answer;
        });
        const closedEarly = await server.completions[0]!.closed;
        const sent = server.completions[0]!.bytesWritten;
        const written = [...chat.storage.charsWritten.values()].reduce((sum, chars) => sum + chars, 0);
        console.log(
          `      server wrote ${(sent / mebi).toFixed(1)} MiB before the close; heap +${measurement.peakHeapGrowthMiB.toFixed(1)} MiB; longest stall ${measurement.maxEventLoopDelayMs.toFixed(0)} ms; ${(written / mebi).toFixed(2)} Mi characters stored`,
        );

        assert.equal(answer.status, 'stopped');
        assert.equal(answer.content.length, maxAnswerChars, 'the text up to the limit is kept');
        assert.deepEqual(answer.cut, { part: 'answer', limitChars: maxAnswerChars });
        assert.equal(cutNotice(answer.cut as never), 'The answer was cut at 1 MiB; RL Studio stopped the request.');
        assert.ok(chat.events.deltaChars <= maxAnswerChars, 'the webview was sent no text past the limit');
        assert.equal(closedEarly, true, 'the client closed the connection');
        assert.ok(sent < 16 * mebi, `the server could write ${sent} bytes`);
        assert.ok(measurement.peakHeapGrowthMiB < 48, `heap grew by ${measurement.peakHeapGrowthMiB.toFixed(1)} MiB`);
        assert.ok(measurement.maxEventLoopDelayMs < 2_000, `the event loop stalled for ${measurement.maxEventLoopDelayMs.toFixed(0)} ms`);
        assert.ok(written < 4 * mebi, `${written} characters of conversation were written`);
        assert.equal(server.completions.length, 1);
      } finally {
        await chat.close();
      }
    });
  });

  describe('a compromised webview', () => {
    let server: SseServer;
    let chat: ReturnType<typeof createHostileChat>;
    let conversationId: string;

    beforeEach(async () => {
      // Slow and endless: a started answer is still running when the burst arrives.
      server = await startSseServer({ totalBytes: 50 * mebi, chunkChars: 16, chunkDelayMs: 20 });
      chat = createHostileChat(server.baseUrl, faultModel);
      const ready = await chat.request('ready', {});
      conversationId = (ready.result as { conversation: { id: string } }).conversation.id;
    });
    afterEach(async () => {
      await chat?.close();
      await server?.close();
    });

    it('javascript:, file:, command:, vscode:, data: and other links: none reaches the editor, each refused in the reply', async () => {
      const refusedUnopened = [
        'javascript:alert(1)',
        ' JaVaScRiPt:alert(1)',
        'java\nscript:alert(1)',
        'file:///etc/passwd',
        'command:workbench.action.terminal.new',
        'command:rlStudio.signIn?%5B%22key%22%5D',
        'vscode:extension/evil.extension',
        'vscode-insiders://evil',
        'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
        'vbscript:msgbox(1)',
        'mailto:someone@example.com',
        '//evil.invalid/path',
        'https://user:password@example.com/',
      ];
      for (const href of refusedUnopened) {
        const reply = await chat.request('openLink', { href });
        assert.deepEqual([reply.ok, reply.result], [true, { opened: false }], href);
      }
      // Too long to be looked at: refused as a malformed request.
      const long = await chat.request('openLink', { href: `https://example.com/${'a'.repeat(10_000)}` });
      assert.deepEqual([long.ok, long.error?.code], [false, 'too-long']);
      assert.deepEqual(chat.ui.opened, []);
      const safe = await chat.request('openLink', { href: 'https://example.com/docs' });
      assert.deepEqual(safe.result, { opened: true });
      assert.deepEqual(chat.ui.opened, ['https://example.com/docs']);
    });

    it('a 10 MB insert, copy, send, draft, system prompt and id: each refused with an error reply, nothing reaches the editor or the server', async () => {
      const huge = 'x'.repeat(10 * mebi);
      const cases: [string, unknown][] = [
        ['insertText', { text: huge }],
        ['copyText', { text: huge }],
        ['send', { conversationId, text: huge }],
        ['editLastUserMessage', { conversationId, text: huge }],
        ['saveDraft', { conversationId, text: huge }],
        ['updateSettings', { conversationId, settings: { model: faultModel, systemPrompt: huge } }],
        ['updateSettings', { conversationId, settings: { model: huge } }],
        ['openConversation', { conversationId: huge }],
        ['renameConversation', { conversationId: huge }],
        ['stop', { conversationId, shown: Array.from({ length: 100_000 }, () => ({ messageId: 'm', contentLength: 0, reasoningLength: 0 })) }],
      ];
      for (const [method, params] of cases) {
        const reply = await chat.request(method, params);
        assert.equal(reply.ok, false, method);
        assert.ok(reply.error!.message.length < 300, `${method}: the error message is short`);
      }
      assert.deepEqual([chat.ui.inserted, chat.ui.copied], [[], []]);
      assert.equal(server.completions.length, 0);
      const stored = [...chat.storage.files.values()].reduce((sum, text) => sum + text.length, 0);
      assert.ok(stored < 100_000, `${stored} characters stored`);
    });

    it('1,000 sends in a burst: one request reaches the server, every other send gets an error reply', async () => {
      const ids = Array.from({ length: 1_000 }, () => chat.freshId());
      for (const [index, id] of ids.entries()) chat.post({ kind: 'request', id, method: 'send', params: { conversationId, text: `message ${index}` } });
      const replies = await Promise.all(ids.map((id) => chat.replyTo(id)));
      const accepted = replies.filter((reply) => reply.ok);
      const refused = replies.filter((reply) => !reply.ok);
      assert.equal(accepted.length, 1);
      assert.equal(refused.length, 999);
      // The channel lets 32 requests at once through to the chat, which takes the first and finds
      // itself busy for the other 31; the channel refuses the rest before they reach the chat.
      const codes = refused.map((reply) => reply.error!.code);
      assert.deepEqual([codes.filter((code) => code === 'busy').length, codes.filter((code) => code === 'too-many-requests').length], [31, 968], JSON.stringify([...new Set(codes)]));
      await until(() => server.completions.length === 1, 5_000, 'the one request');
      const stop = await chat.request('stop', { conversationId, shown: [] });
      assert.equal(stop.ok, true);
      assert.equal(await server.completions[0]!.closed, true, 'Stop closed the request');
      assert.equal(server.completions.length, 1, 'no other request was started');
    });

    it('__proto__ and constructor keys in methods, params and settings: nothing polluted, every request answered, the chat keeps working', async () => {
      const raw = (json: string) => JSON.parse(json) as unknown;
      const id = () => chat.freshId();
      const posted: number[] = [];
      const postRequest = (method: string, params: string) => {
        const requestId = id();
        posted.push(requestId);
        chat.post(raw(`{"kind":"request","id":${requestId},"method":${JSON.stringify(method)},"params":${params}}`));
      };
      for (const method of ['__proto__', 'constructor', 'hasOwnProperty', 'toString', '__defineGetter__', 'valueOf']) postRequest(method, '{}');
      postRequest(
        'updateSettings',
        `{"conversationId":"${conversationId}","settings":{"__proto__":{"polluted":true},"model":"${faultModel}","parameters":{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}}}`,
      );
      postRequest('send', `{"__proto__":{"conversationId":"${conversationId}","text":"inherited","polluted":true}}`);
      postRequest('openLink', '{"__proto__":{"href":"https://example.com/inherited"}}');
      postRequest('saveDraft', `{"conversationId":"${conversationId}","text":"ok","constructor":{"prototype":{"polluted":true}}}`);
      chat.post(raw('{"__proto__":{"kind":"request","id":999999,"method":"send"}}'));
      chat.post(raw('{"kind":"event","event":{"__proto__":{"type":"log"},"type":"log","message":{"__proto__":{"polluted":true}}}}'));
      const replies = await Promise.all(posted.map((requestId) => chat.replyTo(requestId)));

      assert.equal(({} as Record<string, unknown>).polluted, undefined);
      assert.equal((Object.prototype as Record<string, unknown>).polluted, undefined);
      assert.equal(Object.getPrototypeOf({}), Object.prototype);
      for (const reply of replies.slice(0, 6)) assert.deepEqual([reply.ok, reply.error?.code], [false, 'unknown-method']);
      const settings = replies[6]!;
      assert.equal(settings.ok, true);
      assert.equal(Object.prototype.hasOwnProperty.call((settings.result as { parameters: object }).parameters, 'polluted'), false);
      assert.equal(replies[7]!.ok, false, 'params inherited through __proto__ are not params');
      assert.equal(replies[8]!.ok, false);
      assert.equal(replies[9]!.ok, true);
      assert.equal(chat.replies.has(999999), false, 'a message whose fields are all inherited is not a request');
      assert.deepEqual(chat.ui.opened, []);
      assert.equal(server.completions.length, 0);
      const again = await chat.request('openConversation', { conversationId });
      assert.equal(again.ok, true, 'the chat still answers');
    });

    it('unknown methods, malformed payloads and junk messages: an error reply for each request, never a crash, a bounded log', async () => {
      const requests: [unknown, unknown][] = [
        ['eval', {}],
        ['', {}],
        ['x'.repeat(100_000), {}],
        ['send', null],
        ['send', []],
        ['send', 42],
        ['send', 'text'],
        ['send', { conversationId: 42, text: 'hi' }],
        ['send', { conversationId, text: { toString: 'hi' } }],
        ['stop', { conversationId, shown: 'all' }],
        ['stop', { conversationId, shown: [{ messageId: 'm', contentLength: -1, reasoningLength: Number.NaN }] }],
        ['updateSettings', { conversationId, settings: 'none' }],
        ['exportConversation', { conversationId, format: 'pdf' }],
        ['runAction', { action: 'rm -rf /' }],
        ['openConversation', { conversationId: '../../etc/passwd' }],
      ];
      const ids: number[] = [];
      for (const [method, params] of requests) {
        const id = chat.freshId();
        ids.push(id);
        chat.post({ kind: 'request', id, method, params });
      }
      const replies: RawReply[] = await Promise.all(ids.map((id) => chat.replyTo(id)));
      for (const [index, reply] of replies.entries()) {
        assert.equal(reply.ok, false, `request ${index} was refused`);
        assert.ok(reply.error!.message.length <= 300, 'a short error');
      }
      assert.equal(replies[0]!.error!.code, 'unknown-method');
      assert.ok(replies[2]!.error!.message.length < 100, 'the long method name is not echoed back whole');

      // Junk that is not a request: ignored, and the log gets a bounded part of it.
      const junk: unknown[] = [null, undefined, 7, 'text', [], { kind: 'request' }, { kind: 'request', id: -1, method: 'send' }, { kind: 'reply', id: 12345, ok: true }, { kind: 'event', event: 'x' }];
      for (let i = 0; i < 2_000; i++) chat.post(junk[i % junk.length]);
      for (let i = 0; i < 2_000; i++) chat.post({ kind: 'event', event: { type: 'log', level: 'error', message: 'y'.repeat(10_000) } });
      assert.ok(chat.problems.length <= 25, `${chat.problems.length} lines logged`);
      assert.ok(chat.problems.every((line) => line.length <= 600));
      const again = await chat.request('openConversation', { conversationId });
      assert.equal(again.ok, true, 'the chat still answers');
      assert.equal(server.completions.length, 0);
    });
  });
});
