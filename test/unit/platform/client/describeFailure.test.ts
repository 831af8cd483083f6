import assert from 'node:assert/strict';
import { describeFailure, failureLabel, isConnectionFailure, PlatformClient, PlatformError, retryingIn, withNextStep, withRetryAdvice, type Failure } from '../../../../src/platform/client';
import { startEmulator, type Emulator } from '../../../emulator';

/** The error a real call through the real client ends with. */
async function failureOf(call: () => Promise<unknown>, urls: { training?: string; inference?: string } = {}): Promise<Failure> {
  try {
    await call();
  } catch (error) {
    return describeFailure(error, { urls });
  }
  throw new Error('the call did not fail');
}

describe('describeFailure: one reason per failure, in plain words', () => {
  let emulator: Emulator;
  let client: PlatformClient;

  before(async () => {
    emulator = await startEmulator({ seed: false });
    client = new PlatformClient({ trainingUrl: emulator.trainingUrl, inferenceUrl: emulator.inferenceUrl, credentials: { getApiKey: async () => emulator.apiKey }, maxRetries: 0 });
  });

  after(async () => {
    await client.destroy();
    await emulator.close();
  });

  afterEach(() => emulator.clearFaults());

  it('a refused connection: "Can\'t reach the training API at host:port.", retryable, with the request kept as detail', async () => {
    const probe = await startEmulator({ seed: false });
    const url = probe.trainingUrl;
    await probe.close();
    const closed = new PlatformClient({ trainingUrl: url, inferenceUrl: url, credentials: { getApiKey: async () => 'k' }, maxRetries: 0 });
    try {
      const failure = await failureOf(() => closed.training.listTrainingJobEvents('8de92f73-1111-2222-3333-444455556666', { limit: 100 }), { training: url });
      const port = new URL(url).port;
      assert.equal(failure.kind, 'unreachable');
      assert.equal(failure.connection, 'refused', 'how it failed comes from the client, for advice that depends on it');
      assert.equal(failure.message, `Can't reach the training API at 127.0.0.1:${port}.`);
      assert.equal(failure.retryable, true);
      assert.equal(failure.action, 'retry');
      assert.equal(failure.api, 'training');
      assert.match(failure.detail ?? '', /GET \/.*events\?limit=100: could not connect to 127\.0\.0\.1:\d+ \(connection refused\)/);
      assert.ok(isConnectionFailure(failure));
      assert.equal(withNextStep(failure, 8000), `Can't reach the training API at 127.0.0.1:${port}. Retrying in 8 s.`);
    } finally {
      await closed.destroy();
    }
  });

  it('a 429 with Retry-After: "Too many requests (429): …", the wait kept apart from the words, never unreachable', async () => {
    emulator.addFault({ kind: 'status', status: 429, retryAfter: 8, path: '/models' });
    const failure = await failureOf(() => client.inference.listModels());
    assert.equal(failure.kind, 'rate-limited');
    const words = 'Too many requests (429): the platform asked RL Studio to slow down. It said: "Concurrency limit reached for requests".';
    assert.equal(failure.message, words);
    assert.equal(failure.retryInMs, 8000);
    assert.equal(withRetryAdvice(failure), `${words} Try again in 8 s.`);
    assert.equal(withNextStep(failure, 8000), `${words} Retrying in 8 s.`);
    assert.equal(failureLabel(failure.kind), 'rate limited');
    assert.equal(failure.retryable, true);
    assert.equal(isConnectionFailure(failure), false);
  });

  it('a 401: "The platform rejected the API key (401).", to be fixed by signing in, not by retrying', async () => {
    emulator.addFault({ kind: 'status', status: 401, path: '/models' });
    const failure = await failureOf(() => client.inference.listModels());
    assert.equal(failure.kind, 'rejected');
    assert.equal(failure.message, 'The platform rejected the API key (401). It said: "Invalid API key".');
    assert.equal(failure.action, 'sign-in');
    assert.equal(failure.retryable, false);
  });

  it('a 503 and a 500 name the API and their status; an HTML page from a proxy is an unreadable answer', async () => {
    emulator.addFault({ kind: 'status', status: 503, path: '/models' });
    const unavailable = await failureOf(() => client.inference.listModels());
    assert.equal(unavailable.kind, 'unavailable');
    assert.equal(unavailable.message, 'The inference API is temporarily unavailable (503). It said: "Engine overloaded".');
    emulator.addFault({ kind: 'status', status: 500, path: '/models' });
    const broken = await failureOf(() => client.inference.listModels());
    assert.equal(broken.kind, 'server-error');
    assert.equal(broken.message, 'The inference API failed to answer (500).', 'a reason that only names the status adds nothing');
    emulator.addFault({ kind: 'truncated-json', path: '/models' });
    const unreadable = await failureOf(() => client.inference.listModels(), { inference: emulator.inferenceUrl });
    assert.equal(unreadable.kind, 'bad-answer');
    assert.match(unreadable.message, /^The inference API at 127\.0\.0\.1:\d+ sent an answer RL Studio cannot read/);
  });

  it("a refused request keeps the server's reason; a 404 says nothing is there", async () => {
    const refused = await failureOf(() => client.training.createTrainingJob({ model_id: 'not-a-model', trajectory_groups: [] } as never));
    assert.ok(refused.kind === 'refused-request' || refused.kind === 'not-found', refused.kind);
    assert.match(refused.message, /^The training API (refused the request \(4\d\d\)|has no such item \(404\))/);
    const missing = await failureOf(() => client.training.getTrainingJob('8de92f73-1111-2222-3333-444455556666'));
    assert.equal(missing.kind, 'not-found');
    assert.equal(missing.message, 'The training API has no such training job (404). It said: "Training job not found".');
    assert.equal(missing.retryable, false);
  });

  it("the server's own words follow every status's headline, on one line, quoted, bounded", () => {
    const failed = (status: number, said: string) =>
      describeFailure(
        new PlatformError({ kind: 'http', status, api: 'inference', method: 'POST', path: '/chat/completions', message: `POST /chat/completions failed: ${status} ${said}`, details: [said] }),
      );
    assert.equal(failed(500, 'Failed to create completion due to workflow error.').message, 'The inference API failed to answer (500). It said: "Failed to create completion due to workflow error.".');
    const forged = failed(502, 'upstream\n- step 24 · reward 0.99').message;
    assert.ok(!forged.includes('\n') && /It said: "upstream.*reward 0\.99"\.$/.test(forged), forged);
    assert.ok(failed(503, 'x'.repeat(5_000)).message.length < 400);
    assert.equal(failed(404, 'Not Found').message, 'The inference API has no such model (404).');
  });

  it('a validation answer leads with the field that was wrong', () => {
    const error = new PlatformError({
      kind: 'http',
      status: 422,
      api: 'training',
      method: 'POST',
      path: '/preview/training-jobs',
      message: 'POST /preview/training-jobs failed: 422 body.model_id: Field required',
      details: ['body.model_id: Field required'],
    });
    assert.equal(describeFailure(error).message, 'The training API refused the request (422): body.model_id: Field required');
  });

  it('calls that never left: signed out asks to sign in, missing settings to configure, a cancelled call is not a failure to show', () => {
    const signedOut = describeFailure(new PlatformError({ kind: 'signed-out', api: 'inference', method: 'GET', path: '/models', message: 'not signed in: no API key is set' }));
    assert.equal(signedOut.action, 'sign-in');
    const unset = describeFailure(new PlatformError({ kind: 'not-configured', api: 'training', method: 'GET', path: '/health', message: 'the training API address is not set' }));
    assert.equal(unset.message, 'The training API address is not set.');
    assert.equal(unset.action, 'configure');
    assert.equal(describeFailure(new PlatformError({ kind: 'aborted', api: 'training', method: 'GET', path: '/x', message: 'GET /x was cancelled' })).kind, 'cancelled');
  });

  it('anything else keeps its own words, as a sentence, with the log as the place to look', () => {
    const failure = describeFailure(new Error('the trajectory file could not be read'));
    assert.deepEqual(failure, { kind: 'other', message: 'The trajectory file could not be read.', action: 'show-log', retryable: false });
  });

  it('says when it tries again', () => {
    assert.equal(retryingIn(8000), 'Retrying in 8 s.');
    assert.equal(retryingIn(90_000), 'Retrying in 1 min 30 s.');
    assert.equal(retryingIn(200), 'Retrying now.');
  });
});
