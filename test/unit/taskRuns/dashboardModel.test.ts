import * as assert from 'node:assert/strict';
import { budgetShares, describeCurrent, heldOutSeries, noSignalSeries, rewardSeries } from '../../../src/taskRuns/model/dashboardModel';
import type { RunState, StepState } from '../../../src/taskRuns/model/runState';

const spent = { requests: 10, promptTokens: 100, completionTokens: 50 };
const step = (index: number, extra: Partial<StepState> = {}): StepState => ({
  index,
  phase: 'trained',
  file: `step-000${index}.trajectories.jsonl`,
  groups: 4,
  noSignalGroups: 1,
  leftOut: 1,
  spent,
  startedAt: 't',
  ...extra,
});
const state = (extra: Partial<RunState> = {}): RunState => ({
  kind: 'rl-studio-task-run',
  version: 1,
  name: 'arith',
  task: 'arith.rltask.json',
  modelId: 'm',
  modelName: 'arith-rl',
  status: 'running',
  plannedSteps: 3,
  budget: { requests: 100, tokens: 600 },
  spent: { requests: 50, promptTokens: 200, completionTokens: 100 },
  steps: [step(1, { reward: { mean: 0.5, std: 0.4, min: 0, max: 1 } }), step(2, { phase: 'training', jobId: '1a2b3c4d5e', reward: { mean: 0.95, std: 0.1, min: 0.8, max: 1 } })],
  heldOut: [
    { step: 1, checkpointStep: 6, mean: 0.6, low: 0.4, high: 0.8, scored: 20 },
    { step: 0, checkpointStep: 0, mean: 0.3, low: 0.1, high: 0.5, scored: 20 },
  ],
  startedAt: 't',
  updatedAt: 't',
  ...extra,
});

describe("the run dashboard's figures", () => {
  it('charts the mean reward with a band of one deviation kept within the rewards seen', () => {
    const series = rewardSeries(state());
    const rounded = (values: number[]) => values.map((value) => Math.round(value * 1e9) / 1e9);
    assert.deepEqual(
      [series.xs, series.ys, rounded(series.band!.low), rounded(series.band!.high)],
      [
        [1, 2],
        [0.5, 0.95],
        [0.1, 0.85],
        [0.9, 1],
      ],
    );
  });

  it('charts the share of groups with no signal and the held-out score by step', () => {
    assert.deepEqual(noSignalSeries(state()), { xs: [1, 2], ys: [0.25, 0.25] });
    assert.deepEqual(heldOutSeries(state()), { xs: [0, 1], ys: [0.3, 0.6], band: { low: [0.1, 0.4], high: [0.5, 0.8] } });
  });

  it('says what the run spent against its budget and where it is, in words', () => {
    assert.deepEqual(budgetShares(state()), { requests: 0.5, tokens: 0.5 });
    assert.equal(describeCurrent(state()), 'Step 2 of 3: training, job 1a2b3c4d.');
    assert.equal(describeCurrent(state({ status: 'stopped' })), 'Stopped after 1 of 3 steps (start the task again to resume). Step 2 of 3: training, job 1a2b3c4d.');
    assert.equal(describeCurrent(state({ status: 'failed', failure: { step: 2, message: 'boom' } })), 'Failed at step 2.');
    assert.equal(describeCurrent(state({ steps: [] })), 'Before step 1 of 3: evaluating the held-out set.');
  });
});
