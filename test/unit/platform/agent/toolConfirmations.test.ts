import * as assert from 'node:assert/strict';
import { ConfirmedPlans } from '../../../../src/platform/agent/confirmedPlans';
import { evaluateCheckpointsConfirmation, sendWebhookTestConfirmation, toolConfirmationOf } from '../../../../src/platform/agent/toolConfirmations';
import { createModelConfirmation, deleteCheckpointsConfirmation, sftConfirmation, trainingConfirmation } from '../../../../src/training/model/trainingConfirmations';
import { dataUrl, ToolInputError } from '../../../../src/platform/agent/toolInput';

const hostileName = 'llama\n- step 24 · reward 0.99';
const origin = 'https://api.platform.example';
const api = `${origin}/v1`;

/** The steps a `0–9, 12, 14–16` list names, every one of them. */
function stepsNamed(ranges: string): number[] {
  return ranges.split(', ').flatMap((part) => {
    const [from, to] = part.split('–').map(Number);
    return Array.from({ length: (to ?? from!) - from! + 1 }, (_, index) => from! + index);
  });
}

/** Every line of a message starts with RL Studio's own words: none begins with a forged bullet or fact. */
function assertNoForgedLine(message: string): void {
  for (const line of message.split('\n')) assert.doesNotMatch(line, /^\s*(- |step \d|\d+\. )/, `a forged line: ${line}`);
}

describe('tool confirmations name everything that will happen', () => {
  it('a deletion of 30 steps names every step as ranges, the model by name and id, the count, the API and that it cannot be undone', () => {
    const steps = [...Array.from({ length: 10 }, (_, index) => index), 12, ...Array.from({ length: 19 }, (_, index) => 14 + index * 3)];
    assert.equal(steps.length, 30);
    const { title, message } = toolConfirmationOf(deleteCheckpointsConfirmation({ id: 'model-7f3a', name: hostileName }, steps, api));
    assert.match(title, /^Delete 30 checkpoints of "llama\\n- step 24 · reward 0\.99"\?$/);
    const stepsLine = message.split('\n').find((line) => line.startsWith('Steps: '));
    assert.ok(stepsLine, message);
    assert.deepEqual(stepsNamed(stepsLine.slice('Steps: '.length)), steps, 'every step, none cut');
    assert.ok(message.includes('Model: "llama\\n- step 24 · reward 0.99", id model-7f3a'), message);
    assert.ok(message.split('\n').includes('Training API host: api.platform.example'), message);
    assert.match(message, /cannot be undone/);
    assertNoForgedLine(message);
  });

  it('a deletion of 100 scattered steps still names each one, however long the line', () => {
    const steps = Array.from({ length: 100 }, (_, index) => index * 7);
    const { message } = toolConfirmationOf(deleteCheckpointsConfirmation({ id: 'm', name: 'm' }, steps, api));
    const stepsLine = message.split('\n').find((line) => line.startsWith('Steps: '))!;
    assert.deepEqual(stepsNamed(stepsLine.slice('Steps: '.length)), steps);
  });

  it('a fine-tuning job names the data host whole on its own line, and the whole 3,000-character URL, never cut', () => {
    // A long, plausible path first; the host that really receives the request is only at the end of the host part.
    const host = `data.trusted-corp.example.${'cdn-edge-mirror.'.repeat(120)}attacker.example`;
    const url = `https://${host}/${'datasets/sft/'.repeat(Math.ceil((3_000 - host.length) / 13))}train.jsonl`;
    assert.ok(url.length >= 3_000, `${url.length}`);
    assert.equal(new URL(url).host, host);
    const { message } = toolConfirmationOf(sftConfirmation({ model: { id: 'm-1', name: 'agent-001' }, dataUrl: url, config: { batch_size: 8 }, trainingApiUrl: api }));
    const lines = message.split('\n');
    assert.ok(lines.includes(`Training data host: ${host}`), 'the whole host on a line of its own');
    assert.ok(lines.includes(`Training data: ${url}`), 'the whole URL');
    assert.ok(lines.indexOf(`Training data host: ${host}`) < lines.indexOf(`Training data: ${url}`), 'the host before the long URL');
    assert.ok(lines.includes('Settings: batch size 8, learning rate default'));
    assert.ok(lines.includes('Training API host: api.platform.example'));
  });

  it('a data URL whose user part hides the host names the real host, and such a URL is refused as input', () => {
    const url = `https://storage.trusted-corp.example${'%2Fdatasets'.repeat(250)}@attacker.example/train.jsonl`;
    const { message } = toolConfirmationOf(sftConfirmation({ model: { id: 'm-1', name: 'agent-001' }, dataUrl: url, config: undefined, trainingApiUrl: api }));
    assert.ok(message.split('\n').includes('Training data host: attacker.example'), message.slice(0, 300));
    assert.throws(() => dataUrl({ trainingDataUrl: url }, 'trainingDataUrl'), ToolInputError);
  });

  it('a data URL of 3,000 characters is accepted as input, one over 8,192 is not', () => {
    const long = `https://data.example/${'a'.repeat(2_980)}.jsonl`;
    assert.equal(dataUrl({ trainingDataUrl: long }, 'trainingDataUrl'), long);
    assert.throws(() => dataUrl({ trainingDataUrl: `https://data.example/${'a'.repeat(8_200)}` }, 'trainingDataUrl'), /longer than 8192/);
  });

  it('a training job names the model by name and id, the file, its groups and trajectories, the API, and that a changed file sends nothing', () => {
    const { title, message } = toolConfirmationOf(
      trainingConfirmation({
        source: { name: 'rollouts/batch\n- 40 trajectory groups.jsonl', path: '/work/rollouts/batch\n- 40 trajectory groups.jsonl' },
        groups: 1,
        trajectories: 4,
        model: { id: 'm-1', name: hostileName },
        config: undefined,
        trainingApiUrl: api,
      }),
    );
    assert.equal(title, 'Start a training job on "llama\\n- step 24 · reward 0.99" with 1 trajectory group from rollouts/batch\\n- 40 trajectory groups.jsonl?');
    const lines = message.split('\n');
    assert.ok(lines.includes('1 trajectory group, 4 trajectories.'), message);
    assert.ok(lines.includes('Model: "llama\\n- step 24 · reward 0.99", id m-1'), message);
    assert.match(message, /if the file changes before they are sent, nothing is sent/);
    assertNoForgedLine(message);
  });

  it('an evaluation names every step, the base, the request count, the scorers and the API', () => {
    const { message } = evaluateCheckpointsConfirmation({
      model: { id: 'm-1', name: 'agent-001' },
      steps: [10, 20, 21, 22, 24],
      withBase: true,
      evalSet: 'evals/holdout.evalset.jsonl',
      samples: 40,
      models: 6,
      answersPerSample: 1,
      scorers: ['exact match', 'matches /a\nb/'],
      resultsFile: '.rlstudio/evals/holdout.rleval.json',
      origin,
    });
    assert.ok(message.includes('Checkpoints: steps 10, 20–22, 24, and the base model (step 0)'), message);
    assert.ok(message.includes('Requests: 40 samples × 6 models × 1 answers = up to 240 chat completions'));
    assert.ok(message.includes('Scored by: "exact match", "matches /a\\nb/"'));
    assertNoForgedLine(message);
  });

  it("a webhook test names the endpoint's host on its own line, the webhook quoted, and how it signs", () => {
    const { message } = sendWebhookTestConfirmation({
      file: 'payloads/a.payload.json',
      bytes: 120,
      webhook: 'deploy\n- sent to the staging hook',
      endpoint: 'http://hooks.example:8080/•••',
      hasAccessToken: true,
      secretName: 'SIGNING_SECRET',
    });
    const lines = message.split('\n');
    assert.ok(lines.includes('Endpoint host: hooks.example:8080 (http: not encrypted)'), message);
    assert.ok(lines.includes('Sent with its access token, signed with its secret "SIGNING_SECRET".'), message);
    assert.match(message, /webhook "deploy\\n- sent to the staging hook":/);
    assertNoForgedLine(message);
  });

  it('a new model names its name, project and base quoted, and the API', () => {
    const { title, message } = toolConfirmationOf(createModelConfirmation({ name: 'agent-made', project: 'agents', entity: 'team', base_model: 'Qwen/Qwen3-8B' }, api));
    assert.equal(title, 'Create the training model "agent-made" in project "agents"?');
    assert.equal(message, ['Name: "agent-made"', 'Project: "agents"', 'Entity: "team"', 'Base model: "Qwen/Qwen3-8B"', 'Training API host: api.platform.example', `Training API: ${api}`].join('\n'));
  });
});

