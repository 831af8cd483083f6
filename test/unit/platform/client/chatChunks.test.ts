import assert from 'node:assert/strict';
import { ChatChunkDecoder, isPlatformError } from '../../../../src/platform/client';

const context = { api: 'inference', method: 'POST', path: '/v1/chat/completions' } as const;

describe('chat chunk decoding', () => {
  const decoder = new ChatChunkDecoder(context);

  it('reads [DONE] as the end of the stream', () => {
    assert.equal(decoder.decode('[DONE]'), null);
    assert.equal(decoder.decode(' [DONE] '), null);
  });

  it('turns an error object sent as an event into a PlatformError', () => {
    assert.throws(
      () => decoder.decode('{"error":{"message":"Engine overloaded","type":"server_error","code":503}}'),
      (error: unknown) => isPlatformError(error) && error.kind === 'http' && error.status === 503 && error.message.includes('Engine overloaded') && error.method === 'POST',
    );
  });

  it('rejects an event that is not a JSON object as an invalid response', () => {
    assert.throws(
      () => decoder.decode('{"id": "x", "choi'),
      (error: unknown) => isPlatformError(error) && error.kind === 'invalid-response',
    );
    assert.throws(
      () => decoder.decode('[1,2]'),
      (error: unknown) => isPlatformError(error) && error.kind === 'invalid-response',
    );
  });

  it('gives a usage chunk without choices an empty list', () => {
    const usage = decoder.decode('{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}}');
    assert.deepEqual(usage?.choices, []);
  });
});
