import * as assert from 'node:assert/strict';
import type { TrainingJobEvent } from '../../../src/platform/client/types';
import { applyJobEvents, describePhase, elapsedMs, initialJobStatus, isTerminal, latestLoss, progressOf, withJobRecord } from '../../../src/training/model/jobStatus';

let counter = 0;
const event = (type: string, data: Record<string, unknown> = {}, created_at?: string): TrainingJobEvent => ({ id: `e${++counter}`, type, data, ...(created_at ? { created_at } : {}) });

describe('job status derived from events', () => {
  it('is queued before any event', () => {
    assert.equal(initialJobStatus.phase, 'queued');
    assert.equal(describePhase(initialJobStatus), 'queued');
    assert.equal(isTerminal(initialJobStatus), false);
  });

  it('runs at step k of n after training_started and k gradient steps', () => {
    const status = applyJobEvents(initialJobStatus, [
      event('training_started', { num_sequences: 10 }),
      event('gradient_step', { loss: 2.5, learning_rate: 1e-5 }),
      event('gradient_step', { loss: 2.1, learning_rate: 1e-5, note: 'text is not a metric' }),
    ]);
    assert.equal(status.phase, 'running');
    assert.equal(status.step, 2);
    assert.equal(status.totalSteps, 10);
    assert.equal(latestLoss(status), 2.1);
    assert.deepEqual(status.latestMetrics, { loss: 2.1, learning_rate: 1e-5 });
    assert.equal(describePhase(status), 'running · job step 2 of 10');
    assert.equal(status.eventCount, 3);
    assert.equal(status.lastEventId, `e${counter}`);
  });

  it('succeeds on training_ended and fails with the message of training_failed', () => {
    const started = applyJobEvents(initialJobStatus, [event('training_started', { num_sequences: 2 })]);
    const ended = applyJobEvents(started, [event('gradient_step', { loss: 1 }), event('training_ended')]);
    assert.equal(ended.phase, 'succeeded');
    assert.ok(isTerminal(ended));
    const failed = applyJobEvents(started, [event('training_failed', { error_message: 'CUDA out of memory' })]);
    assert.equal(failed.phase, 'failed');
    assert.equal(failed.errorMessage, 'CUDA out of memory');
    const silent = applyJobEvents(started, [event('training_failed', {})]);
    assert.match(silent.errorMessage ?? '', /without a message/);
  });

  it('gives the same status whether events arrive at once or in batches', () => {
    const events = [
      event('training_started', { num_sequences: 3 }),
      event('gradient_step', { loss: 3 }),
      event('gradient_step', { loss: 2 }),
      event('gradient_step', { loss: 1 }),
      event('training_ended'),
    ];
    const once = applyJobEvents(initialJobStatus, events, 5);
    for (let split = 0; split <= events.length; split++) {
      const twice = applyJobEvents(applyJobEvents(initialJobStatus, events.slice(0, split), 5), events.slice(split), 5);
      assert.deepEqual(twice, once, `split at ${split}`);
    }
  });

  it('never leaves a terminal phase on a late event', () => {
    const done = applyJobEvents(initialJobStatus, [event('training_started'), event('training_ended')]);
    const after = applyJobEvents(done, [event('gradient_step', { loss: 9 }), event('training_failed', { error_message: 'late' })]);
    assert.equal(after.phase, 'succeeded');
    assert.equal(after.errorMessage, undefined);
    assert.equal(after.step, 0);
  });

  it('keeps unknown event types in the count without changing the phase', () => {
    const status = applyJobEvents(initialJobStatus, [event('checkpoint_uploaded', { step: 3 })]);
    assert.equal(status.phase, 'queued');
    assert.equal(status.eventCount, 1);
  });

  it('times the job from event times, or from when events were observed', () => {
    const timed = applyJobEvents(initialJobStatus, [event('training_started', {}, '2025-01-01T00:00:00Z'), event('training_ended', {}, '2025-01-01T00:02:30Z')]);
    assert.equal(elapsedMs(timed, Date.now()), 150_000);
    const observed = applyJobEvents(initialJobStatus, [event('training_started')], 1_000);
    assert.equal(elapsedMs(observed, 4_000), 3_000);
    assert.equal(elapsedMs(initialJobStatus, 4_000), undefined);
  });

  it('fills times, a phase without events and a missing message from the job record', () => {
    const fromRecord = withJobRecord(initialJobStatus, { id: 'j', status: 'failed', error_message: 'bad data', training_start: '2025-01-01T00:00:00Z', training_end: '2025-01-01T00:00:10Z' });
    assert.equal(fromRecord.phase, 'failed');
    assert.equal(fromRecord.errorMessage, 'bad data');
    assert.equal(elapsedMs(fromRecord, 0), 10_000);
    const observed = applyJobEvents(initialJobStatus, [event('training_started'), event('training_ended')], 5_000);
    assert.equal(elapsedMs(observed, 0), 0, 'both seen in one poll');
    const corrected = withJobRecord(observed, { id: 'j', training_start: '2025-01-01T00:00:00Z', training_end: '2025-01-01T00:01:00Z' });
    assert.equal(elapsedMs(corrected, 0), 60_000, "the server's times replace times only observed");
    const ownTimes = applyJobEvents(initialJobStatus, [event('training_started', {}, '2025-01-01T00:00:30Z'), event('training_ended', {}, '2025-01-01T00:00:40Z')]);
    assert.equal(elapsedMs(withJobRecord(ownTimes, { id: 'j', training_start: '2025-01-01T00:00:00Z', training_end: '2025-01-01T00:01:00Z' }), 0), 10_000, "never the events' own times");
    const eventsWin = withJobRecord(applyJobEvents(initialJobStatus, [event('training_started')]), { id: 'j', status: 'queued' });
    assert.equal(eventsWin.phase, 'running');
    assert.equal(withJobRecord(initialJobStatus, undefined), initialJobStatus);
  });

  it('does not believe an impossible announcement, and keeps progress between 0 and 1', () => {
    for (const announced of [0, -3, Number.NaN, 1e300, '10', null, Number.POSITIVE_INFINITY]) {
      const status = applyJobEvents(initialJobStatus, [event('training_started', { num_sequences: announced }), event('gradient_step', { loss: 1 })]);
      assert.equal(status.totalSteps, undefined, `announced ${String(announced)}`);
      assert.equal(progressOf(status), undefined);
      assert.equal(describePhase(status), 'running · job step 1');
    }
    const fractional = applyJobEvents(initialJobStatus, [event('training_started', { num_sequences: 7.9 })]);
    assert.equal(fractional.totalSteps, 7);
    const beyond = applyJobEvents(initialJobStatus, [event('training_started', { num_sequences: 1000 }), ...Array.from({ length: 1200 }, () => event('gradient_step', { loss: 1 }))]);
    assert.equal(describePhase(beyond), 'running · job step 1200 (1000 announced)');
    assert.equal(progressOf(beyond), 1);
    const halfway = applyJobEvents(initialJobStatus, [event('training_started', { num_sequences: 4 }), event('gradient_step'), event('gradient_step')]);
    assert.equal(progressOf(halfway), 0.5);
    assert.equal(progressOf(applyJobEvents(halfway, [event('training_ended')])), 1);
  });

  it('reads metrics only from an object, whatever a server puts in data', () => {
    const odd = { id: 'odd', type: 'gradient_step', data: 'x'.repeat(100_000) as unknown as Record<string, unknown> };
    const status = applyJobEvents(initialJobStatus, [odd, { id: 'list', type: 'training_failed', data: [1, 2] as unknown as Record<string, unknown> }]);
    assert.deepEqual(status.latestMetrics, {});
    assert.equal(status.phase, 'failed');
    assert.match(status.errorMessage ?? '', /without a message/);
  });

  it('treats a record that says cancelled as finished, with words for it', () => {
    const cancelled = withJobRecord(initialJobStatus, { id: 'j', status: 'cancelled' });
    assert.ok(isTerminal(cancelled));
    assert.equal(cancelled.errorMessage, 'The training job was cancelled.');
  });
});
