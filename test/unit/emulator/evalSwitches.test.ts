/**
 * The switches an evaluation run is tested and measured with: `n` answers a request, a fixed
 * latency of chat completions, and a deterministic rate limit answering 429 with Retry-After.
 */
import assert from 'node:assert/strict';
import { startEmulator } from '../../emulator';
import type { Emulator } from '../../emulator/contract';
import { applyRateLimit, setRateLimit } from '../../emulator/rateLimit';
import { EmulatorState } from '../../emulator/state';
import { call } from './client';

const MODEL = 'meta-llama/Llama-3.1-8B-Instruct';
const questions = Array.from({ length: 40 }, (_, index) => `What is ${index + 3} + ${index * 7}?`);
const ask = (emulator: Emulator, question: string, api: 'training' | 'inference' = 'inference', model = MODEL) =>
  call(emulator, api, 'POST', '/chat/completions', { body: { model, messages: [{ role: 'user', content: question }], seed: 1, temperature: 1 } });

/** Waits for a condition, a turn of the event loop at a time, for at most 5 seconds. */
async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('the condition never came true');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('emulator: evaluation switches', () => {
  let emulator: Emulator;
  before(async () => {
    emulator = await startEmulator({ secondsPerStep: 0.01 });
  });
  afterEach(() => {
    emulator.setRateLimit(undefined);
    emulator.setCompletionLatency(0);
  });
  after(() => emulator.close());

  describe('n', () => {
    it('answers n choices with their indexes and counts the prompt once in usage', async () => {
      const answer = await call(emulator, 'inference', 'POST', '/chat/completions', { body: { model: MODEL, messages: [{ role: 'user', content: 'What is 2 + 2?' }], n: 5, seed: 4 } });
      assert.equal(answer.status, 200, answer.text);
      assert.deepEqual(
        answer.json.choices.map((choice: { index: number }) => choice.index),
        [0, 1, 2, 3, 4],
      );
      const single = await call(emulator, 'inference', 'POST', '/chat/completions', { body: { model: MODEL, messages: [{ role: 'user', content: 'What is 2 + 2?' }], seed: 4 } });
      assert.equal(answer.json.choices[0].message.content, single.json.choices[0].message.content, 'the first draw is the answer without n');
      assert.equal(answer.json.usage.prompt_tokens, single.json.usage.prompt_tokens);
    });

    it('streams every choice under its index', async () => {
      const answer = await call(emulator, 'training', 'POST', '/chat/completions', {
        body: { model: 'OpenPipe/Qwen3-14B-Instruct', messages: [{ role: 'user', content: '/echo same' }], n: 3, stream: true },
      });
      const texts = ['', '', ''];
      const finished: number[] = [];
      for (const line of answer.text.split(/\r?\n/)) {
        if (!line.startsWith('data: {')) continue;
        for (const choice of JSON.parse(line.slice(6)).choices as { index: number; delta: { content?: string }; finish_reason: string | null }[]) {
          texts[choice.index] += choice.delta.content ?? '';
          if (choice.finish_reason) finished.push(choice.index);
        }
      }
      assert.deepEqual(texts, ['same', 'same', 'same']);
      assert.deepEqual(finished, [0, 1, 2]);
    });

    it('refuses n outside 1 to 64 in the API error shape', async () => {
      const inference = await call(emulator, 'inference', 'POST', '/chat/completions', { body: { model: MODEL, messages: [{ role: 'user', content: 'hi' }], n: 0 } });
      assert.equal(inference.status, 400);
      assert.match(inference.json.error.message, /between 1 and 64/);
      const training = await call(emulator, 'training', 'POST', '/chat/completions', { body: { model: 'OpenPipe/Qwen3-14B-Instruct', messages: [{ role: 'user', content: 'hi' }], n: 65 } });
      assert.equal(training.status, 422);
      assert.deepEqual(training.json.detail[0].loc, ['body', 'n']);
    });
  });

  describe('rate limit', () => {
    it('answers the same fraction of requests 429 with Retry-After every time, and lets each through on its retry', async () => {
      emulator.setRateLimit({ fraction: 0.3, retryAfterSeconds: 2 });
      const before = emulator.rateLimitedCount();
      const first = await Promise.all(questions.map((question) => ask(emulator, question)));
      const limited = questions.filter((_, index) => first[index]!.status === 429);
      assert.ok(limited.length >= 4 && limited.length <= 20, `${limited.length} of 40 limited`);
      for (const answer of first) {
        if (answer.status === 200) continue;
        assert.equal(answer.status, 429);
        assert.equal(answer.headers.get('retry-after'), '2');
        assert.equal(answer.json.error.code, 'rate_limit_exceeded');
      }
      assert.equal(emulator.rateLimitedCount() - before, limited.length);
      for (const question of limited) assert.equal((await ask(emulator, question)).status, 200, `retry of ${question}`);

      // Set again, the limit picks the very same requests, in any order.
      emulator.setRateLimit({ fraction: 0.3, retryAfterSeconds: 2 });
      const again = await Promise.all([...questions].reverse().map(async (question) => ((await ask(emulator, question)).status === 429 ? question : undefined)));
      assert.deepEqual(again.filter((question) => question !== undefined).reverse(), limited);
    });

    it('limits a request `times` times in a row, on the training API too', async () => {
      emulator.setRateLimit({ fraction: 1, retryAfterSeconds: 0, times: 2 });
      const statuses = [];
      for (let attempt = 0; attempt < 3; attempt++) statuses.push((await ask(emulator, questions[0]!, 'training', 'OpenPipe/Qwen3-14B-Instruct')).status);
      assert.deepEqual(statuses, [429, 429, 200]);
      const limited = await ask(emulator, questions[1]!, 'training', 'OpenPipe/Qwen3-14B-Instruct');
      assert.equal(limited.headers.get('retry-after'), '0');
      assert.match(limited.json.detail, /Rate limit/);
    });

    it('remembers at most 10,000 limited requests that were never retried', () => {
      const state = new EmulatorState();
      setRateLimit(state, { fraction: 1 });
      for (let index = 0; index < 10_001; index++) assert.throws(() => applyRateLimit(state, `body ${index}`), /Rate limit/);
      assert.ok(state.rateLimit.attempts.size <= 10_000, String(state.rateLimit.attempts.size));
      assert.equal(state.rateLimit.answered, 10_001);
    });

    it('is set, shown and lifted through the control endpoint, which refuses values out of range', async () => {
      for (const bad of [{ fraction: 2 }, { fraction: 0.5, retryAfterSeconds: 1.5 }, { fraction: 0.5, times: 0 }, { retryAfterSeconds: 1 }]) {
        assert.equal((await call(emulator, 'control', 'POST', '/rate-limit', { body: bad })).status, 400, JSON.stringify(bad));
      }
      assert.equal((await call(emulator, 'control', 'POST', '/rate-limit', { body: { fraction: 1, retryAfterSeconds: 3 } })).status, 200);
      assert.equal((await ask(emulator, 'What is 1 + 1?')).status, 429);
      const state = (await call(emulator, 'control', 'GET', '/state')).json;
      assert.deepEqual(state.rateLimit, { fraction: 1, retryAfterSeconds: 3, times: 1 });
      assert.equal(state.rateLimited, emulator.rateLimitedCount());
      assert.equal((await call(emulator, 'control', 'DELETE', '/rate-limit')).status, 200);
      assert.equal((await ask(emulator, 'What is 1 + 1?')).status, 200);
      assert.equal((await call(emulator, 'control', 'GET', '/state')).json.rateLimit, null);
      assert.throws(() => emulator.setRateLimit({ fraction: -1 }), /fraction/);
    });
  });

  describe('completion latency', () => {
    it('is set and shown through the control endpoint, which refuses a negative one', async () => {
      assert.equal((await call(emulator, 'control', 'POST', '/completion-latency', { body: { ms: -1 } })).status, 400);
      assert.equal((await call(emulator, 'control', 'POST', '/completion-latency', { body: { ms: 5 } })).status, 200);
      assert.equal((await call(emulator, 'control', 'GET', '/state')).json.completionLatencyMs, 5);
      assert.equal((await ask(emulator, 'What is 1 + 1?')).status, 200);
    });

    it('holds chat completions only: other requests answer meanwhile, and closing drops the held one', async () => {
      const held = await startEmulator({ secondsPerStep: 0.01, completionLatencyMs: 600_000 });
      try {
        const chat = ask(held, 'What is 1 + 1?').then(
          (answer) => `answered ${answer.status}`,
          () => 'dropped',
        );
        await until(() => held.requests.some((request) => request.path.endsWith('/chat/completions')));
        // The completion has arrived (it is recorded) and is held; the models list answers meanwhile.
        assert.equal((await call(held, 'inference', 'GET', '/models')).status, 200);
        await held.close();
        assert.equal(await chat, 'dropped');
      } finally {
        await held.close();
      }
    });
  });
});
