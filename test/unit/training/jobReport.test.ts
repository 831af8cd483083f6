import * as assert from 'node:assert/strict';
import { describeJobForAgent, explainJobFacts, maxFailureChars } from '../../../src/training/model/jobReport';
import type { TrainingJobEvent } from '../../../src/platform/client/types';
import { failed, other, rewardDropRun, started, step } from './jobEvents';

const noon = Date.UTC(2025, 0, 2, 12);

/** A run's events, ten seconds apart from noon. */
function timed(events: TrainingJobEvent[]): TrainingJobEvent[] {
  return events.map((event, index) => ({ ...event, created_at: new Date(noon + index * 10_000).toISOString() }));
}

describe('job report for a language model', () => {
  it('describes a failed job: status, times, the failure verbatim, latest metrics, a table and trend lines', () => {
    const events = [...timed(rewardDropRun(12, 25)), failed('CUDA out of memory.\nTried to allocate 2.00 GiB', '2025-01-02T12:05:00Z')];
    const text = describeJobForAgent({ id: 'job-7' }, events, { now: noon + 3_600_000, modelName: 'my-model' });
    const lines = text.split('\n');
    assert.deepEqual(lines.slice(0, 9), [
      'Training job job-7 (model "my-model")',
      'Status: failed · 12 job steps · model step 36',
      'Started: 2025-01-02T12:00:00Z · ended 2025-01-02T12:05:00Z · ran for 5 min 00 s',
      'Failure message (verbatim, quoted on one line): "CUDA out of memory.\\nTried to allocate 2.00 GiB"',
      'Latest metrics, job step 12 (model step 36): loss 1.08 · reward 0.365 · entropy 2 · learning_rate 1e-5',
      'Events: 14 · 12 gradient steps',
      'Metrics by model step, over model steps 25–36:',
      'model step | loss | reward | entropy | learning_rate',
      '25         | 1.19 | 0.2    | 2       | 1e-5',
    ]);
    assert.equal(lines[19], '36         | 1.08 | 0.365  | 2       | 1e-5');
    assert.deepEqual(lines.slice(20), [
      'Trends:',
      '- loss: falling · 12 points · first 1.19 (model step 25), last 1.08 (model step 36) · min 1.08 (model step 36), max 1.19 (model step 25) · mean 1.17 over model steps 25–29, 1.1 over model steps 32–36 · slope -1 per 100 model steps',
      '  largest drop: loss fell from 1.17 (mean of model steps 25–29) to 1.12 (model steps 30–34): -0.05, -1.45 × its std',
      '- reward: rising · 12 points · first 0.2 (model step 25), last 0.365 (model step 36) · min 0.2 (model step 25), max 0.365 (model step 36) · mean 0.23 over model steps 25–29, 0.335 over model steps 32–36 · slope +1.5 per 100 model steps',
      '  largest rise: reward rose from 0.245 (mean of model steps 26–30) to 0.32 (model steps 31–35): +0.075, +1.45 × its std',
      '- entropy: flat · 12 points · first 2 (model step 25), last 2 (model step 36) · min 2 (model step 25), max 2 (model step 25) · mean 2 over model steps 25–29, 2 over model steps 32–36 · slope 0 per 100 model steps',
      '- learning_rate: flat · 12 points · first 1e-5 (model step 25), last 1e-5 (model step 36) · min 1e-5 (model step 25), max 1e-5 (model step 25) · mean 1e-5 over model steps 25–29, 1e-5 over model steps 32–36 · slope 0 per 100 model steps',
    ]);
  });

  it('says the reward drop at step 40 in the trend lines, on a running job, with its elapsed time and progress', () => {
    const text = describeJobForAgent({ id: 'job-8' }, [...timed(rewardDropRun(60)), other('checkpoint_saved')], { now: noon + 3_600_000 });
    const lines = text.split('\n');
    assert.equal(lines[1], 'Status: running · job step 60 of 100 · model step 60 (60% of the announced steps)');
    assert.equal(lines[2], 'Started: 2025-01-02T12:00:00Z · running for 1 h 00 min');
    assert.equal(lines[4], 'Events: 62 · 60 gradient steps · 1 of unknown types (checkpoint_saved)');
    assert.ok(lines.includes('  largest drop: reward fell from 0.62 (mean of model steps 34–39) to 0.31 (model steps 40–45): -0.31, -2.28 × its std'), text);
    // Twelve rows, each the step nearest to one of 12 evenly spaced targets from 1 to 60 (1, 6.36, 11.7, …).
    const table = lines.slice(lines.indexOf('model step | loss | reward | entropy | learning_rate') + 1, lines.indexOf('Trends:'));
    assert.deepEqual(
      table.map((row) => Number(row.split(' | ')[0])),
      [1, 6, 12, 17, 22, 28, 33, 39, 44, 49, 55, 60],
    );
  });

  it('describes a queued job and a job whose gradient steps carry no metric', () => {
    assert.equal(
      describeJobForAgent({ id: 'job-q', status: 'queued' }, [], { now: noon }),
      ['Training job job-q', 'Status: queued', 'Events: 0 · 0 gradient steps', 'Metrics: none yet (no gradient step).'].join('\n'),
    );
    assert.equal(
      describeJobForAgent(undefined, [started(5), step({ step: 1 }), step({ step: 2, note: 'text' })], { now: noon }),
      [
        'Training job unknown',
        'Status: running · job step 2 of 5 · model step 2 (40% of the announced steps)',
        'Events: 3 · 2 gradient steps',
        'Metrics: the gradient steps reported no numeric metric.',
      ].join('\n'),
    );
  });

  it('quotes a failure message of 5,000 characters up to 2,000, and masks a secret in it after the cut', () => {
    const secret = 'sk-live-0123456789abcdef';
    const message = `auth header Bearer ${secret} rejected; ${'x'.repeat(5_000)}`;
    const text = describeJobForAgent({ id: 'job-f' }, [started(3), step({ loss: 1 }), failed(message)], { now: noon, secrets: [secret] });
    const quoted = text.split('\n').find((line) => line.startsWith('Failure message'))!;
    assert.equal(quoted.includes(secret), false);
    assert.ok(quoted.startsWith('Failure message (verbatim, quoted on one line): "auth header Bearer [redacted] rejected; xxx'), quoted);
    assert.ok(quoted.endsWith(`x…" (${message.length.toLocaleString('en-US')} characters in all)`), quoted.slice(-60));
    // The quote itself: 1,999 characters of the message and the ellipsis, inside the quotes.
    const plain = describeJobForAgent({ id: 'job-f' }, [started(3), step({ loss: 1 }), failed('y'.repeat(5_000))], { now: noon });
    assert.ok(plain.includes(`: "${'y'.repeat(maxFailureChars - 1)}…" (5,000 characters in all)\n`));
  });

  it('keeps a job with 20 metrics over 5,000 steps to 8,000 characters by default, saying what it left out', () => {
    const events: TrainingJobEvent[] = [started(5_000)];
    for (let k = 1; k <= 5_000; k++) {
      const data: Record<string, unknown> = { step: k, loss: 1 / k, reward: (k % 10) / 10 };
      for (let m = 0; m < 20; m++) data[`metric_${String(m).padStart(2, '0')}`] = (k * (m + 1)) % 13;
      events.push(step(data));
    }
    const text = describeJobForAgent({ id: 'job-wide' }, events, { now: noon });
    assert.ok(text.length <= 8_000 && text.length > 7_000, `${text.length}`);
    assert.match(text.split('\n').at(-1)!, /^… \d+ more lines$/);
    assert.ok(text.includes('Metrics by model step, over model steps 1–5000 (6 more metrics not shown):'));
  });

  it('caps the text and says how many lines it left out', () => {
    const events = rewardDropRun(60);
    const whole = describeJobForAgent({ id: 'job-c' }, events, { now: noon });
    const cut = describeJobForAgent({ id: 'job-c' }, events, { now: noon, maxChars: 600 });
    assert.ok(cut.length <= 600, `${cut.length}`);
    const lines = cut.split('\n');
    const note = /^… (\d+) more lines$/.exec(lines.at(-1)!);
    assert.ok(note, lines.at(-1));
    assert.equal(Number(note[1]), whole.split('\n').length - (lines.length - 1));
    assert.deepEqual(lines.slice(0, -1), whole.split('\n').slice(0, lines.length - 1));
  });

  it('explains a failed job in findings: the failure, the last step before it, and the directions', () => {
    const events = [...rewardDropRun(12, 25), failed('CUDA out of memory.')];
    assert.deepEqual(explainJobFacts({ id: 'job-7' }, events, { now: noon }), [
      'The job failed after 12 job steps (last model step 36).',
      'Failure message (verbatim, quoted on one line): "CUDA out of memory."',
      'The last gradient step before the failure: job step 12 (model step 36): loss 1.08 · reward 0.365 · entropy 2 · learning_rate 1e-5.',
      'Reward went from 0.2 (model step 25) to 0.365 (model step 36); it peaked at 0.365 (model step 36); standard deviation over the run 0.0518.',
      'Reward never fell from one window of steps to the next.',
      'Directions over the run: loss falling, reward rising, entropy flat, learning_rate flat.',
    ]);
    assert.deepEqual(explainJobFacts({ id: 'job-0' }, [started(3), failed('')], { now: noon }), [
      'The job failed after 0 job steps.',
      'Failure message (verbatim, quoted on one line): "The training job failed without a message."',
      'The job failed before any gradient step.',
      'No gradient step was reported, so there are no metrics.',
    ]);
  });

  it('explains a reward drop: where, by how much, and which metrics moved over the same steps', () => {
    assert.deepEqual(explainJobFacts({ id: 'job-8' }, rewardDropRun(60), { now: noon }), [
      'The job is still running (job step 60 of 100 announced, model step 60): its numbers may still change.',
      'Reward went from 0.2 (model step 1) to 0.31 (model step 60); it peaked at 0.62 (model step 29); standard deviation over the run 0.136.',
      'Largest reward drop: reward fell from 0.62 (mean of model steps 34–39) to 0.31 (model steps 40–45): -0.31, -2.28 × its std.',
      'Over the same steps: entropy fell from 2 to 1 (-2.1 × its std); loss rose from 0.835 to 0.9 (+0.634 × its std).',
      'Directions over the run: loss falling, reward noisy, entropy falling, learning_rate flat.',
    ]);
  });

  it('states values that were not numbers, a missing reward, and a job with no metric', () => {
    assert.deepEqual(explainJobFacts({ id: 'job-n' }, [started(5), step({ step: 1, loss: 1 }), step({ step: 2, loss: 'NaN' }), step({ step: 3, loss: Infinity })], { now: noon }), [
      'The job is still running (job step 3 of 5 announced, model step 3): its numbers may still change.',
      'loss was not a finite number on 2 gradient steps, the first at model step 2.',
      'No gradient step reported a reward.',
      'Directions over the run: loss flat.',
    ]);
    assert.deepEqual(explainJobFacts({ id: 'job-e' }, [started(5), step({ step: 1 }), step({ step: 2 })], { now: noon }), [
      'The job is still running (job step 2 of 5 announced, model step 2): its numbers may still change.',
      'None of the 2 gradient steps reported a numeric metric.',
    ]);
    assert.deepEqual(explainJobFacts({ id: 'job-q' }, [], { now: noon }), ['The job has not started: no training event has arrived yet.', 'No gradient step was reported, so there are no metrics.']);
  });

  it('caps the findings, saying how many it left out', () => {
    const findings = explainJobFacts({ id: 'job-8' }, rewardDropRun(60), { now: noon, maxChars: 300 });
    assert.deepEqual(findings, [
      'The job is still running (job step 60 of 100 announced, model step 60): its numbers may still change.',
      'Reward went from 0.2 (model step 1) to 0.31 (model step 60); it peaked at 0.62 (model step 29); standard deviation over the run 0.136.',
      '… 3 more findings',
    ]);
    assert.ok(findings.join('').length <= 300);
  });

  it('keeps both texts within 8,000 characters for 200,000 events, and says only the last 100,000 were analysed', () => {
    const events: TrainingJobEvent[] = [started(200_000)];
    for (let k = 1; k <= 200_000; k++) {
      events.push(step({ step: k, loss: 1 / k, reward: k < 150_000 ? 0.5 + (k % 7) / 100 : 0.25, entropy: 2 - k / 200_000, grad_norm: (k % 11) / 10, learning_rate: 1e-5 }));
    }
    events.push(failed('Out of memory at step 200000'));
    const text = describeJobForAgent({ id: 'job-big' }, events, { now: noon });
    assert.ok(text.length <= 8_000, `${text.length}`);
    assert.ok(text.includes('Events: 200,002 · the last 100,000 analysed · 99,999 gradient steps'), text.slice(0, 600));
    // Windows of a tenth of the 99,999 gradient steps analysed: 9,999 steps each side of step 150,000.
    const findings = explainJobFacts({ id: 'job-big' }, events, { now: noon });
    assert.ok(findings.join('\n').length <= 8_000);
    assert.equal(findings.at(-1), 'Only the last 100,000 of 200,002 events were analysed.');
    assert.ok(findings.includes('Largest reward drop: reward fell from 0.53 (mean of model steps 140001–149999) to 0.25 (model steps 150000–159998): -0.28, -1.99 × its std.'), findings.join('\n'));
  });
});
