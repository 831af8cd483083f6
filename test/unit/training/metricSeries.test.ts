import * as assert from 'node:assert/strict';
import { numberJobSteps } from '../../../src/training/model/jobSteps';
import { maxPointsPerSeries, maxSeries, MetricSeriesSet, stepsOn } from '../../../src/training/model/metricSeries';

describe('metric series', () => {
  it('makes one series per numeric key of gradient steps, in a stable order', () => {
    const set = new MetricSeriesSet();
    const touched = set.append([
      { id: '1', type: 'training_started', data: { num_sequences: 2 } },
      { id: '2', type: 'gradient_step', data: { zeta: 1, loss: 2, reward: 0.1, note: 'x', step: 10 } },
      { id: '3', type: 'gradient_step', data: { loss: 1.5, reward: 0.2, tokens_per_second: 900 } },
    ]);
    assert.deepEqual([...touched].sort(), ['loss', 'reward', 'tokens_per_second', 'zeta']);
    assert.deepEqual(
      set.list().map((series) => series.key),
      ['loss', 'reward', 'tokens_per_second', 'zeta'],
    );
    assert.deepEqual(set.get('loss'), { key: 'loss', jobSteps: [1, 2], modelSteps: [10, NaN], values: [2, 1.5] });
    // One gradient step without a model step: the whole set is charted by job step.
    assert.equal(set.axis, 'job');
  });

  it('appends only new events', () => {
    const set = new MetricSeriesSet();
    set.append([{ id: '1', type: 'gradient_step', data: { loss: 3 } }]);
    set.append([{ id: '2', type: 'gradient_step', data: { loss: 2 } }]);
    assert.deepEqual(set.get('loss')?.values, [3, 2]);
    assert.deepEqual(set.get('loss')?.jobSteps, [1, 2]);
  });

  it('keeps a bounded number of points per series, ending at the newest value', () => {
    const set = new MetricSeriesSet();
    const total = maxPointsPerSeries * 5 + 3;
    const events = Array.from({ length: total }, (_, index) => ({ id: `e${index}`, type: 'gradient_step', data: { step: index + 1, loss: index } }));
    set.append(events as never);
    const loss = set.get('loss')!;
    assert.ok(loss.values.length <= maxPointsPerSeries, `kept ${loss.values.length}`);
    assert.ok(loss.values.length >= maxPointsPerSeries / 2);
    assert.equal(loss.modelSteps.at(-1), total);
    assert.equal(loss.jobSteps.at(-1), total);
    assert.equal(loss.values.at(-1), total - 1);
    assert.equal(loss.jobSteps.length, loss.values.length);
    assert.equal(loss.modelSteps.length, loss.values.length);
  });

  it('keeps a lone spike however many times the series is halved', () => {
    const set = new MetricSeriesSet();
    const total = maxPointsPerSeries * 4;
    const events = Array.from({ length: total }, (_, index) => ({ id: `e${index}`, type: 'gradient_step', data: { step: index + 1, loss: index === 1234 ? 99 : 1 } }));
    set.append(events as never);
    assert.ok(set.get('loss')!.values.includes(99));
  });

  it('stops adding charts when a server invents a metric name per event', () => {
    const set = new MetricSeriesSet();
    const events = Array.from({ length: 10_000 }, (_, index) => ({ id: `e${index}`, type: 'gradient_step', data: { [`metric_${index}`]: 1 } }));
    set.append(events as never);
    assert.equal(set.list().length, maxSeries);
  });

  it('charts by model step, the numbering checkpoints use, while every gradient step reports a rising one', () => {
    // A second job on a model: its job steps start at 1, the model's steps go on from 24.
    const events = [
      { id: 's', type: 'training_started', data: { num_sequences: 3 } },
      { id: 'g1', type: 'gradient_step', data: { step: 25, loss: 0.9 } },
      { id: 'g2', type: 'gradient_step', data: { step: 26, loss: 0.8 } },
    ];
    const set = new MetricSeriesSet();
    set.append(events, numberJobSteps(events, 2));
    assert.equal(set.axis, 'model');
    const loss = set.get('loss')!;
    assert.deepEqual(stepsOn(loss, 'model'), [25, 26]);
    assert.deepEqual(stepsOn(loss, 'job'), [1, 2]);
    // A model step that goes back cannot be an x axis: every chart falls back to job steps.
    set.append([{ id: 'g3', type: 'gradient_step', data: { step: 3, loss: 0.7 } }], [3]);
    assert.equal(set.axis, 'job');
    assert.deepEqual(stepsOn(set.get('loss')!, 'job'), [1, 2, 3]);
  });

  it('takes job steps from the status count when older events were dropped, and skips steps after the end', () => {
    const events = [
      { id: 'g40', type: 'gradient_step', data: { step: 140, loss: 0.5 } },
      { id: 'g41', type: 'gradient_step', data: { step: 141, loss: 0.4 } },
      { id: 'end', type: 'training_ended', data: {} },
      { id: 'late', type: 'gradient_step', data: { step: 142, loss: 9 } },
    ];
    const set = new MetricSeriesSet();
    set.append(events, numberJobSteps(events, 41));
    assert.deepEqual(set.get('loss'), { key: 'loss', jobSteps: [40, 41], modelSteps: [140, 141], values: [0.5, 0.4] });
  });
});
