import assert from 'node:assert/strict';
import { PlatformClient } from '../../../../src/platform/client';
import { startEmulator, type Emulator } from '../../../emulator';
import { answerOf, clientFor, drain, failure, headerOf, testApiKey } from './support/harness';

const trajectoryGroup = {
  trajectories: [
    {
      messages_and_choices: [
        { role: 'user' as const, content: 'What is 2 + 2?' },
        { index: 0, finish_reason: 'stop', message: { role: 'assistant' as const, content: '4' } },
      ],
      reward: 1,
    },
  ],
};

describe('platform client endpoints', () => {
  let emulator: Emulator;
  let client: ReturnType<typeof clientFor>;

  before(async () => {
    emulator = await startEmulator({ apiKey: testApiKey });
    client = clientFor(emulator, { project: 'acme/rl-demo', userAgent: 'rl-studio-tests' });
  });
  after(async () => {
    await client.close();
    await emulator.close();
  });

  /** The requests the emulator received while `work` ran. */
  async function requestsDuring<T>(work: () => Promise<T>): Promise<{ value: T; requests: Emulator['requests'] }> {
    const start = emulator.requests.length;
    const value = await work();
    return { value, requests: emulator.requests.slice(start) };
  }

  describe('training API', () => {
    it('creates a chat completion with the key and a JSON body', async () => {
      const { value, requests } = await requestsDuring(() =>
        client.training.chatCompletion({ model: emulator.seeded!.baseModels[0]!, messages: [{ role: 'user', content: 'Hello' }], max_tokens: 16 }),
      );
      assert.match(value.id, /^chatcmpl-/);
      assert.equal(value.object, 'chat.completion');
      assert.equal(value.choices[0]?.message.role, 'assistant');
      assert.equal(typeof value.usage?.total_tokens, 'number');
      const [request] = requests;
      assert.equal(request?.method, 'POST');
      assert.equal(request?.path, '/training/v1/chat/completions');
      assert.equal(headerOf(request!, 'authorization'), `Bearer ${testApiKey}`);
      assert.equal(headerOf(request!, 'content-type'), 'application/json');
      assert.equal(headerOf(request!, 'user-agent'), 'rl-studio-tests');
      assert.equal(headerOf(request!, 'compat-project'), undefined, 'Compat-Project is for the inference API only');
      assert.deepEqual(JSON.parse(request!.body), { model: emulator.seeded!.baseModels[0], messages: [{ role: 'user', content: 'Hello' }], max_tokens: 16, stream: false });
    });

    it('streams a chat completion from a trained checkpoint (CRLF events)', async () => {
      const seeded = emulator.seeded!;
      const model = `wandb-artifact:///${seeded.trainedModelEntity}/${seeded.trainedModelProject}/${seeded.trainedModelName}:step1`;
      const start = emulator.requests.length;
      const { chunks, error } = await drain(client.training.streamChatCompletion({ model, messages: [{ role: 'user', content: 'Tell me a story' }] }));
      assert.equal(error, undefined);
      const answer = await answerOf(chunks);
      assert.ok(answer.content.length > 0);
      assert.equal(answer.finishReason !== undefined, true);
      assert.ok(answer.usage && answer.usage.total_tokens > 0, 'usage is asked for by default');
      const body = JSON.parse(emulator.requests[start]!.body);
      assert.equal(body.stream, true);
      assert.deepEqual(body.stream_options, { include_usage: true });
      assert.equal(headerOf(emulator.requests[start]!, 'accept'), 'text/event-stream');
    });

    it('creates a model and deletes it', async () => {
      const { value: model, requests } = await requestsDuring(() => client.training.createModel({ project: 'tests', name: 'endpoint-model', base_model: emulator.seeded!.baseModels[0]! }));
      assert.equal(model.name, 'endpoint-model');
      assert.equal(model.project, 'tests');
      assert.ok(model.id);
      assert.equal(requests[0]?.path, '/training/v1/preview/models');
      assert.deepEqual(JSON.parse(requests[0]!.body), { project: 'tests', name: 'endpoint-model', base_model: emulator.seeded!.baseModels[0] });

      const { value: deleted, requests: deletes } = await requestsDuring(() => client.training.deleteModel(model.id));
      assert.equal(deleted.model_id, model.id);
      assert.equal(deleted.deleted_run, true);
      assert.equal(deletes[0]?.method, 'DELETE');
      assert.equal(deletes[0]?.path, `/training/v1/preview/models/${model.id}`);
    });

    it('reports a 422 validation list as one line with details', async () => {
      const error = await failure(client.training.createModel({ project: 'tests', base_model: 'x' } as never));
      assert.equal(error.kind, 'http');
      assert.equal(error.status, 422);
      assert.deepEqual(error.details, ['body.name: Field required']);
      assert.equal(error.message, 'POST /training/v1/preview/models failed: 422 body.name: Field required');
    });

    it('lists checkpoints with a query and deletes some with a JSON body', async () => {
      const modelId = await emulator.createModelWithCheckpoints('endpoint-checkpoints', 10);
      const { value: page, requests } = await requestsDuring(() => client.training.listCheckpoints(modelId, { limit: 3, order: 'desc' }));
      assert.deepEqual(
        page.data.map((checkpoint) => checkpoint.step),
        [9, 8, 7],
      );
      assert.equal(page.has_more, true);
      assert.equal(page.last_id, page.data[2]?.id);
      assert.deepEqual(requests[0]?.query, { limit: '3', order: 'desc' });

      const { value: result, requests: deletes } = await requestsDuring(() => client.training.deleteCheckpoints(modelId, [1, 2, 99]));
      assert.deepEqual(result, { deleted_count: 2, not_found_steps: [99] });
      assert.equal(deletes[0]?.method, 'DELETE');
      assert.equal(deletes[0]?.path, `/training/v1/preview/models/${modelId}/checkpoints`);
      assert.equal(headerOf(deletes[0]!, 'content-type'), 'application/json');
      assert.deepEqual(JSON.parse(deletes[0]!.body), { steps: [1, 2, 99] });
    });

    it('encodes ids into paths', async () => {
      const odd = 'wandb-artifact:name step3 é+&=;@';
      const error = await failure(client.training.listCheckpoints(odd));
      assert.equal(error.status, 404);
      const request = emulator.requests.at(-1)!;
      assert.equal(request.path, `/training/v1/preview/models/${encodeURIComponent(odd)}/checkpoints`);
      assert.ok(!error.message.includes('undefined'));
    });

    it('refuses an id with a slash before sending anything', async () => {
      const before = emulator.requests.length;
      const error = await failure(client.training.listCheckpoints('wandb-artifact:///team/proj/name:step3'));
      assert.equal(error.kind, 'invalid-input');
      assert.equal(emulator.requests.length, before);
    });

    it('logs trajectories, naming the model in the body as the official client does', async () => {
      const modelId = emulator.seeded!.trainedModelId;
      const { value, requests } = await requestsDuring(() => client.training.log(modelId, { split: 'val', trajectory_groups: [trajectoryGroup] }));
      assert.equal(value, undefined);
      assert.equal(requests[0]?.path, `/training/v1/preview/models/${modelId}/log`);
      assert.deepEqual(JSON.parse(requests[0]!.body), { model_id: modelId, split: 'val', trajectory_groups: [trajectoryGroup] });
    });

    it('creates a training job and an SFT job, then reads one back', async () => {
      const modelId = emulator.seeded!.trainedModelId;
      const { value: job, requests } = await requestsDuring(() =>
        client.training.createTrainingJob({ model_id: modelId, trajectory_groups: [trajectoryGroup], experimental_config: { learning_rate: 1e-5, loss_fn: 'cispo' } }),
      );
      assert.ok(job.id);
      assert.equal(requests[0]?.path, '/training/v1/preview/training-jobs');
      assert.deepEqual(JSON.parse(requests[0]!.body).experimental_config, { learning_rate: 1e-5, loss_fn: 'cispo' });

      const { value: sft, requests: sftRequests } = await requestsDuring(() =>
        client.training.createSftJob({ model_id: modelId, training_data_url: 'https://data.example/train.jsonl', config: { batch_size: 'auto', learning_rate: [1e-5, 5e-6] } }),
      );
      assert.ok(sft.id);
      assert.equal(sftRequests[0]?.path, '/training/v1/preview/sft-training-jobs');

      const read = await client.training.getTrainingJob(job.id);
      assert.equal(read.id, job.id);
      assert.equal(typeof read.status, 'string');
    });

    it('lists the events of a training job', async () => {
      const jobId = emulator.seeded!.succeededJobId;
      const { value: page, requests } = await requestsDuring(() => client.training.listTrainingJobEvents(jobId, { limit: 5 }));
      assert.equal(page.data.length, 5);
      assert.equal(page.data[0]?.type, 'training_started');
      assert.equal(page.has_more, true);
      assert.equal(requests[0]?.path, `/training/v1/preview/training-jobs/${jobId}/events`);
      assert.deepEqual(requests[0]?.query, { limit: '5' });
      const next = await client.training.listTrainingJobEvents(jobId, { after: page.last_id, limit: 5 });
      assert.notEqual(next.data[0]?.id, page.data[0]?.id);
    });

    it('reads the base models, health and system check without a key', async () => {
      const { value: baseModels, requests } = await requestsDuring(async () => [await client.training.baseModels(), await client.training.health(), await client.training.systemCheck()]);
      const [models, health, check] = baseModels as [string[], unknown, Awaited<ReturnType<PlatformClient['training']['systemCheck']>>];
      assert.deepEqual(models, emulator.seeded!.baseModels);
      assert.deepEqual(health, { status: 'ok' });
      assert.equal(check.healthy, true);
      assert.equal(check.status, 200);
      assert.equal((check.checks.gpu_queue as { success: boolean }).success, true);
      for (const request of requests) assert.equal(headerOf(request, 'authorization'), undefined, `${request.path} carries no key`);
    });

    it('reads a 503 system check as data, not as a failure', async () => {
      emulator.setSystemCheckFailure('gpu_queue');
      try {
        const before = emulator.requests.length;
        const check = await client.training.systemCheck();
        assert.equal(check.healthy, false);
        assert.equal(check.status, 503);
        assert.equal((check.checks.gpu_queue as { success: boolean }).success, false);
        assert.equal(emulator.requests.length - before, 1, 'a 503 that carries the checks is not retried');
      } finally {
        emulator.setSystemCheckFailure(undefined);
      }
    });

    it('answers undefined for base models when the server has no such endpoint', async () => {
      emulator.addFault({ kind: 'status', status: 404, path: '/preview/base-models' });
      assert.equal(await client.training.baseModels(), undefined);
      emulator.addFault({ kind: 'status', status: 405, path: '/preview/base-models' });
      assert.equal(await client.training.baseModels(), undefined);
    });
  });

  describe('inference API', () => {
    it('lists models with the key and Compat-Project', async () => {
      const { value, requests } = await requestsDuring(() => client.inference.listModels());
      assert.equal(value.object, 'list');
      assert.deepEqual(
        value.data.map((model) => model.id),
        emulator.seeded!.inferenceModels,
      );
      assert.equal(requests[0]?.method, 'GET');
      assert.equal(requests[0]?.path, '/inference/v1/models');
      assert.equal(headerOf(requests[0]!, 'authorization'), `Bearer ${testApiKey}`);
      assert.equal(headerOf(requests[0]!, 'compat-project'), 'acme/rl-demo');
      assert.equal(requests[0]?.body, '');
    });

    it('creates a chat completion', async () => {
      const model = emulator.seeded!.inferenceModels[0]!;
      const { value, requests } = await requestsDuring(() =>
        client.inference.chatCompletion({
          model,
          messages: [
            { role: 'system', content: 'Be brief.' },
            { role: 'user', content: 'Hi' },
          ],
          temperature: 0.2,
        }),
      );
      assert.equal(value.model, model);
      assert.equal(typeof value.choices[0]?.message.content, 'string');
      assert.equal(value.choices[0]?.finish_reason !== undefined, true);
      assert.equal(headerOf(requests[0]!, 'compat-project'), 'acme/rl-demo');
      assert.deepEqual(JSON.parse(requests[0]!.body).messages, [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
      ]);
    });

    it('streams a chat completion with reasoning deltas and a usage chunk', async () => {
      const model = 'deepseek-ai/DeepSeek-R1-reasoning-demo';
      const whole = await client.inference.chatCompletion({ model, messages: [{ role: 'user', content: 'Why is the sky blue?' }], seed: 7 });
      const { chunks, error } = await drain(client.inference.streamChatCompletion({ model, messages: [{ role: 'user', content: 'Why is the sky blue?' }], seed: 7 }));
      assert.equal(error, undefined);
      const answer = await answerOf(chunks);
      assert.equal(answer.content, whole.choices[0]?.message.content);
      assert.equal(answer.reasoning, whole.choices[0]?.message.reasoning);
      assert.ok(answer.reasoning.length > 0);
      assert.deepEqual(chunks.at(-1)?.choices, []);
      assert.deepEqual(answer.usage, whole.usage);
    });

    it('reports an unknown model with the server message', async () => {
      const error = await failure(client.inference.chatCompletion({ model: 'no/such-model', messages: [{ role: 'user', content: 'x' }] }));
      assert.equal(error.status, 404);
      assert.equal(error.api, 'inference');
      assert.equal(error.message, 'POST /inference/v1/chat/completions failed: 404 The model `no/such-model` does not exist.');
    });

    it('reads a non-2xx answer to a stream request as a normal error body', async () => {
      const { chunks, error } = await drain(client.inference.streamChatCompletion({ model: 'no/such-model', messages: [{ role: 'user', content: 'x' }] }));
      assert.equal(chunks.length, 0);
      assert.equal(error?.kind, 'http');
      assert.equal(error?.status, 404);
      assert.match(error!.message, /does not exist/);
    });
  });

  describe('configuration and sign-in', () => {
    it('fails with signed-out and sends nothing when there is no key', async () => {
      const signedOut = clientFor(emulator, { credentials: { getApiKey: async () => undefined } });
      const before = emulator.requests.length;
      try {
        const error = await failure(signedOut.inference.listModels());
        assert.equal(error.kind, 'signed-out');
        const streamed = await drain(signedOut.training.streamChatCompletion({ model: 'm', messages: [] }));
        assert.equal(streamed.error?.kind, 'signed-out');
        assert.equal(emulator.requests.length, before, 'no request reached the server');
        assert.deepEqual(await signedOut.training.health(), { status: 'ok' }, 'health needs no key');
      } finally {
        await signedOut.close();
      }
    });

    it('fails with not-configured when an address is missing or unusable', async () => {
      const unset = clientFor(emulator, { trainingUrl: '', inferenceUrl: 'ftp://host/v1' });
      try {
        const missing = await failure(unset.training.health());
        assert.equal(missing.kind, 'not-configured');
        assert.equal(missing.message, 'the training API address is not set');
        const wrong = await failure(unset.inference.listModels());
        assert.equal(wrong.kind, 'not-configured');
        assert.match(wrong.message, /inference API address .* must start with http/);
      } finally {
        await unset.close();
      }
    });

    it('tolerates a trailing slash and never doubles /v1', async () => {
      const slashed = clientFor(emulator, { trainingUrl: `${emulator.trainingUrl}/`, inferenceUrl: `${emulator.inferenceUrl}//` });
      try {
        await slashed.training.health();
        assert.equal(emulator.requests.at(-1)?.path, '/training/v1/health');
        await slashed.inference.listModels();
        assert.equal(emulator.requests.at(-1)?.path, '/inference/v1/models');
      } finally {
        await slashed.close();
      }
    });

    it('logs one entry per attempt with method, path, status and time', async () => {
      const logged = client.log.length;
      await client.inference.listModels();
      const entry = client.log[logged];
      assert.equal(client.log.length, logged + 1);
      assert.deepEqual({ ...entry, ms: 0 }, { api: 'inference', method: 'GET', path: '/inference/v1/models', status: 200, ms: 0, attempt: 1 });
      assert.ok(entry!.ms >= 0);
    });
  });
});
