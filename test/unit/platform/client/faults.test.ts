import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Emulator } from '../../../emulator';
import { clientFor, failure, testApiKey, useEmulatorClient } from './support/harness';

/** A port that was just free and is now closed: connecting to it is refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('faults', () => {
  let emulator: Emulator;
  let client: ReturnType<typeof clientFor>;

  useEmulatorClient((started, startedClient) => {
    emulator = started;
    client = startedClient;
  });

  const countRequests = (path: string, since: number) => emulator.requests.slice(since).filter((request) => request.path.endsWith(path)).length;

  it('honours Retry-After on a 429 to a GET', async () => {
    const patient = clientFor(emulator, { retryMaxDelayMs: 5_000 });
    try {
      emulator.addFault({ kind: 'status', status: 429, retryAfter: 1, method: 'GET', path: '/models' });
      const before = emulator.requests.length;
      const started = performance.now();
      const models = await patient.inference.listModels();
      const waited = performance.now() - started;
      assert.ok(models.data.length > 0);
      assert.ok(waited >= 1000, `waited ${waited.toFixed(0)} ms, Retry-After asked for 1000`);
      const [first, second] = emulator.requests.slice(before);
      assert.ok(second!.at - first!.at >= 990, 'the retry came after the Retry-After delay');
      assert.deepEqual(
        patient.log.map((entry) => [entry.attempt, entry.status]),
        [
          [1, 429],
          [2, 200],
        ],
      );
      assert.match(patient.log[0]!.error!, /429 Concurrency limit reached for requests/);
    } finally {
      await patient.close();
    }
  });

  it('caps Retry-After with the maximum delay', async () => {
    emulator.addFault({ kind: 'status', status: 503, retryAfter: 30, method: 'GET', path: '/models' });
    const started = performance.now();
    await client.inference.listModels();
    assert.ok(performance.now() - started < 2_000, 'a 30 s Retry-After was capped at retryMaxDelayMs');
  });

  it('never retries a POST under /preview/, even on a 429', async () => {
    emulator.addFault({ kind: 'status', status: 429, retryAfter: 1, method: 'POST', path: '/preview/models' });
    const before = emulator.requests.length;
    const error = await failure(client.training.createModel({ project: 'faults', name: 'once', base_model: emulator.seeded!.baseModels[0]! }));
    assert.equal(error.kind, 'http');
    assert.equal(error.status, 429);
    assert.equal(error.retryAfterMs, 1000);
    assert.equal(countRequests('/preview/models', before), 1);
  });

  it('does not retry a chat completion POST on a 503 answer', async () => {
    emulator.addFault({ kind: 'status', status: 503, method: 'POST', path: '/chat/completions' });
    const before = emulator.requests.length;
    const error = await failure(client.inference.chatCompletion({ model: emulator.seeded!.inferenceModels[0]!, messages: [{ role: 'user', content: 'x' }] }));
    assert.equal(error.status, 503);
    assert.equal(error.message, 'POST /inference/v1/chat/completions failed: 503 Engine overloaded');
    assert.equal(countRequests('/chat/completions', before), 1);
  });

  it('retries 503 and 502 on a GET until it succeeds', async () => {
    emulator.addFault({ kind: 'status', status: 503, method: 'GET', path: '/checkpoints' });
    emulator.addFault({ kind: 'status', status: 502, method: 'GET', path: '/checkpoints', body: 'empty' });
    const before = emulator.requests.length;
    const page = await client.training.listCheckpoints(emulator.seeded!.trainedModelId);
    assert.ok(page.data.length > 0);
    assert.equal(countRequests('/checkpoints', before), 3);
  });

  it('gives up after the last retry with a readable message', async () => {
    emulator.addFault({ kind: 'status', status: 503, body: 'detail-string', method: 'GET', path: '/training-jobs/', times: -1 });
    const before = emulator.requests.length;
    const error = await failure(client.training.getTrainingJob(emulator.seeded!.runningJobId));
    assert.equal(error.kind, 'http');
    assert.equal(error.status, 503);
    assert.equal(countRequests(emulator.seeded!.runningJobId, before), 4, 'one attempt and three retries');
    assert.equal(error.message, `GET /training/v1/preview/training-jobs/${emulator.seeded!.runningJobId} failed: 503 Engine overloaded (gave up after 4 attempts)`);
  });

  it('names the status when the error body is empty', async () => {
    emulator.addFault({ kind: 'status', status: 500, body: 'empty', path: '/models' });
    const error = await failure(client.inference.listModels());
    assert.equal(error.message, 'GET /inference/v1/models failed: 500 Internal Server Error');
  });

  it('says an HTML page came back instead of dumping it', async () => {
    emulator.addFault({ kind: 'html', status: 524, path: '/models' });
    const error = await failure(client.inference.listModels());
    assert.equal(error.kind, 'http');
    assert.equal(error.status, 524);
    assert.equal(error.message, 'GET /inference/v1/models: the server answered 524 with an HTML page');
  });

  it('retries a 502 HTML page on a GET', async () => {
    emulator.addFault({ kind: 'html', status: 502, path: '/models' });
    const models = await client.inference.listModels();
    assert.ok(models.data.length > 0);
  });

  it('reports truncated JSON on a 200 as an invalid response', async () => {
    emulator.addFault({ kind: 'truncated-json', path: '/checkpoints' });
    const error = await failure(client.training.listCheckpoints(emulator.seeded!.trainedModelId));
    assert.equal(error.kind, 'invalid-response');
    assert.equal(error.status, 200);
    assert.match(error.message, /incomplete or malformed JSON/);
  });

  it('reports garbage on a 200 as an invalid response', async () => {
    emulator.addFault({ kind: 'garbage', path: '/models' });
    const error = await failure(client.inference.listModels());
    assert.equal(error.kind, 'invalid-response');
    assert.equal(error.message, 'GET /inference/v1/models: the server answered 200 with binary data where JSON was expected');
  });

  it('reports JSON of the wrong shape as an invalid response', async () => {
    emulator.addFault({ kind: 'truncated-json', path: '/training-jobs' });
    const error = await failure(client.training.getTrainingJob('whatever'));
    assert.equal(error.kind, 'invalid-response');
  });

  it('retries a GET whose connection was reset', async () => {
    emulator.addFault({ kind: 'reset', method: 'GET', path: '/models' });
    const before = emulator.requests.length;
    const models = await client.inference.listModels();
    assert.ok(models.data.length > 0);
    assert.equal(countRequests('/models', before), 2);
    assert.equal(client.log.at(-2)?.error, 'GET /inference/v1/models: the connection to ' + new URL(emulator.url).host + ' was closed before the answer was complete');
  });

  it('reports a reset as a network error, and does not resend a POST that was written', async () => {
    emulator.addFault({ kind: 'reset', method: 'POST', path: '/log' });
    const before = emulator.requests.length;
    const error = await failure(client.training.log(emulator.seeded!.trainedModelId, { split: 'train', trajectory_groups: [] }));
    assert.equal(error.kind, 'network');
    assert.equal(countRequests('/log', before), 1);
    emulator.addFault({ kind: 'reset', method: 'POST', path: '/chat/completions' });
    const chat = await failure(client.inference.chatCompletion({ model: emulator.seeded!.inferenceModels[0]!, messages: [{ role: 'user', content: 'x' }] }));
    assert.equal(chat.kind, 'network');
  });

  it('reports a reset on every retry as a network error after the last one', async () => {
    emulator.addFault({ kind: 'reset', method: 'GET', path: '/health', times: -1 });
    const error = await failure(client.training.health());
    assert.equal(error.kind, 'network');
    assert.match(error.message, /closed before the answer was complete \(gave up after 4 attempts\)$/);
  });

  it('times out when the server is slower than the timeout', async () => {
    const hasty = clientFor(emulator, { timeoutMs: 150, maxRetries: 3 });
    // undici checks header timeouts on a coarse clock (about every half second), hence the margin.
    emulator.setLatency(3_000);
    try {
      const started = performance.now();
      const error = await failure(hasty.inference.listModels());
      assert.equal(error.kind, 'timeout');
      assert.equal(error.message, 'GET /inference/v1/models timed out after 0.15 s');
      assert.ok(performance.now() - started < 2_000, 'a timeout waiting for an answer is not retried');
    } finally {
      emulator.setLatency(0);
      await hasty.close();
    }
  });

  it('reports a refused connection as a network error, after retrying', async () => {
    const port = await closedPort();
    const nowhere = clientFor(emulator, { trainingUrl: `http://127.0.0.1:${port}/v1`, inferenceUrl: `http://127.0.0.1:${port}/v1` });
    try {
      const error = await failure(nowhere.inference.listModels());
      assert.equal(error.kind, 'network');
      assert.equal(error.message, `GET /v1/models: could not connect to 127.0.0.1:${port} (connection refused) (gave up after 4 attempts)`);
      const before = nowhere.log.length;
      // Nothing was sent, so even a chat POST is tried again; a /preview/ POST never is.
      const chat = await failure(nowhere.inference.chatCompletion({ model: 'm', messages: [] }));
      assert.equal(chat.kind, 'network');
      assert.equal(nowhere.log.length - before, 4);
      const created = await failure(nowhere.training.createModel({ project: 'p', name: 'n', base_model: 'b' }));
      assert.equal(created.kind, 'network');
      assert.equal(nowhere.log.length - before, 5);
    } finally {
      await nowhere.close();
    }
  });

  it('stops waiting at once when aborted during back-off', async () => {
    const slow = clientFor(emulator, { retryBaseDelayMs: 10_000, retryMaxDelayMs: 10_000 });
    emulator.addFault({ kind: 'status', status: 503, retryAfter: 10, method: 'GET', path: '/models' });
    try {
      const controller = new AbortController();
      const started = performance.now();
      setTimeout(() => controller.abort(), 100);
      const error = await failure(slow.inference.listModels({ signal: controller.signal }));
      assert.equal(error.kind, 'aborted');
      // The back-off is 10 s: ending far sooner is ending at the abort.
      assert.ok(performance.now() - started < 5_000);
    } finally {
      await slow.close();
    }
  });

  it('fails at once with aborted for a signal that is already aborted', async () => {
    const before = emulator.requests.length;
    const error = await failure(client.inference.listModels({ signal: AbortSignal.abort() }));
    assert.equal(error.kind, 'aborted');
    assert.equal(emulator.requests.length, before);
  });

  it('keeps a key that the server echoes back out of messages', async () => {
    const echo: Server = createServer((request, response) => {
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ detail: `Key rejected: ${request.headers.authorization}`, error: 'x' }));
    });
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    const { port } = echo.address() as AddressInfo;
    const echoed = clientFor(emulator, { trainingUrl: `http://127.0.0.1:${port}/v1` });
    try {
      const error = await failure(echoed.training.getTrainingJob('job'));
      assert.equal(error.status, 401);
      assert.ok(!error.message.includes(testApiKey));
      assert.match(error.message, /Key rejected: Bearer \[redacted\]/);
    } finally {
      await echoed.close();
      await new Promise<void>((resolve) => echo.close(() => resolve()));
    }
  });
});
