import * as assert from 'node:assert/strict';
import { chartGeometry, logTicks, nearestIndex, niceTicks, SmoothingCache } from '../../../../src/platform/charts/chartGeometry';
import { chartFileParams } from '../../../../src/platform/pages/chartFile';
import { csvField } from '../../../../src/platform/pages/page/chart/metricChart';

const box = { width: 420, height: 150, margin: { top: 10, right: 10, bottom: 20, left: 10 } };
const steps = (count: number) => Array.from({ length: count }, (_, index) => index + 1);

describe('chart geometry', () => {
  it('draws at most about two points a pixel, the last one always, and reports the points in range', () => {
    const xs = steps(10_000);
    const ys = xs.map((x) => Math.sin(x / 50));
    const geometry = chartGeometry([{ key: 'reward', xs, ys }], { smoothing: 0, logScale: false }, box);
    const line = geometry.lines[0]!;
    assert.ok(line.raw.length / 2 <= 2 * 400 + 1);
    assert.equal(geometry.pointsInRange, 10_000);
    assert.equal(line.raw[line.raw.length - 2], box.width - box.margin.right, 'the last point sits at the right edge');
    assert.equal(line.last?.value, ys.at(-1));
    assert.equal(line.smoothed, undefined);
  });

  it('zooms on steps: only the points in range are drawn and fit the height', () => {
    const xs = steps(100);
    const ys = xs.map((x) => (x <= 50 ? x : 1000));
    const geometry = chartGeometry([{ key: 'loss', xs, ys }], { smoothing: 0, logScale: false, xRange: [10, 20] }, box);
    assert.deepEqual(geometry.xDomain, [10, 20]);
    assert.equal(geometry.pointsInRange, 11);
    assert.ok(geometry.yDomain[1] < 100, 'the values outside the zoom do not stretch the y axis');
  });

  it('smooths over the whole series, so zooming in does not change the smoothed values', () => {
    const xs = steps(200);
    const ys = xs.map((x) => (x % 2 === 0 ? 1 : 0));
    const cache = new SmoothingCache();
    const whole = chartGeometry([{ key: 'r', xs, ys }], { smoothing: 0.9, logScale: false }, box, cache);
    const zoomed = chartGeometry([{ key: 'r', xs, ys }], { smoothing: 0.9, logScale: false, xRange: [150, 200] }, box, cache);
    assert.ok(whole.lines[0]!.smoothed);
    assert.equal(whole.lines[0]!.last?.value, zoomed.lines[0]!.last?.value);
    assert.ok(Math.abs(zoomed.lines[0]!.last!.value - 0.5) < 0.1, 'the smoothed line follows the trend');
  });

  it('leaves out values that are not above zero on a log scale, and counts them', () => {
    const geometry = chartGeometry([{ key: 'kl', xs: [1, 2, 3, 4], ys: [0, -1, 0.01, 10] }], { smoothing: 0, logScale: true }, box);
    assert.equal(geometry.notPositive, 2);
    assert.equal(geometry.lines[0]!.raw.length, 4, 'two points drawn');
    assert.deepEqual(
      geometry.yTicks.map((tick) => tick.value),
      [0.01, 0.1, 1, 10],
    );
  });

  it('finds the nearest step, and gives round ticks', () => {
    assert.equal(nearestIndex([1, 5, 9], 6), 1);
    assert.equal(nearestIndex([1, 5, 9], 8), 2);
    assert.equal(nearestIndex([], 8), -1);
    assert.deepEqual(niceTicks(0, 1, 5), [0, 0.2, 0.4, 0.6, 0.8, 1]);
    assert.deepEqual(niceTicks(3, 97, 4), [20, 40, 60, 80]);
    assert.deepEqual(logTicks(0.5, 0.9), [0.5, 0.9]);
  });
});

describe("a chart's export as it reaches the host", () => {
  it('takes a plain .csv as text and a .png as base64, and nothing else', () => {
    assert.deepEqual(chartFileParams({ fileName: 'train-loss.csv', content: 'series,step\n', encoding: 'utf8' }), { fileName: 'train-loss.csv', content: 'series,step\n', encoding: 'utf8' });
    assert.equal(chartFileParams({ fileName: 'loss.png', content: 'iVBORw0KGgo=', encoding: 'base64' }).encoding, 'base64');
    for (const bad of [
      { fileName: '../../.bashrc.csv', content: '', encoding: 'utf8' },
      { fileName: 'loss.sh', content: '', encoding: 'utf8' },
      { fileName: '.csv', content: '', encoding: 'utf8' },
      { fileName: 'loss.png', content: 'not base64!', encoding: 'base64' },
      { fileName: 'loss.png', content: 'AAAA', encoding: 'utf8' },
      { fileName: 'loss.csv', content: 'x'.repeat(64 * 1024 * 1024 + 1), encoding: 'utf8' },
    ]) {
      assert.throws(() => chartFileParams(bad), Error, JSON.stringify(bad).slice(0, 80));
    }
  });

  it('keeps a series name from reading as a spreadsheet formula', () => {
    assert.equal(csvField('=HYPERLINK("x")'), `"'=HYPERLINK(""x"")"`);
    assert.equal(csvField('train/loss'), 'train/loss');
    assert.equal(csvField('a,b'), '"a,b"');
  });
});
