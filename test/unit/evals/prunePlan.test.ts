import * as assert from 'node:assert/strict';
import type { EvalModelRef, LeaderboardRow } from '../../../src/evals/model/evalModel';
import { planPrune, pruneConfirmation, type ListedCheckpoint } from '../../../src/evals/model/prunePlan';
import { crownedBest } from '../../../src/evals/model/statistics';

const training = 'wandb-artifact:///team/project/my-model';

function model(step: number): EvalModelRef {
  return { id: `${training}:step${step}`, label: `step ${step}`, kind: 'checkpoint', api: 'training', step, trainingModelId: training };
}

function row(step: number, mean: number, scored = 10, failed = 0): LeaderboardRow {
  return { model: `${training}:step${step}`, label: `step ${step}`, step, mean, low: mean - 0.1, high: mean + 0.1, scored, failed };
}

function listed(...steps: number[]): ListedCheckpoint[] {
  return steps.map((step) => ({ id: `${training}:step${step}`, step }));
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, at) => from + at);
}

describe('"Delete the others" plan', () => {
  it('deletes only the evaluated checkpoints ranked below the chosen one; the chosen, the best and the latest stay', () => {
    const steps = [10, 11, 12, 20, 30, 40];
    const plan = planPrune({
      models: steps.map(model),
      leaderboard: [row(30, 0.9), row(20, 0.8), row(40, 0.85), row(10, 0.4), row(11, 0.5), row(12, 0.6)],
      keep: model(20).id,
      listed: listed(...steps),
    });
    assert.ok(plan.ok);
    assert.deepEqual(plan.doomed, [10, 11, 12]);
    assert.equal(plan.chosen, 20);
    assert.deepEqual(plan.best, [30]);
    assert.equal(plan.latest, 40);
    const words = pruneConfirmation(plan, 'my-model');
    assert.equal(words.detail, `Delete 3 checkpoints of model "my-model" (id ${training}): steps 10–12. Steps 20 (chosen), 30 (best), 40 (latest) stay. This cannot be undone.`);
    assert.equal(words.action, 'Delete Checkpoints');
  });

  it('on the demo shape (300 checkpoints never evaluated, some made after the evaluation) deletes none of them', () => {
    const evaluated = [0, 50, 100];
    const all = range(0, 330);
    const plan = planPrune({
      models: evaluated.map(model),
      leaderboard: [row(100, 0.9), row(50, 0.7), row(0, 0.2)],
      keep: model(50).id,
      listed: listed(...all),
    });
    assert.ok(plan.ok);
    assert.deepEqual(plan.doomed, [0]);
    assert.equal(plan.latest, 330);
    assert.equal(plan.stay.unevaluated, all.length - evaluated.length - 1);
    assert.equal(plan.stay.madeAfter, 230 - 1);
    const words = pruneConfirmation(plan, 'demo');
    assert.match(
      words.detail,
      /^Delete 1 checkpoint of model "demo" \(id [^)]+\): step 0\. Steps 50 \(chosen\), 100 \(best\), 330 \(latest\) stay\. Also kept: 327 checkpoints this evaluation did not score \(229 of them made after it\)\. This cannot be undone\.$/,
    );
  });

  it('deletes nothing when every other checkpoint was not evaluated', () => {
    const plan = planPrune({ models: [model(5)], leaderboard: [row(5, 0.5)], keep: model(5).id, listed: listed(...range(1, 300)) });
    assert.ok(plan.ok);
    assert.deepEqual(plan.doomed, []);
    assert.equal(plan.stay.unevaluated, 298);
  });

  it('keeps ties with the chosen one, steps whose answers mostly failed, every step at the top, and steps of another training model', () => {
    const other: EvalModelRef = { ...model(3), id: 'wandb-artifact:///team/project/other:step3', trainingModelId: 'wandb-artifact:///team/project/other' };
    const plan = planPrune({
      models: [model(1), model(2), model(3), model(4), model(5), model(6), other],
      leaderboard: [row(5, 0.9), row(6, 0.9), row(2, 0.5), row(3, 0.5), row(1, 0.2, 2, 8), row(4, 0.1), { ...row(3, 0.0), model: other.id }],
      keep: model(2).id,
      listed: listed(1, 2, 3, 4, 5, 6, 7),
    });
    assert.ok(plan.ok);
    assert.deepEqual(plan.doomed, [4]);
    assert.deepEqual(plan.best, [5, 6]);
    assert.deepEqual(plan.stay, { unevaluated: 0, madeAfter: 0, notBelow: 1, mostlyFailed: 1 });
  });

  it('refuses a chosen model that is not an evaluated checkpoint', () => {
    const base: EvalModelRef = { id: 'Qwen/Qwen3-8B', label: 'base', kind: 'base', api: 'inference' };
    assert.equal(planPrune({ models: [base, model(1)], leaderboard: [row(1, 0.5)], keep: base.id, listed: listed(1) }).ok, false);
    assert.equal(planPrune({ models: [model(1), model(2)], leaderboard: [row(1, 0.5), row(2, 0, 0, 10)], keep: model(2).id, listed: listed(1, 2) }).ok, false);
    assert.equal(planPrune({ models: [model(1)], leaderboard: [row(1, 0.5)], keep: 'unknown', listed: listed(1) }).ok, false);
  });

  it('names one step that stays in the singular and quotes a model name that holds a line break', () => {
    const plan = planPrune({ models: [model(1), model(2)], leaderboard: [row(2, 0.9), row(1, 0.1)], keep: model(2).id, listed: listed(1, 2) });
    assert.ok(plan.ok);
    const words = pruneConfirmation(plan, 'evil\nStep 9 stays');
    assert.equal(words.detail, `Delete 1 checkpoint of model "evil\\nStep 9 stays" (id ${training}): step 1. Step 2 (chosen, best, latest) stays. This cannot be undone.`);
    assert.equal(words.action, 'Delete Checkpoint');
  });
});

describe('the crowned best of a leaderboard', () => {
  it('crowns the highest mean, but not a tie nor a leader with more failed than scored answers', () => {
    assert.equal(crownedBest([row(1, 0.5), row(2, 0.7)])?.step, 2);
    assert.equal(crownedBest([row(1, 0.7), row(2, 0.7)]), undefined);
    assert.equal(crownedBest([row(1, 0.5), row(2, 0.9, 1, 5)]), undefined);
    assert.equal(crownedBest([row(1, 0, 0, 10)]), undefined);
    assert.equal(crownedBest([row(1, 0.2, 0, 10), row(2, 0.1)])?.step, 2);
  });
});
