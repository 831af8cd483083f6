import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { largestTriangleThreeBuckets } from '../../../../src/platform/charts/downsample';
import { exponentialMovingAverage, MovingAverage } from '../../../../src/platform/charts/smoothing';

describe('chart smoothing', () => {
  it('leaves a series as it is at weight 0, and a constant series constant at any weight', () => {
    assert.deepEqual([...exponentialMovingAverage([1, 5, 2], 0)], [1, 5, 2]);
    for (const weight of [0.3, 0.9, 0.99]) assert.ok([...exponentialMovingAverage([4, 4, 4, 4], weight)].every((value) => Math.abs(value - 4) < 1e-12));
  });

  it('is debiased: the first point is the first value, not pulled towards 0', () => {
    const smoothed = exponentialMovingAverage([10, 0], 0.5);
    assert.equal(smoothed[0], 10);
    // (0.5·0.5·10 + 0.5·0) / (0.5·0.5 + 0.5) = 2.5 / 0.75
    assert.ok(Math.abs(smoothed[1]! - 10 / 3) < 1e-12);
  });

  it('keeps a gap a gap and goes on around it', () => {
    const smoothed = exponentialMovingAverage([2, Number.NaN, 2], 0.6);
    assert.ok(Number.isNaN(smoothed[1]!));
    assert.ok(Math.abs(smoothed[2]! - 2) < 1e-12);
  });

  it('smooths a series that grows as if it were smoothed whole', () => {
    const values = Array.from({ length: 50 }, (_, index) => Math.sin(index) * 3 + (index % 7 === 0 ? Number.NaN : 0));
    const average = new MovingAverage(0.7);
    const grown: number[] = [];
    let last: ArrayLike<number> = new Float64Array(0);
    for (const value of values) {
      grown.push(value);
      last = average.extend(grown);
    }
    assert.deepEqual(Array.from(last), [...exponentialMovingAverage(values, 0.7)]);
  });

  it('stays between the lowest and the highest value so far (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { maxLength: 200 }), fc.double({ min: 0, max: 0.999, noNaN: true }), (values, weight) => {
        const smoothed = exponentialMovingAverage(values, weight);
        let low = Infinity;
        let high = -Infinity;
        values.forEach((value, index) => {
          low = Math.min(low, value);
          high = Math.max(high, value);
          const slack = 1e-9 * Math.max(1, Math.abs(low), Math.abs(high));
          assert.ok(smoothed[index]! >= low - slack && smoothed[index]! <= high + slack);
        });
      }),
    );
  });
});

describe('chart downsampling', () => {
  const steps = (count: number) => Array.from({ length: count }, (_, index) => index);

  it('draws every point of a series that fits', () => {
    assert.deepEqual(largestTriangleThreeBuckets([0, 1, 2], [3, 1, 2], 10), [0, 1, 2]);
  });

  it('keeps the first, the last, the highest and the lowest point, within the budget, in order (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -1e3, max: 1e3, noNaN: true }), { minLength: 1, maxLength: 3000 }), fc.integer({ min: 3, max: 400 }), (values, budget) => {
        const drawn = largestTriangleThreeBuckets(steps(values.length), values, budget);
        assert.ok(drawn.length <= Math.max(budget, 4));
        assert.equal(drawn[0], 0);
        assert.equal(drawn.at(-1), values.length - 1);
        for (let at = 1; at < drawn.length; at++) assert.ok(drawn[at]! > drawn[at - 1]!);
        const highest = Math.max(...values);
        const lowest = Math.min(...values);
        assert.ok(
          drawn.some((index) => values[index] === highest),
          'the highest point is drawn',
        );
        assert.ok(
          drawn.some((index) => values[index] === lowest),
          'the lowest point is drawn',
        );
      }),
    );
  });

  it('draws a lone spike in a long flat series', () => {
    const values = new Array<number>(10_000).fill(1);
    values[6_543] = 50;
    assert.ok(largestTriangleThreeBuckets(steps(values.length), values, 100).includes(6_543));
  });

  it('skips points that are not finite', () => {
    assert.deepEqual(largestTriangleThreeBuckets([0, 1, 2, 3], [1, Number.NaN, Infinity, 2], 10), [0, 3]);
  });
});
