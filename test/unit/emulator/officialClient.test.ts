import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEmulator } from '../../emulator';
import type { Emulator } from '../../emulator/contract';
import { call } from './client';

interface FixtureRequest {
  method: string;
  path: string;
  body: Record<string, unknown>;
}

const fixtureDirectory = join(__dirname, '../../../../test/fixtures/art');
const requestsText = readFileSync(join(fixtureDirectory, 'requests.json'), 'utf8');
const requests = JSON.parse(requestsText) as Record<'trainingJob' | 'trainingJobWithoutConfig' | 'log', FixtureRequest>;

/** A deep copy of a fixture body with one change, for the cases the service refuses. */
function changed(request: FixtureRequest, change: (body: any) => void): Record<string, unknown> {
  const body = JSON.parse(JSON.stringify(request.body));
  change(body);
  return body;
}

describe("emulator: the official client's bodies", () => {
  let emulator: Emulator;
  before(async () => {
    emulator = await startEmulator({ secondsPerStep: 0.01 });
  });
  after(() => emulator.close());

  it('names the seeded model, so the fixtures are sent unchanged', () => {
    assert.equal(requests.trainingJob.body.model_id, emulator.seeded!.trainedModelId, 'the seeded model id changed: update test/fixtures/art/requests.json');
  });

  for (const name of ['trainingJob', 'trainingJobWithoutConfig', 'log'] as const) {
    it(`accepts the ${name} body byte for byte`, async () => {
      const request = requests[name];
      // The body's own text, not re-serialised: what the fixture holds is what is sent.
      const text = JSON.stringify(request.body);
      const answer = await call(emulator, 'training', request.method, request.path, { rawBody: text, headers: { 'content-type': 'application/json' } });
      assert.equal(answer.status, 200, answer.text);
    });
  }

  it('stays strict where the service is', async () => {
    const refused = async (request: FixtureRequest, change: (body: any) => void, loc: (string | number)[]) => {
      const answer = await call(emulator, 'training', request.method, request.path, { body: changed(request, change) });
      assert.equal(answer.status, 422, answer.text);
      assert.ok(
        answer.json.detail.some((issue: { loc: unknown[] }) => JSON.stringify(issue.loc) === JSON.stringify(loc)),
        `no issue at ${JSON.stringify(loc)}: ${answer.text}`,
      );
    };
    const job = requests.trainingJob;
    await refused(job, (body) => (body.experimental_config.epsilon = 'wide'), ['body', 'experimental_config', 'epsilon']);
    await refused(job, (body) => (body.experimental_config.kl_penalty_source = 'teacher'), ['body', 'experimental_config', 'kl_penalty_source']);
    await refused(job, (body) => (body.experimental_config.kl_penalty_step_lag = 1.5), ['body', 'experimental_config', 'kl_penalty_step_lag']);
    await refused(job, (body) => (body.trajectory_groups[0].trajectories[0].reward = null), ['body', 'trajectory_groups', 0, 'trajectories', 0, 'reward']);
    await refused(job, (body) => (body.trajectory_groups[0].trajectories[0].initial_policy_version = 'v1'), ['body', 'trajectory_groups', 0, 'trajectories', 0, 'initial_policy_version']);
    await refused(job, (body) => (body.trajectory_groups[0].trajectories[0].messages_and_choices[2].message.tool_calls = 'none'), [
      'body',
      'trajectory_groups',
      0,
      'trajectories',
      0,
      'messages_and_choices',
      2,
      'message',
      'tool_calls',
    ]);
    await refused(job, (body) => (body.trajectory_groups[1].trajectories[0].additional_histories[0].tools = {}), [
      'body',
      'trajectory_groups',
      1,
      'trajectories',
      0,
      'additional_histories',
      0,
      'tools',
    ]);
    await refused(requests.log, (body) => (body.model_id = 'another-model'), ['body', 'model_id']);
    await refused(requests.log, (body) => delete body.split, ['body', 'split']);
  });

  it('answers log-probabilities in the OpenAI shape when asked, and null otherwise', async () => {
    const model = emulator.seeded!.inferenceModels[0]!;
    const asked = await call(emulator, 'inference', 'POST', '/chat/completions', {
      body: { model, messages: [{ role: 'user', content: '/echo Hello there, world.', tool_calls: null }], logprobs: true, top_logprobs: 3 },
    });
    assert.equal(asked.status, 200, asked.text);
    const choice = asked.json.choices[0];
    const tokens = choice.logprobs.content as { token: string; logprob: number; bytes: number[]; top_logprobs: { token: string; logprob: number; bytes: number[] }[] }[];
    assert.equal(tokens.map((entry) => entry.token).join(''), choice.message.content);
    for (const entry of tokens) {
      assert.ok(entry.logprob <= 0);
      assert.deepEqual(entry.bytes, [...Buffer.from(entry.token, 'utf8')]);
      assert.equal(entry.top_logprobs.length, 3);
      assert.equal(entry.top_logprobs[0]!.token, entry.token);
      for (let at = 1; at < entry.top_logprobs.length; at++) assert.ok(entry.top_logprobs[at]!.logprob < entry.top_logprobs[at - 1]!.logprob);
    }
    assert.equal(choice.logprobs.refusal, null);

    const again = await call(emulator, 'inference', 'POST', '/chat/completions', {
      body: { model, messages: [{ role: 'user', content: '/echo Hello there, world.' }], logprobs: true, top_logprobs: 3 },
    });
    assert.deepEqual(again.json.choices[0].logprobs, choice.logprobs, 'the same answer gets the same figures');

    const plain = await call(emulator, 'inference', 'POST', '/chat/completions', { body: { model, messages: [{ role: 'user', content: 'hi' }] } });
    assert.equal(plain.json.choices[0].logprobs, null);
    const tooMany = await call(emulator, 'inference', 'POST', '/chat/completions', { body: { model, messages: [{ role: 'user', content: 'hi' }], logprobs: true, top_logprobs: 21 } });
    assert.equal(tooMany.status, 400, tooMany.text);
  });

  it('streams log-probabilities with the content deltas they belong to', async () => {
    const model = emulator.seeded!.inferenceModels[0]!;
    const messages = [{ role: 'user', content: '/echo One two three, four five.' }];
    const whole = await call(emulator, 'inference', 'POST', '/chat/completions', { body: { model, messages, logprobs: true, top_logprobs: 2 } });
    const streamed = await call(emulator, 'inference', 'POST', '/chat/completions', { body: { model, messages, logprobs: true, top_logprobs: 2, stream: true } });
    const chunks = streamed.text
      .split('\n')
      .filter((line) => line.startsWith('data: {'))
      .map((line) => JSON.parse(line.slice('data: '.length)));
    const deltas = chunks.flatMap((chunk) => chunk.choices).filter((choice) => typeof choice.delta.content === 'string' && choice.delta.content !== '');
    for (const delta of deltas) assert.equal(delta.logprobs.content.map((entry: { token: string }) => entry.token).join(''), delta.delta.content);
    assert.deepEqual(
      deltas.flatMap((delta) => delta.logprobs.content),
      whole.json.choices[0].logprobs.content,
    );
  });
});
