import * as assert from 'node:assert/strict';
import { sourceLines } from '../../../src/rollouts/sourceLines';
import { chunksOf, collect } from './rolloutFixtures';

describe('rollout source lines', () => {
  it('splits chunks into lines with numbers and byte offsets, across chunk edges, CRLF and multibyte characters', async () => {
    const text = 'ab\r\nçé€\n\nlast';
    for (const size of [1, 2, 3, 5, 64]) {
      const lines = await collect(sourceLines(chunksOf(text, size)));
      assert.deepEqual(
        lines,
        [
          { kind: 'line', line: 0, offset: 0, text: 'ab' },
          { kind: 'line', line: 1, offset: 4, text: 'çé€' },
          { kind: 'line', line: 2, offset: 12, text: '' },
          { kind: 'line', line: 3, offset: 13, text: 'last' },
        ],
        `chunks of ${size}`,
      );
    }
  });

  it('skips a line over the cap, reports its size, and reads the lines after it', async () => {
    const text = `short\n${'x'.repeat(50)}\nnext\n`;
    const lines = await collect(sourceLines(chunksOf(text, 7), { maxLineBytes: 20 }));
    assert.deepEqual(lines, [
      { kind: 'line', line: 0, offset: 0, text: 'short' },
      { kind: 'tooLong', line: 1, offset: 6, bytes: 50 },
      { kind: 'line', line: 2, offset: 57, text: 'next' },
    ]);
  });

  it('reports a last line over the cap that has no newline', async () => {
    const lines = await collect(sourceLines(chunksOf('y'.repeat(30), 4), { maxLineBytes: 10 }));
    assert.deepEqual(lines, [{ kind: 'tooLong', line: 0, offset: 0, bytes: 30 }]);
  });
});
