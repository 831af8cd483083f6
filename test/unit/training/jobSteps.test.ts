import * as assert from 'node:assert/strict';
import type { TrainingJobEvent } from '../../../src/platform/client/types';
import { applyJobEvents, initialJobStatus } from '../../../src/training/model/jobStatus';
import { describeJobProgress, modelStepOf, numberJobSteps, stepAxisName } from '../../../src/training/model/jobSteps';

/** The second job on a model: the platform's `step` goes on from the first job's 24 steps. */
function secondJob(done: number, total: number): TrainingJobEvent[] {
  const events: TrainingJobEvent[] = [{ id: 'start', type: 'training_started', data: { num_sequences: total } }];
  for (let k = 1; k <= done; k++) events.push({ id: `g${k}`, type: 'gradient_step', data: { step: 24 + k, loss: 1 / k } });
  return events;
}

describe('job steps and model steps', () => {
  it('names both numberings in the header line, never a bare "step"', () => {
    const status = applyJobEvents(initialJobStatus, secondJob(34, 1000));
    assert.equal(describeJobProgress(status), 'running · job step 34 of 1000 · model step 58');
    const ended = applyJobEvents(status, [{ id: 'end', type: 'training_ended', data: {} }]);
    assert.equal(describeJobProgress(ended), 'succeeded · 34 job steps · model step 58');
    assert.equal(describeJobProgress(applyJobEvents(initialJobStatus, secondJob(0, 10))), 'running · starting');
    assert.equal(describeJobProgress(initialJobStatus), 'queued');
  });

  it('says both counts when a server sends more steps than it announced', () => {
    const status = applyJobEvents(initialJobStatus, secondJob(5, 3));
    assert.equal(describeJobProgress(status), 'running · job step 5 (3 announced) · model step 29');
  });

  it('leaves the model step out when the platform reports none', () => {
    const events: TrainingJobEvent[] = [{ id: 'g', type: 'gradient_step', data: { loss: 1 } }];
    assert.equal(describeJobProgress(applyJobEvents(initialJobStatus, events)), 'running · job step 1');
    assert.equal(modelStepOf(events[0]!), undefined);
    assert.equal(modelStepOf({ id: 'x', type: 'gradient_step', data: { step: 'seven' } }), undefined);
  });

  it('numbers gradient steps by job step, ending at the status count when older events were dropped', () => {
    const all = secondJob(10, 10);
    const status = applyJobEvents(initialJobStatus, all);
    const kept = [all[0]!, ...all.slice(-3)];
    assert.deepEqual(numberJobSteps(kept, status.step), [undefined, 8, 9, 10]);
    assert.deepEqual(numberJobSteps(all, status.step), [undefined, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('gives no job step to gradient steps after the job ended, as the status does not count them', () => {
    const events: TrainingJobEvent[] = [...secondJob(2, 2), { id: 'end', type: 'training_ended', data: {} }, { id: 'late', type: 'gradient_step', data: { step: 99 } }];
    const status = applyJobEvents(initialJobStatus, events);
    assert.equal(status.step, 2);
    assert.deepEqual(numberJobSteps(events, status.step), [undefined, 1, 2, undefined, undefined]);
  });

  it('has one name per numbering', () => {
    assert.equal(stepAxisName('model'), 'model step');
    assert.equal(stepAxisName('job'), 'job step');
  });
});