describe('confirmed plans: what a confirmation named, kept until the tool runs', () => {
  it('gives each plan once, to the same tool and input only', () => {
    const plans = new ConfirmedPlans();
    plans.keep('rlstudio_start_training', { modelId: 'm', path: 'a.jsonl' }, { digest: 'd1' });
    assert.equal(plans.take('rlstudio_start_training', { modelId: 'm', path: 'b.jsonl' }), undefined, 'another input');
    assert.equal(plans.take('rlstudio_start_sft', { modelId: 'm', path: 'a.jsonl' }), undefined, 'another tool');
    assert.deepEqual(plans.take('rlstudio_start_training', { modelId: 'm', path: 'a.jsonl' }), { digest: 'd1' });
    assert.equal(plans.take('rlstudio_start_training', { modelId: 'm', path: 'a.jsonl' }), undefined, 'used once');
  });

  it('runs the newest confirmation of one input: an older one (cancelled, say) never runs in its place', () => {
    const plans = new ConfirmedPlans();
    plans.keep('t', { a: 1 }, 'cancelled');
    plans.keep('t', { a: 1 }, 'shown now');
    assert.equal(plans.take('t', { a: 1 }), 'shown now');
    assert.equal(plans.take('t', { a: 1 }), undefined);
  });

  it('forgets a plan after its time and past its bound', () => {
    let now = 0;
    const plans = new ConfirmedPlans(() => now, 1_000, 3);
    plans.keep('t', { a: 1 }, 'old');
    now = 1_001;
    assert.equal(plans.take('t', { a: 1 }), undefined, 'expired');
    for (let index = 0; index < 10; index++) plans.keep('t', { index }, index);
    assert.equal(plans.size, 3);
    assert.equal(plans.take('t', { index: 0 }), undefined, 'the oldest went first');
    assert.equal(plans.take('t', { index: 9 }), 9);
  });
});
