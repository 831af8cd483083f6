import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import type { DiffSpan } from '../../../src/platform/kit/wordDiff';
import { maxEditTokens, wordDiff } from '../../../src/platform/kit/wordDiff';

function sides(spans: DiffSpan[]): { from: string; to: string } {
  return {
    from: spans
      .filter((span) => span.kind !== 'added')
      .map((span) => span.text)
      .join(''),
    to: spans
      .filter((span) => span.kind !== 'removed')
      .map((span) => span.text)
      .join(''),
  };
}

function assertWellFormed(spans: DiffSpan[], from: string, to: string): void {
  assert.deepEqual(sides(spans), { from, to });
  for (let at = 1; at < spans.length; at++) assert.notEqual(spans[at]!.kind, spans[at - 1]!.kind, 'adjacent spans of one kind are merged');
  for (const span of spans) assert.notEqual(span.text, '', 'no empty span');
}

describe('word diff', () => {
  it('marks the one changed word, the rest the same', () => {
    assert.deepEqual(wordDiff('The answer is 4.', 'The answer is 5.'), [
      { kind: 'same', text: 'The answer is ' },
      { kind: 'removed', text: '4' },
      { kind: 'added', text: '5' },
      { kind: 'same', text: '.' },
    ]);
  });

  it('shows an insertion in the middle as one added span', () => {
    assert.deepEqual(wordDiff('one two three', 'one two and a half three'), [
      { kind: 'same', text: 'one two ' },
      { kind: 'added', text: 'and a half ' },
      { kind: 'same', text: 'three' },
    ]);
  });

  it('finds the words kept between changes (Myers, not only a common beginning and end)', () => {
    assert.deepEqual(wordDiff('alpha beta gamma delta', 'beta gamma epsilon'), [
      { kind: 'removed', text: 'alpha ' },
      { kind: 'same', text: 'beta gamma ' },
      { kind: 'removed', text: 'delta' },
      { kind: 'added', text: 'epsilon' },
    ]);
  });

  it('joins changes separated by white space only into one removal and one addition', () => {
    assert.deepEqual(wordDiff('a b c', 'x y z'), [
      { kind: 'removed', text: 'a b c' },
      { kind: 'added', text: 'x y z' },
    ]);
  });

  it('compares words of any script and emoji as whole tokens', () => {
    assert.deepEqual(wordDiff('naïve café 😀 größer', 'naïve cafe 😀 größer'), [
      { kind: 'same', text: 'naïve ' },
      { kind: 'removed', text: 'café' },
      { kind: 'added', text: 'cafe' },
      { kind: 'same', text: ' 😀 größer' },
    ]);
    assert.deepEqual(wordDiff('日本語 の 文', '日本語 が 文'), [
      { kind: 'same', text: '日本語 ' },
      { kind: 'removed', text: 'の' },
      { kind: 'added', text: 'が' },
      { kind: 'same', text: ' 文' },
    ]);
  });

  it('handles empty and identical sides', () => {
    assert.deepEqual(wordDiff('', ''), []);
    assert.deepEqual(wordDiff('', 'new text'), [{ kind: 'added', text: 'new text' }]);
    assert.deepEqual(wordDiff('old text', ''), [{ kind: 'removed', text: 'old text' }]);
    assert.deepEqual(wordDiff('same words\n', 'same words\n'), [{ kind: 'same', text: 'same words\n' }]);
  });

  it('gives up (undefined) when either side has more tokens than the cap, and not at the cap', () => {
    // "a b c" is 5 tokens: a, space, b, space, c.
    assert.ok(wordDiff('a b c', 'a b d', 5));
    assert.equal(wordDiff('a b c d', 'a', 5), undefined);
    assert.equal(wordDiff('a', 'a b c d', 5), undefined);
    assert.equal(wordDiff('word '.repeat(1_600), 'word', undefined), undefined, 'the default cap is detailLimits.maxDiffWords (3,000 tokens)');
  });

  it('falls back to one removal and one addition when the middles differ in more than the edits searched', () => {
    const from = Array.from({ length: maxEditTokens }, (_, at) => `a${at}`).join(' ');
    const to = Array.from({ length: maxEditTokens }, (_, at) => `b${at}`).join(' ');
    const spans = wordDiff(`start ${from} end`, `start ${to} end`)!;
    assert.deepEqual(spans, [
      { kind: 'same', text: 'start ' },
      { kind: 'removed', text: from },
      { kind: 'added', text: to },
      { kind: 'same', text: ' end' },
    ]);
  });

  it('always gives back both texts exactly, with no empty or unmerged spans (property)', () => {
    const word = fc.constantFrom('the', 'cat', 'sat', 'on', 'mat', 'é', '😀', '42', ',', '.', ' ', '  ', '\n', '"');
    const text = fc.array(word, { maxLength: 40 }).map((words) => words.join(''));
    fc.assert(
      fc.property(text, text, (from, to) => {
        const spans = wordDiff(from, to);
        assert.ok(spans);
        assertWellFormed(spans, from, to);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps every shared token of a small edit (the difference is the smallest one)', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { minLength: 1, maxLength: 30 }), fc.nat(29), fc.constantFrom('x', 'y'), (words, at, inserted) => {
        const from = words.join(' ');
        const changed: string[] = [...words];
        changed.splice(Math.min(at, changed.length), 0, inserted);
        const to = changed.join(' ');
        const spans = wordDiff(from, to)!;
        assertWellFormed(spans, from, to);
        const removed = spans
          .filter((span) => span.kind === 'removed')
          .map((span) => span.text.replace(/\s/g, ''))
          .join('');
        const added = spans
          .filter((span) => span.kind === 'added')
          .map((span) => span.text.replace(/\s/g, ''))
          .join('');
        // One inserted word: nothing of `from` removed but the white space folded into the change.
        assert.equal(added.length - removed.length, 1, JSON.stringify(spans));
      }),
      { numRuns: 300 },
    );
  });
});
