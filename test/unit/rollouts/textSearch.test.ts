import * as assert from 'node:assert/strict';
import { rawPattern, searchGroups } from '../../../src/rollouts/model/textSearch';
import { chunksOf } from './rolloutFixtures';
import { conversation, groupOfConversations, pythonJson, summariesOfFile } from './viewFixtures';

/** Searches a file's text for the needle, with the summaries the reader makes of it. */
async function search(text: string, format: 'jsonl' | 'json', needle: string, chunkSize = 13): Promise<number[]> {
  const groups = await summariesOfFile(text, format);
  return [...(await searchGroups(chunksOf(text, chunkSize), format, groups, needle))];
}

const groups = [
  groupOfConversations([conversation('What is the capital of France?', 'It is Paris.'), conversation('What is the capital of France?', 'Lyon, I think.')]),
  groupOfConversations([conversation('Quote it', 'He said "hello world" and left.\nThen a back\\slash.')]),
  groupOfConversations([conversation('Spell it', 'Café au lait, naïve, Größe, 東京, 😀 done.')]),
  // "paris" only in metadata, a metric's name and a key: not in any message.
  groupOfConversations([conversation('Nothing here', 'Nothing at all.')], { metadata: { city: 'Paris' }, metrics: { paris: 1 } }),
];

