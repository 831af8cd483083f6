import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { PlatformClient } from '../../../../src/platform/client';
import { answerOf, decodeReads, drain, repositoryRoot } from './support/harness';

const directory = join(repositoryRoot(), 'test', 'fixtures', 'streams');
const bytes = new Uint8Array(readFileSync(join(directory, 'chat-reasoning.sse')));
const expected = JSON.parse(readFileSync(join(directory, 'chat-reasoning.expected.json'), 'utf8')) as {
  chunkCount: number;
  id: string;
  model: string;
  reasoning: string;
  content: string;
  finishReason: string;
  usage: unknown;
};

describe('recorded chat stream', () => {
  const whole = decodeReads([bytes]);

  it('read through the client from a server that sends it, spells out the answer it was recorded from', async () => {
    const server = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.end(bytes);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const client = new PlatformClient({ trainingUrl: url, inferenceUrl: url, credentials: { getApiKey: async () => 'sk-recorded' }, maxRetries: 0, timeoutMs: 5_000 });
    try {
      const { chunks, error } = await drain(client.inference.streamChatCompletion({ model: expected.model, messages: [{ role: 'user', content: 'Bonjour' }] }));
      assert.equal(error, undefined);
      assert.equal(chunks.length, expected.chunkCount);
      assert.deepEqual(chunks, whole.chunks, 'the same chunks as the reads decoded here');
      assert.equal(chunks[0]?.id, expected.id);
      assert.equal(chunks[0]?.model, expected.model);
      const answer = await answerOf(chunks);
      assert.equal(answer.reasoning, expected.reasoning);
      assert.equal(answer.content, expected.content);
      assert.equal(answer.finishReason, expected.finishReason);
      assert.deepEqual(answer.usage, expected.usage);
      assert.deepEqual(chunks.at(-1)?.choices, [], 'the usage chunk has no choices');
    } finally {
      await client.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  // The client hands the parser whatever each socket read holds; here the reads are cut on purpose.
  it('decodes identically when split into two reads at every byte offset', () => {
    assert.equal(whole.done, true);
    for (let offset = 1; offset < bytes.length; offset++) {
      const split = decodeReads([bytes.subarray(0, offset), bytes.subarray(offset)]);
      assert.equal(split.done, true, `split at ${offset}`);
      assert.deepEqual(split.chunks, whole.chunks, `split at ${offset}`);
    }
  });

  it('decodes identically when read one byte at a time', () => {
    const single = decodeReads(Array.from(bytes, (byte) => Uint8Array.of(byte)));
    assert.equal(single.done, true);
    assert.deepEqual(single.chunks, whole.chunks);
  });

  it('decodes identically in reads of every size from 2 to 64 bytes', () => {
    for (let size = 2; size <= 64; size++) {
      const reads: Uint8Array[] = [];
      for (let start = 0; start < bytes.length; start += size) reads.push(bytes.subarray(start, start + size));
      assert.deepEqual(decodeReads(reads).chunks, whole.chunks, `reads of ${size} bytes`);
    }
  });
});
