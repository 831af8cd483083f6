import * as assert from 'node:assert/strict';
import { comparePaired, studentTDistribution, studentTQuantile } from '../../../src/evals/model/pairedComparison';

const close = (actual: number, expected: number, tolerance: number, what: string) => assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: ${actual} is not ${expected}`);

describe('the paired comparison of two checkpoints on one eval set', () => {
  it("gives Student's t quantiles of the tables", () => {
    // Two-sided 95% critical values.
    close(studentTQuantile(0.975, 1), 12.7062, 1e-3, 'df 1');
    close(studentTQuantile(0.975, 9), 2.2622, 1e-4, 'df 9');
    close(studentTQuantile(0.975, 30), 2.0423, 1e-4, 'df 30');
    close(studentTQuantile(0.995, 19), 2.8609, 1e-4, 'df 19, 99%');
    close(studentTQuantile(0.975, 100_000), 1.96, 1e-3, 'df large');
    close(studentTDistribution(0, 5), 0.5, 1e-12, 'the middle');
    close(studentTQuantile(0.025, 9), -2.2622, 1e-4, 'the lower tail');
  });

  it('matches a worked example: ten prompts, the new checkpoint worse on most', () => {
    const best = [0.9, 0.8, 0.85, 0.7, 0.95, 0.6, 0.75, 0.8, 0.9, 0.65];
    const current = [0.8, 0.7, 0.8, 0.6, 0.9, 0.55, 0.7, 0.7, 0.85, 0.6];
    const result = comparePaired(best.map((value, index) => ({ id: String(index), best: value, current: current[index]! })));
    // Differences: −0.1 −0.1 −0.05 −0.1 −0.05 −0.05 −0.05 −0.1 −0.05 −0.05: mean −0.07, sd 0.025820, se 0.0081650.
    close(result.meanDifference, -0.07, 1e-12, 'mean');
    close(result.high, -0.07 + 2.262157 * 0.008165, 1e-5, 'upper bound');
    close(result.low, -0.07 - 2.262157 * 0.008165, 1e-5, 'lower bound');
    assert.equal(result.pairs, 10);
    assert.equal(result.drop, true);
  });

  it('calls no drop when the interval reaches zero, nor when the fall is too small to matter', () => {
    const noisy = comparePaired([
      { id: 'a', best: 1, current: 0 },
      { id: 'b', best: 0, current: 1 },
      { id: 'c', best: 1, current: 0 },
      { id: 'd', best: 1, current: 1 },
    ]);
    assert.ok(noisy.low < 0 && noisy.high > 0);
    assert.equal(noisy.drop, false);
    const tiny = comparePaired(Array.from({ length: 50 }, (_, index) => ({ id: String(index), best: 0.5, current: 0.5 - 0.01 - (index % 2) * 0.0001 })));
    assert.ok(tiny.high < 0, 'sure of the fall');
    assert.equal(tiny.drop, false, 'but 0.01 is under the minimum drop');
  });

  it('skips scores that are not numbers and says nothing with fewer than two pairs', () => {
    const result = comparePaired([
      { id: 'a', best: Number.NaN, current: 0 },
      { id: 'b', best: 1, current: 0 },
    ]);
    assert.equal(result.pairs, 1);
    assert.equal(result.drop, false);
    assert.deepEqual(comparePaired([]), { pairs: 0, meanDifference: 0, low: 0, high: 0, confidence: 0.95, drop: false });
  });
});
