import assert from 'node:assert/strict';
import { startEmulator } from '../../emulator';
import type { Emulator } from '../../emulator/contract';
import { countTokens } from '../../emulator/tokenizer';
import { call } from './client';

const MODEL = 'OpenPipe/Qwen3-14B-Instruct';
const REASONING_MODEL = 'deepseek-ai/DeepSeek-R1-reasoning-demo';

interface StreamResult {
  raw: string;
  chunks: any[];
  done: boolean;
  comments: string[];
}

function parseSse(raw: string): StreamResult {
  const result: StreamResult = { raw, chunks: [], done: false, comments: [] };
  for (const block of raw.split(/\r?\n\r?\n/)) {
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith(':')) result.comments.push(line.slice(1).trim());
      else if (line === 'data: [DONE]') result.done = true;
      else if (line.startsWith('data: ')) result.chunks.push(JSON.parse(line.slice(6)));
    }
  }
  return result;
}

async function stream(emulator: Emulator, api: 'training' | 'inference', body: Record<string, unknown>): Promise<StreamResult & { contentType: string | null }> {
  const answer = await call(emulator, api, 'POST', '/chat/completions', { body: { ...body, stream: true } });
  assert.equal(answer.status, 200, answer.text);
  return { ...parseSse(answer.text), contentType: answer.headers.get('content-type') };
}

const joined = (chunks: any[], field: 'content' | 'reasoning') => chunks.map((chunk) => chunk.choices[0]?.delta?.[field] ?? '').join('');

