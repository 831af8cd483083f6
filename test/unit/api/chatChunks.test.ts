import assert from 'node:assert/strict';
import { accumulateChat, ChatAccumulator, ChatChunkDecoder, decodeChatStream, isPlatformError } from '../../../src/api';
import type { ChatCompletionChunk } from '../../../src/api/types';

const context = { api: 'inference', method: 'POST', path: '/v1/chat/completions' } as const;
const encode = (text: string) => new TextEncoder().encode(text);

function chunk(delta: ChatCompletionChunk['choices'][number]['delta'], finish: string | null = null): ChatCompletionChunk {
  return { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] };
}

describe('chat chunk decoding', () => {
  const decoder = new ChatChunkDecoder(context);

  it('reads [DONE] as the end of the stream', () => {
    assert.equal(decoder.decode('[DONE]'), null);
    assert.equal(decoder.decode(' [DONE] '), null);
  });

  it('turns an error object sent as an event into a PlatformError', () => {
    assert.throws(
      () => decoder.decode('{"error":{"message":"Engine overloaded","type":"server_error","code":503}}'),
      (error: unknown) =>
        isPlatformError(error) && error.kind === 'http' && error.status === 503 && error.message.includes('Engine overloaded') && error.method === 'POST',
    );
  });

  it('rejects an event that is not a JSON object as an invalid response', () => {
    assert.throws(() => decoder.decode('{"id": "x", "choi'), (error: unknown) => isPlatformError(error) && error.kind === 'invalid-response');
    assert.throws(() => decoder.decode('[1,2]'), (error: unknown) => isPlatformError(error) && error.kind === 'invalid-response');
  });

  it('gives a usage chunk without choices an empty list', () => {
    const usage = decoder.decode('{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}}');
    assert.deepEqual(usage?.choices, []);
  });

  it('stops at [DONE] and reports whether it came', () => {
    const complete = decodeChatStream([encode(`data: ${JSON.stringify(chunk({ content: 'a' }))}\n\ndata: [DONE]\n\ndata: ${JSON.stringify(chunk({ content: 'ignored' }))}\n\n`)]);
    assert.equal(complete.done, true);
    assert.equal(complete.chunks.length, 1);
    const cut = decodeChatStream([encode(`data: ${JSON.stringify(chunk({ content: 'a' }))}\n\n`)]);
    assert.equal(cut.done, false);
    assert.equal(cut.chunks.length, 1);
  });
});

describe('accumulateChat', () => {
  it('folds content, reasoning, finish reason and usage', () => {
    const chunks = [
      chunk({ role: 'assistant', content: '' }),
      chunk({ reasoning: 'think ' }),
      chunk({ reasoning: 'more' }),
      chunk({ content: 'Hello' }),
      chunk({ content: null }),
      chunk({ content: ', world' }),
      chunk({}, 'stop'),
      { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [], usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 } } as ChatCompletionChunk,
    ];
    assert.deepEqual(accumulateChat(chunks), {
      id: 'chatcmpl-1',
      model: 'm',
      content: 'Hello, world',
      reasoning: 'think more',
      finishReason: 'stop',
      usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 },
    });
  });

  it('keeps choice 0 only when several are streamed', () => {
    const accumulator = new ChatAccumulator();
    accumulator.add({ ...chunk({ content: 'zero' }), choices: [{ index: 0, delta: { content: 'zero' }, finish_reason: null }, { index: 1, delta: { content: 'one' }, finish_reason: null }] });
    assert.equal(accumulator.result.content, 'zero');
  });

  it('gives an empty answer for no chunks', () => {
    assert.deepEqual(accumulateChat([]), { content: '', reasoning: '' });
  });
});
