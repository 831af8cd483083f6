import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { endingProbe, probeReach, repetitionRatio, repetitionWindow } from '../../../../src/platform/kit/repetition';

describe('repetition ratio', () => {
  it('is the share of word 4-grams that repeat an earlier one', () => {
    // 12 words, 9 4-grams, 4 distinct (one per starting word): 1 − 4/9.
    assert.equal(repetitionRatio('alpha beta gamma delta alpha beta gamma delta alpha beta gamma delta'), 1 - 4 / 9);
  });

  it('is 0 for text without repeats and for text too short to judge', () => {
    assert.equal(repetitionRatio('one two three four five six seven eight nine ten eleven twelve'), 0);
    // 10 words give 7 4-grams, under the 8 needed.
    assert.equal(repetitionRatio('go go go go go go go go go go'), 0);
    assert.equal(repetitionRatio(''), 0);
  });

  it('is 0 when the ending is not repeated, however repetitive the text before it', () => {
    const looped = 'alpha beta gamma delta '.repeat(10);
    assert.ok(repetitionRatio(looped) > 0.5);
    assert.equal(repetitionRatio(`${looped}and then the answer came out as a sentence of its own.`), 0);
  });

  it('is near 1 for a loop', () => {
    assert.ok(repetitionRatio('I will check again. '.repeat(40)) > 0.9);
  });

  it('measures only the end of a long text', () => {
    const prose = Array.from({ length: 2000 }, (_, index) => `word${index}`).join(' ');
    const loop = 'and then we loop '.repeat(Math.ceil(repetitionWindow / 17));
    assert.ok(repetitionRatio(`${loop} ${prose}`) === 0);
    assert.ok(repetitionRatio(`${prose} ${loop}`) > 0.9);
  });
});

describe('repetition ratio: how far the ending is looked for', () => {
  /** A loop unit of `length` characters, words that do not repeat inside it. */
  const unit = (length: number) =>
    `${Array.from({ length: 200 }, (_, index) => `w${index}`)
      .join(' ')
      .slice(0, length - 1)} `;

  it('finds a loop whose period is up to half the window', () => {
    assert.ok(repetitionRatio(unit(200).repeat(6)) > 0.5);
  });

  it('scores a loop with a longer period 0: under two periods fit in the window, so it could not reach 0.5', () => {
    const far = unit(300);
    assert.ok(far.length > probeReach - endingProbe && far.length < repetitionWindow - endingProbe);
    assert.equal(repetitionRatio(far.repeat(4)), 0);
  });
});

describe('repetition ratio: against a plain count', () => {
  /** 1 − distinct / total over the window's word 4-grams, compared as text, for a text whose ending repeats. */
  function plainRatio(text: string): number {
    const window = text.slice(Math.max(0, text.length - repetitionWindow));
    // Words as the measure takes them: runs of characters above U+0020 other than the two wide spaces.
    const words = window.split(/[\u0000-\u0020\u00a0\u3000]+/).filter((word) => word !== '');
    const wordChar = (char: string) => char.charCodeAt(0) > 0x20;
    if (text.length > repetitionWindow && wordChar(text[text.length - repetitionWindow - 1]!) && wordChar(window[0]!)) words.shift();
    const ngrams = words.slice(0, words.length - 3).map((_, index) => words.slice(index, index + 4).join(' '));
    return ngrams.length < 8 ? 0 : 1 - new Set(ngrams).size / ngrams.length;
  }

  it('counts distinct 4-grams as a set of their texts would, for loops of many shapes', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('go', 'the', 'answer', 'is', 'x', 'again.', 'ça'), { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 2, max: 80 }),
        fc.string({ maxLength: 40 }),
        (unit, times, prefix) => {
          const text = `${prefix} ${`${unit.join(' ')} `.repeat(times)}`;
          const ratio = repetitionRatio(text);
          if (ratio > 0) assert.equal(ratio, plainRatio(text));
        },
      ),
    );
  });
});
