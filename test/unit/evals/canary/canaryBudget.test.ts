import * as assert from 'node:assert/strict';
import { BudgetSpent, CheckpointAllowance, HourlySpend, requestsPerAnswer, samplesPerCheckpoint } from '../../../../src/evals/model/canary/canaryBudget';
import type { NamedScorer } from '../../../../src/platform/scoring/scorerSpec';

const exact: NamedScorer = { name: 'exact match', spec: { kind: 'exactMatch' } };
const judge: NamedScorer = { name: 'judge', spec: { kind: 'judge', model: 'm', rubric: 'r' } };
const minute = 60_000;
const hour = 60 * minute;

describe("a canary's budget", () => {
  it('pays for an answer and each judge grading it', () => {
    assert.equal(requestsPerAnswer([exact]), 1);
    assert.equal(requestsPerAnswer([exact, judge]), 2);
    assert.equal(samplesPerCheckpoint(100, [exact], { perCheckpoint: 40, perHour: 200 }), 40);
    assert.equal(samplesPerCheckpoint(100, [exact, judge], { perCheckpoint: 41, perHour: 200 }), 20);
    assert.equal(samplesPerCheckpoint(12, [exact], { perCheckpoint: 40, perHour: 200 }), 12);
    assert.equal(samplesPerCheckpoint(12, [exact, judge], { perCheckpoint: 1, perHour: 200 }), 0);
  });

  it('counts the last hour only, and says when room comes back', () => {
    const spend = new HourlySpend();
    const t0 = 10 * hour;
    for (let i = 0; i < 5; i++) assert.equal(spend.take(5, t0 + i), true);
    assert.equal(spend.take(5, t0 + 10), false, 'the sixth request of the hour is refused');
    assert.equal(spend.spent(t0 + 10), 5);
    // Room for 2 comes when the minute of the first five leaves the window.
    assert.equal(spend.roomAt(2, 5, t0 + minute), t0 + minute + hour);
    assert.equal(spend.roomAt(2, 5, t0 + hour + 2 * minute), t0 + hour + 2 * minute);
    assert.equal(spend.spent(t0 + hour + 2 * minute), 0);
    assert.equal(spend.take(5, t0 + hour + 2 * minute), true);
  });

  it('keeps at most one bucket a minute however much is spent', () => {
    const spend = new HourlySpend();
    for (let t = 0; t < 3 * hour; t += 1_000) spend.take(Number.MAX_SAFE_INTEGER, t);
    assert.ok((spend as unknown as { buckets: unknown[] }).buckets.length <= 61);
    assert.equal(spend.spent(3 * hour), 3_600);
  });

  it("refuses a checkpoint's request past its share or past the hour's, before counting it", () => {
    const spend = new HourlySpend();
    let now = 0;
    const first = new CheckpointAllowance({ perCheckpoint: 3, perHour: 5 }, spend, () => now);
    first.take();
    first.take();
    first.take();
    assert.throws(() => first.take(), BudgetSpent);
    assert.equal(first.spent, 3);
    const second = new CheckpointAllowance({ perCheckpoint: 3, perHour: 5 }, spend, () => now);
    second.take();
    second.take();
    assert.throws(() => second.take(), /for this hour are spent/);
    assert.equal(spend.spent(now), 5);
    now = 2 * hour;
    second.take();
    assert.equal(second.spent, 3);
  });
});
