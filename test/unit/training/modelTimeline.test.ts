import * as assert from 'node:assert/strict';
import type { TrainingJobEvent } from '../../../src/platform/client/types';
import { CheckpointTimeline, checkpointSeries, jobSpanOf, maxMetricKeys } from '../../../src/training/model/modelTimeline';

const checkpoint = (step: number, metrics: Record<string, unknown>) => ({ id: `c${step}`, step, metrics }) as { id: string; step: number; metrics: Record<string, number> };

describe("a model's training timeline", () => {
  it('gathers checkpoints by step in order, a page read again adding only what is new', () => {
    const timeline = new CheckpointTimeline(100);
    assert.equal(timeline.add([checkpoint(3, { reward: 0.3 }), checkpoint(1, { reward: 0.1 }), checkpoint(2, { reward: 0.2, loss: 1 })]), true);
    assert.equal(timeline.add([checkpoint(3, { reward: 0.3 })]), false, 'nothing new');
    assert.equal(timeline.add([checkpoint(4, { reward: 0.4 }), checkpoint(3, { reward: 0.3 })]), true);
    assert.deepEqual(
      timeline.points().map((point) => point.step),
      [1, 2, 3, 4],
    );
    const series = checkpointSeries(timeline.points());
    assert.deepEqual(series.get('reward'), { xs: [1, 2, 3, 4], ys: [0.1, 0.2, 0.3, 0.4] });
    assert.deepEqual(series.get('loss'), { xs: [2], ys: [1] });
  });

  it('keeps the newest checkpoints and a bounded number of metric keys, and drops values that are not numbers', () => {
    const timeline = new CheckpointTimeline(3);
    timeline.add([1, 2, 3, 4, 5].map((step) => checkpoint(step, { reward: step, note: 'text', bad: Number.NaN, step })));
    assert.deepEqual(
      timeline.points().map((point) => point.step),
      [3, 4, 5],
    );
    assert.deepEqual(timeline.points()[0]!.metrics, { reward: 3 });
    const wide = new CheckpointTimeline(10);
    wide.add([checkpoint(1, Object.fromEntries(Array.from({ length: 200 }, (_, index) => [`m${index}`, index])))]);
    assert.equal(Object.keys(wide.points()[0]!.metrics).length, maxMetricKeys);
  });

  it('marks a job by the model steps its gradient steps reported', () => {
    const events: TrainingJobEvent[] = [
      { id: '1', type: 'training_started', data: {} },
      { id: '2', type: 'gradient_step', data: { step: 6, loss: 1 } },
      { id: '3', type: 'gradient_step', data: { step: 9, loss: 1 } },
    ];
    assert.deepEqual(jobSpanOf({ id: 'j', label: 'groups.jsonl', phase: 'running' }, events), { id: 'j', label: 'groups.jsonl', firstStep: 6, lastStep: 9, phase: 'running' });
    assert.equal(jobSpanOf({ id: 'j', label: 'x', phase: 'queued' }, events.slice(0, 1)), undefined);
  });
});
