import * as assert from 'node:assert/strict';
import { maxPointsPerSeries, maxSeries, MetricSeriesSet } from '../../../src/core/metricSeries';

describe('metric series', () => {
  it('makes one series per numeric key of gradient steps, in a stable order', () => {
    const set = new MetricSeriesSet();
    const touched = set.append([
      { id: '1', type: 'training_started', data: { num_sequences: 2 } },
      { id: '2', type: 'gradient_step', data: { zeta: 1, loss: 2, reward: 0.1, note: 'x', step: 10 } },
      { id: '3', type: 'gradient_step', data: { loss: 1.5, reward: 0.2, tokens_per_second: 900 } },
    ]);
    assert.deepEqual([...touched].sort(), ['loss', 'reward', 'tokens_per_second', 'zeta']);
    assert.deepEqual(set.list().map((series) => series.key), ['loss', 'reward', 'tokens_per_second', 'zeta']);
    assert.deepEqual(set.get('loss'), { key: 'loss', steps: [10, 2], values: [2, 1.5] });
  });

  it('appends only new events', () => {
    const set = new MetricSeriesSet();
    set.append([{ id: '1', type: 'gradient_step', data: { loss: 3 } }]);
    set.append([{ id: '2', type: 'gradient_step', data: { loss: 2 } }]);
    assert.deepEqual(set.get('loss')?.values, [3, 2]);
    assert.deepEqual(set.get('loss')?.steps, [1, 2]);
  });

  it('keeps a bounded number of points per series, ending at the newest value', () => {
    const set = new MetricSeriesSet();
    const total = maxPointsPerSeries * 5 + 3;
    const events = Array.from({ length: total }, (_, index) => ({ id: `e${index}`, type: 'gradient_step', data: { step: index + 1, loss: index } }));
    set.append(events as never);
    const loss = set.get('loss')!;
    assert.ok(loss.steps.length <= maxPointsPerSeries, `kept ${loss.steps.length}`);
    assert.ok(loss.steps.length >= maxPointsPerSeries / 2);
    assert.equal(loss.steps.at(-1), total);
    assert.equal(loss.values.at(-1), total - 1);
    assert.equal(loss.steps.length, loss.values.length);
  });

  it('stops adding charts when a server invents a metric name per event', () => {
    const set = new MetricSeriesSet();
    const events = Array.from({ length: 10_000 }, (_, index) => ({ id: `e${index}`, type: 'gradient_step', data: { [`metric_${index}`]: 1 } }));
    set.append(events as never);
    assert.equal(set.list().length, maxSeries);
  });
});
