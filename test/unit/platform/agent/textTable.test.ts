import * as assert from 'node:assert/strict';
import { formatFigure, formatSignedFigure, joinCapped, stepRange, textTable } from '../../../../src/platform/agent/textTable';

describe('text for a language model', () => {
  it('prints metrics with three significant digits, whole numbers whole, extremes in short exponent form', () => {
    assert.deepEqual([0.123456, 1.23456, 9123.4, 9123, 1e-5, 1.2345e-5, 2.5e7 + 0.5, 0, NaN, Infinity, -0.31].map(formatFigure), [
      '0.123',
      '1.23',
      '9120',
      '9123',
      '1e-5',
      '1.23e-5',
      '2.5e+7',
      '0',
      'NaN',
      'Infinity',
      '-0.31',
    ]);
    assert.deepEqual([0.31, -0.31, 0].map(formatSignedFigure), ['+0.31', '-0.31', '0']);
    assert.equal(stepRange('model step', 30, 39), 'model steps 30–39');
    assert.equal(stepRange('job step', 4, 4), 'job step 4');
  });

  it('aligns a table and cuts long cells', () => {
    assert.deepEqual(
      textTable(
        ['step', 'loss'],
        [
          ['1', '0.5'],
          ['100', 'x'.repeat(30)],
        ],
      ),
      ['step | loss', '1    | 0.5', `100  | ${'x'.repeat(23)}…`],
    );
  });

  it('cuts a long quoted cell inside its quotes, so the quote still closes', () => {
    const [header] = textTable(['step', '"reward\\n- job succeeded and more"'], [['1', '0.5']]);
    assert.equal(header, 'step | "reward\\n- job succeed…"');
  });

  it('keeps whole lines within the cap and says how many it left out', () => {
    const lines = Array.from({ length: 50 }, (_, index) => `line ${index} ${'.'.repeat(20)}`);
    const text = joinCapped(lines, 200);
    assert.ok(text.length <= 200, `${text.length}`);
    const kept = text.split('\n');
    assert.deepEqual(kept.slice(0, -1), lines.slice(0, kept.length - 1));
    assert.equal(kept.at(-1), `… ${50 - (kept.length - 1)} more lines`);
    assert.equal(joinCapped(['a', 'b'], 200), 'a\nb');
    assert.equal(joinCapped(['only line'], 200), 'only line');
  });

  it('cuts a first line longer than the cap rather than returning nothing', () => {
    const text = joinCapped(['y'.repeat(500), 'second'], 100);
    assert.ok(text.length <= 100, `${text.length}`);
    assert.deepEqual(text.split('\n'), [`${'y'.repeat(100 - '… 1 more line'.length - 2)}…`, '… 1 more line']);
    assert.equal(joinCapped(['z'.repeat(500)], 100), `${'z'.repeat(99)}…`);
  });
});
