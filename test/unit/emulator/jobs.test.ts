import assert from 'node:assert/strict';
import { startEmulator } from '../../emulator';
import type { Emulator } from '../../emulator/contract';
import { allEvents, call, eventually, trajectoryGroup, type JobEvent } from './client';

async function finished(emulator: Emulator, jobId: string): Promise<JobEvent[]> {
  return eventually(async () => {
    const events = await allEvents(emulator, jobId);
    const last = events.at(-1)?.type;
    return last === 'training_ended' || last === 'training_failed' ? events : undefined;
  });
}

describe('emulator: training jobs', () => {
  let emulator: Emulator;
  let modelId: string;
  before(async () => {
    emulator = await startEmulator({ secondsPerStep: 0.01, seed: false });
    modelId = (await call(emulator, 'training', 'POST', '/preview/models', { body: { project: 'p', name: 'trainee', base_model: 'OpenPipe/Qwen3-14B-Instruct' } })).json.id;
  });
  after(() => emulator.close());

  it('runs a job to training_ended and adds one checkpoint per gradient step', async () => {
    const groups = Array.from({ length: 5 }, () => trajectoryGroup());
    const created = await call(emulator, 'training', 'POST', '/preview/training-jobs', { body: { model_id: modelId, trajectory_groups: groups, experimental_config: { learning_rate: 1e-5 } } });
    assert.equal(created.status, 200);
    const jobId = created.json.id as string;
    const events = await finished(emulator, jobId);

    assert.deepEqual(
      events.map((event) => event.type),
      ['training_started', ...Array(5).fill('gradient_step'), 'training_ended'],
    );
    assert.equal(events[0]!.data.num_sequences, 5);
    assert.equal(new Set(events.map((event) => event.id)).size, events.length);
    const steps = events.filter((event) => event.type === 'gradient_step');
    for (const step of steps) {
      for (const name of ['step', 'loss', 'reward', 'learning_rate', 'num_tokens', 'num_trainable_tokens', 'tokens_per_second', 'grad_norm']) {
        assert.equal(typeof step.data[name], 'number', name);
      }
      assert.equal(step.data.learning_rate, 1e-5);
    }
    assert.ok((steps.at(-1)!.data.loss as number) < (steps[0]!.data.loss as number), 'loss falls');

    const checkpoints = await call(emulator, 'training', 'GET', `/preview/models/${modelId}/checkpoints`);
    assert.deepEqual(
      checkpoints.json.data.map((checkpoint: { step: number }) => checkpoint.step),
      [0, 1, 2, 3, 4, 5],
    );
    assert.deepEqual(checkpoints.json.data[5].metrics, steps[4]!.data);

    const job = await call(emulator, 'training', 'GET', `/preview/training-jobs/${jobId}`);
    assert.equal(job.json.status, 'succeeded');
    assert.equal(job.json.model_id, modelId);
    assert.equal(job.json.error_message, null);
    assert.ok(Date.parse(job.json.training_start) <= Date.parse(job.json.training_end));
  });

  it('is queued first, then running', async () => {
    const slow = await startEmulator({ secondsPerStep: 0.2, seed: false });
    try {
      const model = await slow.createModelWithCheckpoints('slow', 1);
      const jobId = (await call(slow, 'training', 'POST', '/preview/training-jobs', { body: { model_id: model, trajectory_groups: [] } })).json.id;
      const queued = await call(slow, 'training', 'GET', `/preview/training-jobs/${jobId}`);
      assert.equal(queued.json.status, 'queued');
      assert.equal(queued.json.training_start, null);
      assert.deepEqual((await call(slow, 'training', 'GET', `/preview/training-jobs/${jobId}/events`)).json.data, []);
      await eventually(async () => ((await call(slow, 'training', 'GET', `/preview/training-jobs/${jobId}`)).json.status === 'running' ? true : undefined));
      const events = await allEvents(slow, jobId);
      assert.equal(events[0]!.type, 'training_started');
      assert.equal(events[0]!.data.num_sequences, 3, 'at least three steps');
    } finally {
      await slow.close();
    }
  });

  it('fails a job whose trajectory group asks for it, with the given message', async () => {
    const groups = [trajectoryGroup(), trajectoryGroup({ emulator_fail: 'Reward function raised ValueError' }), trajectoryGroup(), trajectoryGroup()];
    const jobId = (await call(emulator, 'training', 'POST', '/preview/training-jobs', { body: { model_id: modelId, trajectory_groups: groups } })).json.id;
    const events = await finished(emulator, jobId);
    assert.deepEqual(
      events.map((event) => event.type),
      ['training_started', 'gradient_step', 'gradient_step', 'training_failed'],
    );
    assert.equal(events.at(-1)!.data.error_message, 'Reward function raised ValueError');
    const job = await call(emulator, 'training', 'GET', `/preview/training-jobs/${jobId}`);
    assert.equal(job.json.status, 'failed');
    assert.equal(job.json.error_message, 'Reward function raised ValueError');
  });

  it('fails a job whose experimental config asks for it', async () => {
    const jobId = (
      await call(emulator, 'training', 'POST', '/preview/training-jobs', { body: { model_id: modelId, trajectory_groups: [trajectoryGroup()], experimental_config: { emulator_fail: 'NaN loss' } } })
    ).json.id;
    const events = await finished(emulator, jobId);
    assert.equal(events.at(-1)!.type, 'training_failed');
    assert.equal(events.at(-1)!.data.error_message, 'NaN loss');
  });

  it('runs a supervised job of eight steps', async () => {
    const created = await call(emulator, 'training', 'POST', '/preview/sft-training-jobs', {
      body: { model_id: modelId, training_data_url: 'https://data.example/train.jsonl', config: { batch_size: 'auto', learning_rate: [2e-5, 1e-5] } },
    });
    assert.equal(created.status, 200);
    const events = await finished(emulator, created.json.id);
    assert.equal(events.filter((event) => event.type === 'gradient_step').length, 8);
    assert.equal(events.at(-1)!.type, 'training_ended');
    const bad = await call(emulator, 'training', 'POST', '/preview/sft-training-jobs', { body: { model_id: modelId, training_data_url: 'x', config: { batch_size: 'big' } } });
    assert.equal(bad.status, 422);
  });

  it('pages events with after and limit, oldest first', async () => {
    const groups = Array.from({ length: 9 }, () => trajectoryGroup());
    const jobId = (await call(emulator, 'training', 'POST', '/preview/training-jobs', { body: { model_id: modelId, trajectory_groups: groups } })).json.id;
    const whole = await finished(emulator, jobId);
    const paged = await allEvents(emulator, jobId, 4);
    assert.deepEqual(paged, whole);
    const unknown = await call(emulator, 'training', 'GET', `/preview/training-jobs/${jobId}/events?after=missing`);
    assert.equal(unknown.status, 422);
  });

  it('answers unknown jobs and models with 404', async () => {
    const job = await call(emulator, 'training', 'GET', '/preview/training-jobs/00000000-0000-4000-8000-000000000000');
    assert.deepEqual([job.status, job.json], [404, { detail: 'Training job not found' }]);
    const events = await call(emulator, 'training', 'GET', '/preview/training-jobs/nope/events');
    assert.equal(events.status, 404);
    const noModel = await call(emulator, 'training', 'POST', '/preview/training-jobs', { body: { model_id: 'nope', trajectory_groups: [] } });
    assert.deepEqual([noModel.status, noModel.json], [404, { detail: 'Model not found' }]);
  });
});

