import assert from 'node:assert/strict';
import { legibleSteps } from '../../../src/evals/page/scoreChart';

describe('the score chart step labels', () => {
  // 600 px for steps 0 to 100, as the chart draws them.
  const xOf = (step: number): number => 40 + (step / 100) * 600;

  it('labels every step that has room', () => {
    assert.deepEqual(legibleSteps([0, 25, 50, 75, 100], xOf), [0, 25, 50, 75, 100]);
  });

  it('never prints labels over one another when steps are close, and always labels the first and the last', () => {
    const shown = legibleSteps([0, 97, 98, 99, 100], xOf);
    assert.deepEqual(shown, [0, 100]);
    assert.deepEqual(legibleSteps([0, 50, 96, 100], xOf), [0, 50, 100], 'the last takes the place of the label it would overlap');
    for (let at = 1; at < shown.length; at++) {
      const gap = xOf(shown[at]!) - xOf(shown[at - 1]!);
      assert.ok(gap >= 30, `labels ${shown[at - 1]} and ${shown[at]} are ${gap.toFixed(0)} px apart`);
    }
  });
});
