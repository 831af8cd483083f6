import * as assert from 'node:assert/strict';
import { downsample, maxEventsConsidered, maxMetricsSummarised, summariseMetrics, type MetricTrend } from '../../../src/training/model/jobTrend';
import type { TrainingJobEvent } from '../../../src/platform/client/types';
import { ended, other, rewardDropRun, started, step } from './jobEvents';

function close(actual: number, expected: number, what = 'value'): void {
  assert.ok(Math.abs(actual - expected) <= 1e-9 * Math.max(1, Math.abs(expected)), `${what}: ${actual} vs ${expected}`);
}

function trendOf(metrics: readonly MetricTrend[], key: string): MetricTrend {
  const trend = metrics.find((item) => item.key === key);
  assert.ok(trend, `no trend for ${key}`);
  return trend;
}

/** Gradient steps with the given values of one metric, numbered by job step (no model step). */
function series(key: string, values: readonly unknown[]): TrainingJobEvent[] {
  return [started(values.length), ...values.map((value) => step({ [key]: value }))];
}

describe('job metric trends', () => {
  it('summarises a reward that rises then drops at step 40, by model step, with the metrics that moved alongside', () => {
    const summary = summariseMetrics(rewardDropRun(60, 25));
    assert.equal(summary.axis, 'model');
    assert.equal(summary.gradientSteps, 60);
    assert.equal(summary.firstStep, 25);
    assert.equal(summary.lastStep, 84);
    assert.deepEqual(
      summary.metrics.map((trend) => trend.key),
      ['loss', 'reward', 'entropy', 'learning_rate'],
    );
    const reward = trendOf(summary.metrics, 'reward');
    assert.equal(reward.count, 60);
    assert.equal(reward.notFinite, 0);
    assert.deepEqual(reward.first, { step: 25, value: 0.2 });
    assert.deepEqual(reward.last, { step: 84, value: 0.31 });
    assert.deepEqual(reward.min, { step: 25, value: 0.2 });
    // Step 29 reaches 0.2 + 0.015 × 28, a hair above 0.62 in floating point: the first largest value.
    assert.deepEqual(reward.max, { step: 53, value: 0.2 + 0.015 * 28 });
    // Six points a window (a tenth of 60, at least 5): the first six climb by 0.015, the last six hold.
    assert.equal(reward.start.count, 6);
    close(reward.start.mean, 0.2 + 0.015 * 2.5, 'start mean');
    assert.deepEqual({ ...reward.end, mean: 0 }, { fromStep: 79, toStep: 84, count: 6, mean: 0 });
    close(reward.end.mean, 0.31, 'end mean');
    assert.equal(reward.direction, 'noisy');
    const drop = reward.largestDrop!;
    assert.deepEqual([drop.before.fromStep, drop.before.toStep, drop.after.fromStep, drop.after.toStep], [58, 63, 64, 69]);
    close(drop.before.mean, 0.62, 'before');
    close(drop.after.mean, 0.31, 'after');
    close(drop.change, -0.31, 'change');
    close(drop.relative, -0.31 / reward.std, 'relative');
    // Entropy fell from 2 to 1 and loss rose from 0.835 (mean of 1.2 − 0.01 k for k 34–39) to 0.9; the learning rate never moved.
    assert.deepEqual(
      drop.alongside.map((moved) => moved.key),
      ['entropy', 'loss'],
    );
    const [entropy, loss] = drop.alongside;
    close(entropy!.before, 2);
    close(entropy!.after, 1);
    close(entropy!.relative, -1 / Math.sqrt(0.2275), 'entropy relative');
    close(loss!.before, 0.835);
    close(loss!.after, 0.9);
    const learningRate = trendOf(summary.metrics, 'learning_rate');
    assert.equal(learningRate.direction, 'flat');
    assert.equal(learningRate.std, 0);
    assert.equal(learningRate.slopePer100, 0);
    assert.equal(learningRate.largestDrop, undefined);
    assert.equal(learningRate.largestRise, undefined);
    assert.equal(trendOf(summary.metrics, 'loss').direction, 'falling');
    close(trendOf(summary.metrics, 'entropy').slopePer100, 100 * slopeOf(60, (k) => (k < 40 ? 2 : 1)), 'entropy slope');
  });

  it('finds the drop between steps 30–39 and 40–49 with windows of 10 on the job-step axis', () => {
    const events = rewardDropRun(60).map((event) => (event.type === 'gradient_step' ? { ...event, data: { reward: event.data.reward } } : event));
    const summary = summariseMetrics(events, { window: 10 });
    assert.equal(summary.axis, 'job');
    const drop = trendOf(summary.metrics, 'reward').largestDrop!;
    assert.deepEqual(drop.before, { fromStep: 30, toStep: 39, count: 10, mean: drop.before.mean });
    assert.deepEqual(drop.after, { fromStep: 40, toStep: 49, count: 10, mean: drop.after.mean });
    close(drop.before.mean, 0.62);
    close(drop.after.mean, 0.31);
    assert.deepEqual(drop.alongside, []);
  });

  it('calls a clear line rising or falling, a constant or a tiny drift flat, and a zigzag noisy', () => {
    const direction = (values: number[]) => summariseMetrics(series('m', values)).metrics[0]!.direction;
    const count = 40;
    const wobble = (k: number) => 0.02 * Math.sin(k * 1.7);
    assert.equal(direction(Array.from({ length: count }, (_, k) => 0.1 + 0.01 * k + wobble(k))), 'rising');
    assert.equal(direction(Array.from({ length: count }, (_, k) => 2 - 0.03 * k + wobble(k))), 'falling');
    assert.equal(direction(Array.from({ length: count }, () => 7)), 'flat');
    // Up by 1 over the run, 0.1 % of its size: a schedule's nudge, not a trend.
    assert.equal(direction(Array.from({ length: count }, (_, k) => 1000 + k / 39)), 'flat');
    assert.equal(direction(Array.from({ length: count }, (_, k) => (k % 2 === 0 ? 0.2 : 0.8))), 'noisy');
    // Tokens per second around 9,000 with a spread of 5 %: no trend, and too wide to call flat.
    assert.equal(direction(Array.from({ length: count }, (_, k) => 9000 + 450 * Math.sin(k * 2.3))), 'noisy');
    assert.equal(direction([3]), 'flat');
    assert.equal(direction([3, 4]), 'rising');
    const summary = summariseMetrics(series('m', [1, 3]));
    close(summary.metrics[0]!.slopePer100, 200, 'slope per 100 steps');
  });

  it('skips NaN, Infinity, text and null values, counting them, and ignores names that never carry a number', () => {
    const events = [
      started(6),
      step({ loss: 1, phase: 'warmup' }),
      step({ loss: NaN, phase: 'warmup' }),
      other('checkpoint_saved'),
      step({ loss: 0.5, phase: null }),
      step({ loss: Infinity }),
      step({ loss: 'nan' }),
      step({ loss: null, reward: -Infinity }),
    ];
    const summary = summariseMetrics(events);
    assert.equal(summary.gradientSteps, 6);
    assert.equal(summary.unknownEvents, 1);
    assert.deepEqual(summary.unknownTypes, ['checkpoint_saved']);
    assert.deepEqual(
      summary.metrics.map((trend) => trend.key),
      ['loss'],
    );
    const loss = summary.metrics[0]!;
    assert.equal(loss.count, 2);
    assert.equal(loss.notFinite, 4);
    assert.equal(loss.firstNotFiniteStep, 2);
    assert.deepEqual(loss.first, { step: 1, value: 1 });
    assert.deepEqual(loss.last, { step: 3, value: 0.5 });
    assert.deepEqual(loss.start, { fromStep: 1, toStep: 3, count: 2, mean: 0.75 });
    assert.equal(summary.metricsNotShown, 0);
  });

  it('says nothing about metrics when no gradient step carries one, or there is no gradient step', () => {
    const bare = summariseMetrics([started(3), step({}), step({ step: 4 }), ended()]);
    assert.equal(bare.gradientSteps, 2);
    assert.deepEqual(bare.metrics, []);
    assert.equal(bare.axis, 'job');
    assert.deepEqual(bare.sampleSteps, [1, 2]);
    const none = summariseMetrics([]);
    assert.deepEqual(none, {
      axis: 'job',
      eventsConsidered: 0,
      eventsNotConsidered: 0,
      gradientSteps: 0,
      unknownEvents: 0,
      unknownTypes: [],
      metrics: [],
      metricsNotShown: 0,
      moreMetricNames: false,
      sampleSteps: [],
    });
  });

  it('numbers job steps as the job status does: ending at the counted steps, none after a terminal event', () => {
    const events = [step({ loss: 3 }), step({ loss: 2 }), ended(), step({ loss: 99 })];
    const summary = summariseMetrics(events, { countedSteps: 110 });
    assert.deepEqual([summary.firstStep, summary.lastStep, summary.gradientSteps], [109, 110, 2]);
    assert.deepEqual(summary.metrics[0]!.last, { step: 110, value: 2 });
    // A model step missing on one gradient step, or going back, puts every metric on the job-step axis.
    assert.equal(summariseMetrics([step({ step: 5, loss: 1 }), step({ loss: 1 })]).axis, 'job');
    assert.equal(summariseMetrics([step({ step: 5, loss: 1 }), step({ step: 5, loss: 1 })]).axis, 'job');
  });

  it('summarises at most 16 metrics, loss and reward first then by name, of at most 64 names counted', () => {
    const events: TrainingJobEvent[] = [];
    for (let k = 0; k < 500; k++) {
      const data: Record<string, unknown> = { [`fresh_${k}`]: k };
      for (let m = 0; m < 30; m++) data[`m${String(m).padStart(2, '0')}`] = m + k;
      events.push(step({ ...data, reward: k, loss: -k }));
    }
    const summary = summariseMetrics(events);
    assert.equal(summary.metrics.length, maxMetricsSummarised);
    assert.deepEqual(
      summary.metrics.slice(0, 4).map((trend) => trend.key),
      ['loss', 'reward', 'fresh_0', 'fresh_1'],
    );
    assert.equal(summary.moreMetricNames, true);
    // The first event's 33 names (loss and reward among them), then fresh names until 64 are counted.
    assert.equal(summary.metricsNotShown, 64 - 16);
    // Loss and reward are counted even when they first come after 64 other names.
    const late = summariseMetrics([...Array.from({ length: 70 }, (_, k) => step({ [`n${k}`]: k })), step({ loss: 1, reward: 2 })]);
    assert.deepEqual(
      late.metrics.slice(0, 3).map((trend) => trend.key),
      ['loss', 'reward', 'n0'],
    );
  });

  it('analyses only the last 100,000 of 200,000 events, numbering them as the whole job', () => {
    const events: TrainingJobEvent[] = [started(200_000)];
    for (let k = 1; k <= 200_000; k++) events.push(step({ step: k, loss: 1 / k, reward: k < 150_000 ? 0.5 : 0.25 }));
    const summary = summariseMetrics(events);
    assert.equal(summary.eventsConsidered, maxEventsConsidered);
    assert.equal(summary.eventsNotConsidered, 100_001);
    assert.equal(summary.gradientSteps, 100_000);
    assert.deepEqual([summary.firstStep, summary.lastStep], [100_001, 200_000]);
    assert.equal(summary.sampleSteps.length, 12);
    const reward = trendOf(summary.metrics, 'reward');
    // Windows of a tenth: 10,000 points each side of step 150,000.
    assert.deepEqual([reward.largestDrop!.before.fromStep, reward.largestDrop!.after.fromStep, reward.largestDrop!.after.count], [140_000, 150_000, 10_000]);
    const withoutSteps = events.map((event) => (event.type === 'gradient_step' ? { ...event, data: { loss: event.data.loss } } : event));
    assert.deepEqual(summariseMetrics(withoutSteps, { maxEvents: 10 }).firstStep, 199_991);
  });

  it('downsamples evenly by step, keeping the first and last points', () => {
    const points = Array.from({ length: 100 }, (_, index) => ({ step: index + 1, value: index }));
    assert.deepEqual(
      downsample(points).map((point) => point.step),
      [1, 10, 19, 28, 37, 46, 55, 64, 73, 82, 91, 100],
    );
    const uneven = [1, 2, 3, 4, 100].map((at) => ({ step: at, value: at }));
    assert.deepEqual(
      downsample(uneven, 3).map((point) => point.step),
      [1, 4, 100],
    );
    assert.deepEqual(downsample(uneven, 10), uneven);
    assert.deepEqual(downsample(uneven, 1), [uneven[4]]);
    assert.deepEqual(downsample(uneven, 0), []);
    assert.equal(downsample(points, 40).length <= 40, true);
  });
});

/** The least-squares slope of f(1..count) over 1..count, computed the textbook way. */
function slopeOf(count: number, f: (k: number) => number): number {
  const xs = Array.from({ length: count }, (_, index) => index + 1);
  const ys = xs.map(f);
  const mx = xs.reduce((a, b) => a + b, 0) / count;
  const my = ys.reduce((a, b) => a + b, 0) / count;
  const sxy = xs.reduce((sum, x, index) => sum + (x - mx) * (ys[index]! - my), 0);
  const sxx = xs.reduce((sum, x) => sum + (x - mx) ** 2, 0);
  return sxy / sxx;
}
