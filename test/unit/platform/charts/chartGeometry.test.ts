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

  it("spans the page's steps, so a metric that starts late lines up with the others, and zooms within them", () => {
    const line = { key: 'canary', xs: [20, 22, 24], ys: [0.9, 0.8, 0.7] };
    assert.deepEqual(chartGeometry([line], { smoothing: 0, logScale: false, xSpan: [1, 24] }, box).xDomain, [1, 24]);
    assert.deepEqual(chartGeometry([line], { smoothing: 0, logScale: false }, box).xDomain, [20, 24]);
    assert.deepEqual(chartGeometry([line], { smoothing: 0, logScale: false, xSpan: [1, 24], xRange: [5, 30] }, box).xDomain, [5, 24]);
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

  it('draws an interval as a band through the points of its line, and fits the axis to it', () => {
    const xs = [10, 20, 30];
    const geometry = chartGeometry([{ key: 'score', xs, ys: [0.5, 0.6, 0.7], band: { low: [0.1, 0.5, 0.65], high: [0.9, 0.7, 0.75] } }], { smoothing: 0, logScale: false }, box);
    const line = geometry.lines[0]!;
    assert.deepEqual(line.indices, [0, 1, 2]);
    assert.ok(geometry.yDomain[0] < 0.1 && geometry.yDomain[1] > 0.9, 'the axis holds the whole interval');
    const band = line.band!;
    assert.equal(band.length, 12, 'three highs, then three lows');
    // Along the highs left to right, then back along the lows: x pixels rise, then fall.
    const bandXs = Array.from({ length: 6 }, (_, at) => band[at * 2]!);
    assert.deepEqual(bandXs, [...bandXs.slice(0, 3), ...bandXs.slice(0, 3).reverse()]);
    for (let at = 0; at < 3; at++) {
      assert.ok(band[at * 2 + 1]! < line.raw[at * 2 + 1]!, 'the high is above the mean');
      assert.ok(band[(5 - at) * 2 + 1]! > line.raw[at * 2 + 1]!, 'the low is below the mean');
    }
    const zoomed = chartGeometry([{ key: 'score', xs, ys: [0.5, 0.6, 0.7], band: { low: [0.1, 0.5, 0.65], high: [0.9, 0.7, 0.75] } }], { smoothing: 0, logScale: false, xRange: [15, 30] }, box);
    assert.deepEqual(zoomed.lines[0]!.indices, [1, 2], 'series indices of the points drawn in the zoom');
    assert.ok(zoomed.yDomain[0] > 0.1, 'the interval outside the zoom does not stretch the axis');
  });

  it('reads a line against a right axis of its own, and puts the log scale on the axis the chart names', () => {
    const lines = [
      { key: 'score', xs: [1, 2, 3], ys: [0.2, 0.4, 0.6] },
      { key: 'reward', xs: [1, 2, 3], ys: [-5, 10, 1000], axis: 'right' as const },
    ];
    const linear = chartGeometry(lines, { smoothing: 0, logScale: false }, box);
    assert.ok(linear.yDomain[1] < 1, 'the left axis fits the scores only');
    assert.ok(linear.rightDomain![0] < -5 && linear.rightDomain![1] > 1000);
    assert.ok(linear.rightTicks.length > 0);
    const top = box.margin.top;
    const bottom = box.height - box.margin.bottom;
    for (const line of linear.lines) for (let at = 1; at < line.raw.length; at += 2) assert.ok(line.raw[at]! >= top && line.raw[at]! <= bottom, `${line.key} within the plot`);

    const logRight = chartGeometry(lines, { smoothing: 0, logScale: true }, box, undefined, { logAxis: 'right' });
    assert.deepEqual(
      logRight.rightTicks.map((tick) => tick.value),
      [10, 100, 1000],
    );
    assert.equal(logRight.notPositive, 1, 'the negative reward is left out, counted');
    assert.deepEqual(logRight.yTicks, linear.yTicks, 'the scores stay linear');
    assert.equal(logRight.lines[1]!.raw.length, 4);
    assert.equal(chartGeometry([lines[0]!], { smoothing: 0, logScale: false }, box).rightTicks.length, 0, 'no right axis without a line on it');
  });

  it('labels steps far enough apart to read, whatever the range', () => {
    for (const [low, high] of [
      [0, 100],
      [0, 7],
      [97, 100],
      [0, 123_456],
    ] as const) {
      const geometry = chartGeometry([{ key: 'r', xs: [low, high], ys: [1, 2] }], { smoothing: 0, logScale: false }, box);
      const ticks = geometry.xTicks;
      assert.ok(ticks.length >= 2, `${low}–${high}: ${ticks.length} ticks`);
      for (let at = 1; at < ticks.length; at++)
        assert.ok(ticks[at]!.px - ticks[at - 1]!.px >= 60, `${low}–${high}: ticks ${ticks[at - 1]!.value} and ${ticks[at]!.value} are ${(ticks[at]!.px - ticks[at - 1]!.px).toFixed(0)} px apart`);
    }
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
