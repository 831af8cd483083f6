import assert from 'node:assert/strict';
import { PlatformError } from '../../../src/platform/client/errors';
import type { ChatCompletionChunk } from '../../../src/platform/client/types';
import { runStream } from '../../../src/chat/model/streamRun';
import { textReceiver } from './fixtures';
import { chunk, until, usageChunk } from './support';

async function* fromArray(chunks: ChatCompletionChunk[], error?: Error): AsyncGenerator<ChatCompletionChunk> {
  for (const item of chunks) yield item;
  if (error) throw error;
}

/** A clock whose time advances by `step` ms per reading. */
function steppingClock(step: number) {
  let now = 0;
  return { now: () => (now += step) };
}

describe('streamed answer runner', () => {
  it('passes on every text delta, folds reasoning apart and reads the usage chunk', async () => {
    const deltas: [string, string][] = [];
    const outcome = await runStream(
      fromArray([chunk('', { reasoning: 'think ' }), chunk('Hel'), chunk('lo', { finish: 'stop' }), usageChunk({ prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 })]),
      { signal: new AbortController().signal, onDelta: (c, r) => deltas.push([c, r]), clock: steppingClock(100) },
    );
    assert.deepEqual(deltas, [
      ['', 'think '],
      ['Hel', ''],
      ['lo', ''],
    ]);
    assert.equal(outcome.status, 'done');
    assert.equal(outcome.finishReason, 'stop');
    assert.deepEqual(outcome.usage, { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 });
    // clock readings: start 100, first token 200, (2 more deltas without readings), end 300
    assert.equal(outcome.stats.ttftMs, 100);
    assert.equal(outcome.stats.totalMs, 200);
    assert.equal(outcome.stats.tokensPerSecond, 20);
    assert.equal(outcome.stats.usageReported, true);
  });

  it('keeps the text received before a cut stream and reports the error beside it', async () => {
    const cut = new PlatformError({ kind: 'stream-cut', api: 'inference', method: 'POST', path: '/v1/chat/completions', message: 'the stream ended before [DONE]' });
    const receiver = textReceiver();
    const outcome = await runStream(fromArray([chunk('partial '), chunk('answer')], cut), { signal: new AbortController().signal, onDelta: receiver.onDelta });
    assert.equal(outcome.status, 'error');
    assert.equal(receiver.text.content, 'partial answer');
    assert.equal(outcome.error?.kind, 'stream-cut');
    assert.equal(outcome.error?.retryable, true);
    assert.equal(outcome.stats.usageReported, false);
    assert.equal(outcome.stats.streamedChunks, 2);
  });

  it('ends at the moment of Stop even when the source never answers again, and passes on nothing after it', async () => {
    const abort = new AbortController();
    let released = false;
    const source: AsyncIterable<ChatCompletionChunk> = {
      [Symbol.asyncIterator]() {
        let sent = 0;
        return {
          next: () => {
            if (sent++ === 0) return Promise.resolve({ done: false, value: chunk('first') });
            return new Promise(() => undefined); // a read that never completes
          },
          return: async () => {
            released = true;
            return { done: true, value: undefined };
          },
        };
      },
    };
    const deltas: string[] = [];
    const running = runStream(source, { signal: abort.signal, onDelta: (c) => deltas.push(c) });
    await until(() => deltas.length === 1, 3000, 'the first chunk');
    abort.abort();
    // The source's pending read never settles: had Stop waited for it, this would never resolve.
    const outcome = await running;
    assert.equal(outcome.status, 'stopped');
    assert.deepEqual(deltas, ['first']);
    assert.ok(released, 'the source was told to stop reading');
  });

  it('drops a chunk the source delivers after Stop', async () => {
    const abort = new AbortController();
    const deltas: string[] = [];
    async function* source(): AsyncGenerator<ChatCompletionChunk> {
      yield chunk('a');
      abort.abort();
      yield chunk('b');
      yield chunk('c');
    }
    const outcome = await runStream(source(), { signal: abort.signal, onDelta: (c) => deltas.push(c) });
    assert.deepEqual(deltas, ['a']);
    assert.equal(outcome.status, 'stopped');
  });

  it('reports stopped, not failed, when the cancelled request throws its abort error', async () => {
    const abort = new AbortController();
    async function* source(): AsyncGenerator<ChatCompletionChunk> {
      yield chunk('a');
      abort.abort();
      throw Object.assign(new Error('aborted'), { kind: 'aborted' });
    }
    const outcome = await runStream(source(), { signal: abort.signal, onDelta: () => undefined });
    assert.equal(outcome.status, 'stopped');
    assert.equal(outcome.error, undefined);
  });

  it('maps HTTP failures to readable, actionable footers', async () => {
    const fail = (status: number, retryAfterMs?: number) =>
      runStream(
        fromArray([], new PlatformError({ kind: 'http', api: 'inference', method: 'POST', path: '/v1/chat/completions', message: `POST /chat/completions failed: ${status}`, status, retryAfterMs })),
        {
          signal: new AbortController().signal,
          onDelta: () => undefined,
        },
      );
    const unauthorized = await fail(401);
    assert.equal(unauthorized.error?.action, 'signIn');
    assert.equal(unauthorized.error?.retryable, false);
    assert.match((await fail(402)).error!.message, /quota .*\(402\)/);
    assert.match((await fail(403)).error!.message, /\(403\).*region/);
    const limited = await fail(429, 2500);
    assert.equal(limited.error!.message, 'Too many requests (429): the platform asked RL Studio to slow down. Try again in 3 s.');
    assert.equal(limited.error?.kind, 'rate-limited');
    assert.equal(limited.error?.retryable, true);
    assert.equal((await fail(503)).error!.message, 'The inference API is temporarily unavailable (503).');
  });
});