describe('emulator: seeded demo data', () => {
  let emulator: Emulator;
  before(async () => {
    emulator = await startEmulator({ secondsPerStep: 0.05 });
  });
  after(() => emulator.close());

  it('has a trained model with about 25 checkpoints from a succeeded job', async () => {
    const seeded = emulator.seeded!;
    assert.equal(`${seeded.trainedModelEntity}/${seeded.trainedModelProject}/${seeded.trainedModelName}`, 'emulator-entity/demo-project/agent-001');
    const page = await call(emulator, 'training', 'GET', `/preview/models/${seeded.trainedModelId}/checkpoints?limit=25`);
    assert.deepEqual(
      page.json.data.map((checkpoint: { step: number }) => checkpoint.step),
      Array.from({ length: 25 }, (_, step) => step),
    );
    const succeeded = await call(emulator, 'training', 'GET', `/preview/training-jobs/${seeded.succeededJobId}`);
    assert.equal(succeeded.json.status, 'succeeded');
    const events = await allEvents(emulator, seeded.succeededJobId);
    assert.equal(events.filter((event) => event.type === 'gradient_step').length, 24);
  });

  it('has a running job that progresses on its own', async () => {
    const seeded = emulator.seeded!;
    const job = await call(emulator, 'training', 'GET', `/preview/training-jobs/${seeded.runningJobId}`);
    assert.equal(job.json.status, 'running');
    const before = (await allEvents(emulator, seeded.runningJobId)).length;
    const grown = await eventually(async () => {
      const now = (await allEvents(emulator, seeded.runningJobId)).length;
      return now > before + 1 ? now : undefined;
    });
    assert.ok(grown > before);
  });

  it('has a failed job with an error message', async () => {
    const job = await call(emulator, 'training', 'GET', `/preview/training-jobs/${emulator.seeded!.failedJobId}`);
    assert.equal(job.json.status, 'failed');
    assert.match(job.json.error_message, /out of memory/);
  });
});
