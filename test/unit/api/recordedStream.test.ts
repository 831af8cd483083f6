import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { accumulateChat, decodeChatStream } from '../../../src/api';
import { repositoryRoot } from './support/harness';

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
  const whole = decodeChatStream([bytes]);

  it('decodes to the answer it was recorded from', () => {
    assert.equal(whole.done, true);
    assert.equal(whole.chunks.length, expected.chunkCount);
    const answer = accumulateChat(whole.chunks);
    assert.equal(answer.id, expected.id);
    assert.equal(answer.model, expected.model);
    assert.equal(answer.reasoning, expected.reasoning);
    assert.equal(answer.content, expected.content);
    assert.equal(answer.finishReason, expected.finishReason);
    assert.deepEqual(answer.usage, expected.usage);
    assert.deepEqual(whole.chunks.at(-1)?.choices, [], 'the usage chunk has no choices');
  });

  it('decodes identically when split into two reads at every byte offset', () => {
    for (let offset = 1; offset < bytes.length; offset++) {
      const split = decodeChatStream([bytes.subarray(0, offset), bytes.subarray(offset)]);
      assert.equal(split.done, true, `split at ${offset}`);
      assert.deepEqual(split.chunks, whole.chunks, `split at ${offset}`);
    }
  });

  it('decodes identically when read one byte at a time', () => {
    const single = decodeChatStream(Array.from(bytes, (byte) => Uint8Array.of(byte)));
    assert.equal(single.done, true);
    assert.deepEqual(single.chunks, whole.chunks);
  });

  it('decodes identically in reads of every size from 2 to 64 bytes', () => {
    for (let size = 2; size <= 64; size++) {
      const reads: Uint8Array[] = [];
      for (let start = 0; start < bytes.length; start += size) reads.push(bytes.subarray(start, start + size));
      assert.deepEqual(decodeChatStream(reads).chunks, whole.chunks, `reads of ${size} bytes`);
    }
  });
});