describe('emulator: chat completions', () => {
  let emulator: Emulator;
  before(async () => {
    emulator = await startEmulator({ secondsPerStep: 0.01 });
  });
  after(() => emulator.close());

  it('answers with a chat.completion whose usage matches the text', async () => {
    const messages = [
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'How should I shape rewards?' },
    ];
    const answer = await call(emulator, 'inference', 'POST', '/chat/completions', { body: { model: MODEL, messages } });
    assert.equal(answer.status, 200);
    const completion = answer.json;
    assert.match(completion.id, /^chatcmpl-/);
    assert.equal(completion.object, 'chat.completion');
    assert.equal(completion.model, MODEL);
    assert.equal(typeof completion.created, 'number');
    const choice = completion.choices[0];
    assert.equal(choice.message.role, 'assistant');
    assert.equal(choice.finish_reason, 'stop');
    assert.match(choice.message.content, /^## /m, 'a heading');
    assert.match(choice.message.content, /^- /m, 'a list');
    assert.match(choice.message.content, /```/, 'a code block');
    assert.deepEqual(completion.usage, {
      prompt_tokens: countTokens('You are terse.') + countTokens('How should I shape rewards?'),
      completion_tokens: countTokens(choice.message.content),
      total_tokens: completion.usage.prompt_tokens + completion.usage.completion_tokens,
    });
  });

  it('is deterministic for the same model, prompt and seed, and varies with them', async () => {
    const ask = async (model: string, content: string, seed?: number) =>
      (await call(emulator, 'inference', 'POST', '/chat/completions', { body: { model, messages: [{ role: 'user', content }], ...(seed === undefined ? {} : { seed }) } })).json.choices[0].message
        .content;
    assert.equal(await ask(MODEL, 'same question'), await ask(MODEL, 'same question'));
    const variants = new Set([
      await ask(MODEL, 'same question'),
      await ask(MODEL, 'other question'),
      await ask('meta-llama/Llama-3.1-8B-Instruct', 'same question'),
      await ask(MODEL, 'same question', 7),
    ]);
    assert.equal(variants.size, 4);
  });

  it('honours max_tokens with finish_reason length', async () => {
    const answer = await call(emulator, 'inference', 'POST', '/chat/completions', { body: { model: MODEL, messages: [{ role: 'user', content: 'explain' }], max_tokens: 5 } });
    assert.equal(answer.json.choices[0].finish_reason, 'length');
    assert.equal(answer.json.usage.completion_tokens, 5);
    assert.equal(countTokens(answer.json.choices[0].message.content), 5);
  });

  it('stops before a stop sequence', async () => {
    const answer = await call(emulator, 'inference', 'POST', '/chat/completions', {
      body: { model: MODEL, messages: [{ role: 'user', content: '/echo alpha beta STOP gamma' }], stop: ['STOP', 'never'] },
    });
    assert.equal(answer.json.choices[0].message.content, 'alpha beta ');
    assert.equal(answer.json.choices[0].finish_reason, 'stop');
  });

  it('echoes exactly and produces long answers of the asked length', async () => {
    const hostile = '<img src=x onerror=alert(1)> **bold** `code` ünïcödé 🎉\n```\nfence';
    const echo = await call(emulator, 'inference', 'POST', '/chat/completions', { body: { model: MODEL, messages: [{ role: 'user', content: `/echo ${hostile}` }] } });
    assert.equal(echo.json.choices[0].message.content, hostile);
    const long = await call(emulator, 'inference', 'POST', '/chat/completions', { body: { model: MODEL, messages: [{ role: 'user', content: '/long 1500' }] } });
    assert.equal(long.json.usage.completion_tokens, 1500);
    assert.equal(countTokens(long.json.choices[0].message.content), 1500);
  });

  it('returns a JSON object for response_format json_object', async () => {
    const answer = await call(emulator, 'inference', 'POST', '/chat/completions', {
      body: { model: MODEL, messages: [{ role: 'user', content: 'classify this' }], response_format: { type: 'json_object' } },
    });
    const parsed = JSON.parse(answer.json.choices[0].message.content);
    assert.equal(typeof parsed, 'object');
    assert.ok(!Array.isArray(parsed));
  });

  it('adds reasoning for reasoning models', async () => {
    const answer = await call(emulator, 'inference', 'POST', '/chat/completions', { body: { model: REASONING_MODEL, messages: [{ role: 'user', content: 'think' }] } });
    const message = answer.json.choices[0].message;
    assert.equal(typeof message.reasoning, 'string');
    assert.ok(message.reasoning.length > 0);
    assert.equal(answer.json.usage.completion_tokens, countTokens(message.reasoning) + countTokens(message.content));
    const plain = await call(emulator, 'inference', 'POST', '/chat/completions', { body: { model: MODEL, messages: [{ role: 'user', content: 'think' }] } });
    assert.equal(plain.json.choices[0].message.reasoning, undefined);
  });

  it('serves trained checkpoints on the training API, by step or latest, with and without trailing slash', async () => {
    const seeded = emulator.seeded!;
    const base = `wandb-artifact:///${seeded.trainedModelEntity}/${seeded.trainedModelProject}/${seeded.trainedModelName}`;
    for (const [model, path] of [
      [`${base}:step3`, '/chat/completions'],
      [base, '/chat/completions/'],
      [MODEL, '/chat/completions'],
    ] as const) {
      const answer = await call(emulator, 'training', 'POST', path, { body: { model, messages: [{ role: 'user', content: 'hi' }] } });
      assert.equal(answer.status, 200, `${model} ${path}`);
      assert.equal(answer.json.model, model);
    }
    const missing = await call(emulator, 'training', 'POST', '/chat/completions', { body: { model: `${base}:step99999`, messages: [{ role: 'user', content: 'hi' }] } });
    assert.equal(missing.status, 404);
    assert.equal(typeof missing.json.detail, 'string');
  });

  it('answers an unknown inference model with model_not_found', async () => {
    const answer = await call(emulator, 'inference', 'POST', '/chat/completions', { body: { model: 'nobody/nothing', messages: [{ role: 'user', content: 'hi' }] } });
    assert.equal(answer.status, 404);
    assert.equal(answer.json.error.code, 'model_not_found');
  });

  it('streams role, content deltas, finish reason, usage and [DONE] with LF on the inference API', async () => {
    const body = { model: MODEL, messages: [{ role: 'user', content: 'stream please' }], stream_options: { include_usage: true } };
    const result = await stream(emulator, 'inference', body);
    assert.match(result.contentType ?? '', /^text\/event-stream/);
    assert.ok(!result.raw.includes('\r'), 'LF only');
    assert.ok(result.done);
    assert.ok(result.comments.includes('keep-alive'));
    const [first, ...rest] = result.chunks;
    assert.equal(first.choices[0].delta.role, 'assistant');
    const usageChunk = rest.at(-1);
    assert.deepEqual(usageChunk.choices, []);
    const finish = rest.at(-2);
    assert.equal(finish.choices[0].finish_reason, 'stop');
    const content = joined(result.chunks, 'content');
    const whole = await call(emulator, 'inference', 'POST', '/chat/completions', { body });
    assert.equal(content, whole.json.choices[0].message.content);
    assert.equal(usageChunk.usage.completion_tokens, countTokens(content));
    const deltas = result.chunks.slice(1, -2).map((chunk) => countTokens(chunk.choices[0].delta.content));
    assert.ok(deltas.length > 10 && deltas.every((count) => count >= 1 && count <= 3), 'one to three tokens a delta');
    for (const chunk of result.chunks) assert.equal(chunk.object, 'chat.completion.chunk');
  });

  it('streams with CRLF on the training API and leaves usage out unless asked', async () => {
    const result = await stream(emulator, 'training', { model: MODEL, messages: [{ role: 'user', content: '/echo crlf check' }] });
    assert.ok(result.raw.includes('\r\n\r\n'));
    assert.ok(!/[^\r]\n/.test(result.raw), 'every LF follows a CR');
    assert.equal(joined(result.chunks, 'content'), 'crlf check');
    assert.ok(result.chunks.every((chunk) => chunk.choices.length === 1 && chunk.usage === undefined));
    assert.ok(result.done);
  });

  it('streams reasoning deltas before content for reasoning models', async () => {
    const result = await stream(emulator, 'inference', { model: REASONING_MODEL, messages: [{ role: 'user', content: 'why?' }] });
    const firstContent = result.chunks.findIndex((chunk) => chunk.choices[0]?.delta?.content);
    const lastReasoning = result.chunks.map((chunk) => Boolean(chunk.choices[0]?.delta?.reasoning)).lastIndexOf(true);
    assert.ok(lastReasoning > 0 && lastReasoning < firstContent);
    assert.ok(joined(result.chunks, 'reasoning').length > 0);
  });

  it('stops a stream at max_tokens with finish_reason length', async () => {
    const result = await stream(emulator, 'inference', { model: MODEL, messages: [{ role: 'user', content: '/long 100' }], max_tokens: 7, stream_options: { include_usage: true } });
    assert.equal(countTokens(joined(result.chunks, 'content')), 7);
    assert.equal(result.chunks.at(-2).choices[0].finish_reason, 'length');
    assert.equal(result.chunks.at(-1).usage.completion_tokens, 7);
  });

  it('waits between chunks when asked to', async () => {
    const slow = await startEmulator({ seed: false, streamChunkDelayMs: 15 });
    try {
      const started = performance.now();
      const result = await stream(slow, 'inference', { model: MODEL, messages: [{ role: 'user', content: '/long 12' }] });
      assert.ok(performance.now() - started >= 15 * (result.chunks.length - 1) * 0.8);
    } finally {
      await slow.close();
    }
  });

  it('counts streams sent to the end and streams the client closed, with a delay set while running', async () => {
    const slow = await startEmulator({ seed: false });
    try {
      await stream(slow, 'inference', { model: MODEL, messages: [{ role: 'user', content: '/long 5' }] });
      assert.deepEqual(slow.streamStats(), { completed: 1, closedByClient: 0 });

      const delay = await fetch(`${slow.url}/_emulator/stream-delay`, { method: 'POST', body: JSON.stringify({ ms: 20 }) });
      assert.equal(delay.status, 200);
      const abort = new AbortController();
      const answer = await fetch(`${slow.inferenceUrl}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${slow.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: MODEL, stream: true, messages: [{ role: 'user', content: '/long 500' }] }),
        signal: abort.signal,
      });
      const reader = answer.body!.getReader();
      await reader.read();
      abort.abort();
      await reader.read().catch(() => undefined);
      const deadline = Date.now() + 5_000;
      while (slow.streamStats().closedByClient === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      assert.deepEqual(slow.streamStats(), { completed: 1, closedByClient: 1 });
      const state = (await (await fetch(`${slow.url}/_emulator/state`)).json()) as { streamChunkDelayMs: number; streams: unknown };
      assert.equal(state.streamChunkDelayMs, 20);
      assert.deepEqual(state.streams, { completed: 1, closedByClient: 1 });
    } finally {
      await slow.close();
    }
  });
});
