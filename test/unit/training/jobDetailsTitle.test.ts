import * as assert from 'node:assert/strict';
import { jobDetailsTitle } from '../../../src/training/protocol';

describe('job details title', () => {
  it('is the label the job was given', () => {
    assert.equal(jobDetailsTitle({ id: '8de92f73-1111-2222-3333-444455556666', label: 'math.jsonl → reasoner' }), 'math.jsonl → reasoner');
  });

  it('is "Job" and the short id without a label, never "Job: job …"', () => {
    assert.equal(jobDetailsTitle({ id: '8de92f73-1111-2222-3333-444455556666' }), 'Job 8de92f73');
    assert.equal(jobDetailsTitle({ id: '8de92f73-1111-2222-3333-444455556666', label: '  ' }), 'Job 8de92f73');
  });
});
