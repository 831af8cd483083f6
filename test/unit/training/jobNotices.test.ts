import * as assert from 'node:assert/strict';
import type { TrainingJobEvent } from '../../../src/platform/client/types';
import { JobNoticeRules, noticeText } from '../../../src/training/model/jobNotices';
import { applyJobEvents, initialJobStatus, type JobPhase } from '../../../src/training/model/jobStatus';
import type { JobRecord } from '../../../src/training/model/jobTracker';

const minute = 60_000;

/** A job's record with the given events applied, as the tracker gives it after a poll. */
function recordOf(id: string, events: TrainingJobEvent[], extra: Partial<JobRecord> = {}): JobRecord {
  return { id, status: applyJobEvents(initialJobStatus, events), events, loaded: true, ...extra };
}

const started = (at: number): TrainingJobEvent => ({ id: `e-start`, type: 'training_started', data: { num_sequences: 10 }, created_at: new Date(at).toISOString() });
const step = (n: number, at: number): TrainingJobEvent => ({ id: `e-${n}`, type: 'gradient_step', data: { step: n, loss: 1 / n }, created_at: new Date(at).toISOString() });
const ended = (at: number): TrainingJobEvent => ({ id: 'e-end', type: 'training_ended', data: {}, created_at: new Date(at).toISOString() });
const failed = (at: number, message: string): TrainingJobEvent => ({ id: 'e-fail', type: 'training_failed', data: { error_message: message }, created_at: new Date(at).toISOString() });

describe('when a followed job is news', () => {
  it('tells once that a job seen running finished, and keeps the moving jobs for the next window', () => {
    const kept: string[][] = [];
    const rules = new JobNoticeRules({ now: () => 0, onMovingChange: (moving) => kept.push([...moving]) });
    const events = [started(0), step(1, 1000)];
    assert.deepEqual(rules.observe(recordOf('job-1', events), events), []);
    assert.deepEqual(kept.at(-1), ['job-1']);
    const all = [...events, ended(2000)];
    const notices = rules.observe(recordOf('job-1', all), [ended(2000)]);
    assert.deepEqual(
      notices.map((notice) => [notice.kind, notice.key, notice.step, notice.totalSteps]),
      [['finished', 'job-1:finished', 1, 10]],
    );
    assert.deepEqual(kept.at(-1), []);
    assert.deepEqual(rules.observe(recordOf('job-1', all), []), [], 'told once');
  });

  it('says nothing of a job that was already over when it was first read', () => {
    const rules = new JobNoticeRules({ now: () => 0 });
    const events = [started(0), step(1, 1000), ended(2000)];
    assert.deepEqual(rules.observe(recordOf('old', events), events), []);
  });

  it('tells a failure with its own message', () => {
    const rules = new JobNoticeRules({ now: () => 0 });
    rules.observe(recordOf('job-2', [started(0)]), [started(0)]);
    const [notice] = rules.observe(recordOf('job-2', [started(0), failed(1000, 'CUDA out of memory')]), [failed(1000, 'CUDA out of memory')]);
    assert.equal(notice?.kind, 'failed');
    assert.match(notice?.errorMessage ?? '', /CUDA out of memory/);
  });

  it('tells a job that ended while the editor was closed, when it was seen moving before', () => {
    const rules = new JobNoticeRules({ now: () => 0, moving: ['job-3'] });
    const events = [started(0), ended(5000)];
    assert.deepEqual(
      rules.observe(recordOf('job-3', events), events).map((notice) => notice.kind),
      ['finished'],
    );
  });

  it('ignores a record not read yet', () => {
    const rules = new JobNoticeRules({ now: () => 0, moving: ['job-4'] });
    assert.deepEqual(rules.observe({ id: 'job-4', status: { ...initialJobStatus, phase: 'failed' as JobPhase }, events: [] }), []);
  });
});

describe('when a followed job has stalled', () => {
  it('calls a stall after many of its usual gaps of silence, once, and a new event ends it', () => {
    let now = 0;
    const rules = new JobNoticeRules({ now: () => now, minStallMs: 5 * minute, stallFactor: 10 });
    // A step a minute: the pace is one minute, so ten minutes of silence is a stall.
    const events = [started(0), ...Array.from({ length: 6 }, (_, index) => step(index + 1, (index + 1) * minute))];
    now = 6 * minute;
    rules.observe(recordOf('job-5', events), events);
    const record = recordOf('job-5', events);
    now = 15 * minute;
    assert.deepEqual(rules.stalls([record]), [], 'nine minutes of silence: not yet');
    now = 16 * minute + 1;
    const [stall] = rules.stalls([record]);
    assert.equal(stall?.kind, 'stalled');
    assert.equal(stall?.step, 6);
    assert.ok(stall!.silentMs! > 10 * minute);
    assert.deepEqual(rules.stalls([record]), [], 'told once');
    const next = step(7, now);
    rules.observe(recordOf('job-5', [...events, next]), [next]);
    now += 11 * minute;
    const [again] = rules.stalls([recordOf('job-5', [...events, next])]);
    assert.equal(again?.kind, 'stalled', 'a new stall after the job moved again');
    assert.notEqual(again?.key, stall?.key);
  });

  it('never calls a stall before the minimum, however fast the pace', () => {
    let now = 0;
    const rules = new JobNoticeRules({ now: () => now, minStallMs: 10 * minute });
    const events = [started(0), step(1, 100), step(2, 200), step(3, 300)];
    now = 300;
    rules.observe(recordOf('fast', events), events);
    now = 9 * minute;
    assert.deepEqual(rules.stalls([recordOf('fast', events)]), []);
  });

  it('does not judge a job whose polls fail: the platform may be out of reach, not the job', () => {
    let now = 0;
    const rules = new JobNoticeRules({ now: () => now, minStallMs: minute });
    rules.observe(recordOf('away', [started(0)]), [started(0)]);
    now = 60 * minute;
    assert.deepEqual(rules.stalls([recordOf('away', [started(0)], { connectionError: 'training API unreachable' })]), []);
  });
});

describe('what a job notification says', () => {
  it('leads with what happened, the job named and the server text quoted', () => {
    const rules = new JobNoticeRules({ now: () => 0 });
    rules.observe(recordOf('job-6', [started(0)]), [started(0)]);
    const [failure] = rules.observe(recordOf('job-6', [started(0), failed(1, 'OOM\nat step 3')]), [failed(1, 'OOM\nat step 3')]);
    const text = noticeText(failure!, 'rollouts.jsonl');
    assert.match(text, /^Training job "rollouts\.jsonl" failed at 0 of 10 steps: "OOM\\nat step 3"\.$/);
    assert.equal(noticeText({ kind: 'finished', jobId: 'j', key: 'j:finished', step: 12 }, 'j'), 'Training job "j" finished after 12 steps.');
    assert.match(
      noticeText({ kind: 'stalled', jobId: 'j', key: 'k', step: 3, silentMs: 14 * minute, usualGapMs: minute }, 'j'),
      /no event for 14 min 00 s \(it usually sends one every 1 min 00 s\), at 3 steps: it may have stalled/,
    );
  });
});