describe('text search', () => {
  const jsonl = groups.map((group) => JSON.stringify(group)).join('\n') + '\n';

  it('finds groups whose messages hold the text, case-insensitively', async () => {
    assert.deepEqual(await search(jsonl, 'jsonl', 'paris'), [1, 0, 0, 0]);
    assert.deepEqual(await search(jsonl, 'jsonl', 'CAPITAL OF'), [1, 0, 0, 0]);
    assert.deepEqual(await search(jsonl, 'jsonl', 'nothing AT'), [0, 0, 0, 1]);
    assert.deepEqual(await search(jsonl, 'jsonl', 'tokyo'), [0, 0, 0, 0]);
  });

  it('does not count a match only in metadata, metrics or keys', async () => {
    assert.deepEqual(await search(jsonl, 'jsonl', 'Paris'), [1, 0, 0, 0]);
    assert.deepEqual(await search(jsonl, 'jsonl', 'finish_reason'), [0, 0, 0, 0]);
    assert.deepEqual(await search(jsonl, 'jsonl', 'city'), [0, 0, 0, 0]);
  });

  it('finds text with quotes, backslashes and line breaks, which the file holds escaped', async () => {
    assert.deepEqual(await search(jsonl, 'jsonl', 'said "hello'), [0, 1, 0, 0]);
    assert.deepEqual(await search(jsonl, 'jsonl', 'left.\nthen'), [0, 1, 0, 0]);
    assert.deepEqual(await search(jsonl, 'jsonl', 'back\\slash'), [0, 1, 0, 0]);
    assert.deepEqual(await search(jsonl, 'jsonl', 'said \\"hello'), [0, 0, 0, 0], 'the escape itself is not in the message');
  });

  it('finds characters beyond ASCII written as they are or as \\uXXXX (Python json.dumps), in either case', async () => {
    const ascii = groups.map((group) => pythonJson(group)).join('\n') + '\n';
    assert.ok(ascii.includes('Caf\\u00e9') && !ascii.includes('é'), 'the file is written as ensure_ascii writes it');
    for (const text of [jsonl, ascii]) {
      assert.deepEqual(await search(text, 'jsonl', 'café au'), [0, 0, 1, 0]);
      assert.deepEqual(await search(text, 'jsonl', 'CAFÉ AU'), [0, 0, 1, 0]);
      assert.deepEqual(await search(text, 'jsonl', 'größe'), [0, 0, 1, 0]);
      assert.deepEqual(await search(text, 'jsonl', '東京'), [0, 0, 1, 0]);
      assert.deepEqual(await search(text, 'jsonl', '😀 done'), [0, 0, 1, 0]);
      assert.deepEqual(await search(text, 'jsonl', 'cafe'), [0, 0, 0, 0]);
    }
  });

  it('finds text in tool calls and in additional histories', async () => {
    const withTools = groupOfConversations([
      [
        { role: 'user', content: 'List files' },
        {
          finish_reason: 'tool_calls',
          message: { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'list_dir', arguments: '{"path": "/srv/data"}' } }] },
        },
      ],
    ]);
    const withHistory = groupOfConversations([conversation('Hi', 'Hello')]);
    (withHistory.trajectories as Record<string, unknown>[])[0]!.additional_histories = [{ messages_and_choices: conversation('Secondary', 'A judge said yes') }];
    const withParts = groupOfConversations([
      [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Describe the picture' },
            { type: 'image_url', image_url: { url: 'data:x' } },
          ],
        },
      ],
    ]);
    const text = [withTools, withHistory, withParts].map((group) => JSON.stringify(group)).join('\n');
    assert.deepEqual(await search(text, 'jsonl', '"path": "/srv'), [1, 0, 0]);
    assert.deepEqual(await search(text, 'jsonl', 'list_dir'), [1, 0, 0]);
    assert.deepEqual(await search(text, 'jsonl', 'judge said'), [0, 1, 0]);
    assert.deepEqual(await search(text, 'jsonl', 'describe the'), [0, 0, 1]);
    assert.deepEqual(await search(text, 'jsonl', 'data:x'), [0, 0, 0], 'an image is not text');
  });

  it('reads a .json array of groups, pretty-printed', async () => {
    const json = JSON.stringify(groups, null, 2);
    assert.deepEqual(await search(json, 'json', 'paris'), [1, 0, 0, 0]);
    assert.deepEqual(await search(json, 'json', 'größe'), [0, 0, 1, 0]);
  });

  it('maps matches to group positions past blank lines and lines that are not groups', async () => {
    const lines = [JSON.stringify(groups[3]), '', 'not json at all: paris', '{"no": "trajectories", "content": "paris"}', JSON.stringify(groups[0]), JSON.stringify(groups[1])];
    const text = lines.join('\n');
    assert.equal((await summariesOfFile(text, 'jsonl')).length, 3);
    assert.deepEqual(await search(text, 'jsonl', 'paris'), [0, 1, 0]);
    assert.deepEqual(await search(text, 'jsonl', 'hello world'), [0, 0, 1]);
  });

  it('matches every group for an empty text', async () => {
    assert.deepEqual(await search(jsonl, 'jsonl', ''), [1, 1, 1, 1]);
  });

  it('tells how many bytes it has read, up to the whole file', async () => {
    const seen: number[] = [];
    const summaries = await summariesOfFile(jsonl, 'jsonl');
    await searchGroups(chunksOf(jsonl, 64), 'jsonl', summaries, 'paris', { onProgress: (bytes) => seen.push(bytes) });
    assert.ok(seen.length > 2);
    assert.deepEqual(
      seen,
      [...seen].sort((a, b) => a - b),
    );
    assert.equal(seen[seen.length - 1], Buffer.byteLength(jsonl));
  });

  it('stops when aborted, rejecting with the reason and reading no further', async () => {
    const summaries = await summariesOfFile(jsonl, 'jsonl');
    const controller = new AbortController();
    const reason = new Error('the search was replaced');
    let chunksRead = 0;
    async function* chunks(): AsyncGenerator<Uint8Array> {
      for await (const chunk of chunksOf(jsonl, 16)) {
        chunksRead++;
        yield chunk;
      }
    }
    const searching = searchGroups(chunks(), 'jsonl', summaries, 'paris', {
      signal: controller.signal,
      onProgress: (bytes) => {
        if (bytes >= 32) controller.abort(reason);
      },
    });
    await assert.rejects(searching, (error) => error === reason);
    const total = Math.ceil(Buffer.byteLength(jsonl) / 16);
    assert.ok(chunksRead < total, `read ${chunksRead} of ${total} chunks`);
    await assert.rejects(searchGroups(chunksOf(jsonl, 16), 'jsonl', summaries, 'x', { signal: AbortSignal.abort(reason) }), (error) => error === reason);
  });

  it("builds a raw pattern that finds every JSON writer's spelling of the needle", () => {
    const pattern = rawPattern('a"b\\c/d\té<');
    for (const written of ['a\\"b\\\\c/d\\té<', 'A\\"B\\\\C\\/D\\u0009\\u00C9\\u003c', 'a\\"b\\\\c/d\\tÉ<']) assert.ok(pattern.test(written), written);
    assert.equal(pattern.test('a"b\\c/d\té<'), false, 'the raw text of a JSON string always has the quote escaped');
  });
});
