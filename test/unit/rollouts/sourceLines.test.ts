import * as assert from 'node:assert/strict';
import { sourceLines } from '../../../src/platform/kit/sourceLines';
import { chunksOf, collect } from './rolloutFixtures';

describe('rollout source lines', () => {
  it('splits chunks into lines with numbers, byte offsets and byte lengths, across chunk edges, CRLF and multibyte characters', async () => {
    const text = 'ab\r\nçé€\n\nlast';
    for (const size of [1, 2, 3, 5, 64]) {
      const lines = await collect(sourceLines(chunksOf(text, size)));
      assert.deepEqual(
        lines,
        [
          // "ab" is 2 bytes; the CR is part of the line ending.
          { kind: 'line', line: 0, offset: 0, bytes: 2, end: 4, endLine: 1, terminated: true, text: 'ab' },
          // ç and é are 2 bytes each in UTF-8, € is 3.
          { kind: 'line', line: 1, offset: 4, bytes: 7, end: 12, endLine: 2, terminated: true, text: 'çé€' },
          { kind: 'line', line: 2, offset: 12, bytes: 0, end: 13, endLine: 3, terminated: true, text: '' },
          { kind: 'line', line: 3, offset: 13, bytes: 4, end: 17, endLine: 3, terminated: false, text: 'last' },
        ],
        `chunks of ${size}`,
      );
    }
  });

  it('gives back exactly the line text from a positioned read of bytes at offset', async () => {
    const text = '{"a":"ç"}\r\n{"b":"€€"}\n{"c":1}';
    const bytes = Buffer.from(text, 'utf8');
    for (const line of await collect(sourceLines(chunksOf(text, 3)))) {
      assert.ok(line.kind === 'line');
      assert.equal(bytes.subarray(line.offset, line.offset + line.bytes).toString('utf8'), line.text);
    }
  });

  it('goes on from a position: line numbers and offsets continue', async () => {
    const text = 'one\ntwo\nthree\n';
    const rest = await collect(sourceLines(chunksOf(text.slice(4), 2), { start: { line: 1, offset: 4 } }));
    assert.deepEqual(
      rest.map((line) => [line.line, line.offset, line.kind === 'line' ? line.text : '']),
      [
        [1, 4, 'two'],
        [2, 8, 'three'],
      ],
    );
  });

  it('skips a line over the cap, reports its size, and reads the lines after it', async () => {
    const text = `short\n${'x'.repeat(50)}\nnext\n`;
    const lines = await collect(sourceLines(chunksOf(text, 7), { maxLineBytes: 20 }));
    assert.deepEqual(lines, [
      { kind: 'line', line: 0, offset: 0, bytes: 5, end: 6, endLine: 1, terminated: true, text: 'short' },
      { kind: 'tooLong', line: 1, offset: 6, bytes: 50, end: 57, endLine: 2, terminated: true },
      { kind: 'line', line: 2, offset: 57, bytes: 4, end: 62, endLine: 3, terminated: true, text: 'next' },
    ]);
  });

  it('reports a last line over the cap that has no newline', async () => {
    const lines = await collect(sourceLines(chunksOf('y'.repeat(30), 4), { maxLineBytes: 10 }));
    assert.deepEqual(lines, [{ kind: 'tooLong', line: 0, offset: 0, bytes: 30, end: 30, endLine: 0, terminated: false }]);
  });
});
