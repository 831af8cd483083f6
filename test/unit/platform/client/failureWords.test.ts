/**
 * One failure, one set of words: every kind of failed call is made for real by the platform client
 * against a local server, then handed to the chat, the Models view and the status bar as the
 * extension hands it to them. Each says what happened in describeFailure's words (adding only what
 * it does next), and each takes the state that describeFailure's kind calls for: a 429 is "rate
 * limited" everywhere, never "unreachable".
 */
import { dialogs } from './support/fakeVscode';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { describeFailure, failureLabel, PlatformClient, type Failure, type FailureContext, type FailureKind, type RequestLogEntry } from '../../../../src/platform/client';
import { createPlatformBackend } from '../../../../src/chat/model/platformBackend';
import { runStream } from '../../../../src/chat/model/streamRun';
import { PlatformHealth, verdictOf, type HealthSummary } from '../../../../src/platform/health/health';
import type { Services } from '../../../../src/platform/host/services';
import { treeItemOf, type ModelsNode } from '../../../../src/training/host/models/modelNodes';
import { ModelsTreeProvider } from '../../../../src/training/host/models/modelsTree';
import { repositoryRoot } from './support/harness';

type Respond = (req: IncomingMessage, res: ServerResponse) => void;

/** A platform on 127.0.0.1 that answers every request the way the current case says. */
async function startPlatform(): Promise<{ url: string; respondWith(respond: Respond): void; close(): Promise<void> }> {
  let respond: Respond = (_req, res) => res.end('{}');
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => respond(req, res));
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    respondWith: (next) => {
      respond = next;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Respond {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
}

/** What the Models view shows for a catalogue that fails with `failure`. */
type ModelsOutcome = 'warning row' | 'unreachable welcome' | 'key rejected welcome';

interface Case {
  name: string;
  kind: FailureKind;
  /** The status bar's text once its own check saw the failure (the training API answering). */
  statusBar: string;
  models: ModelsOutcome;
  /** Makes the call fail; `client` talks to the platform, `closedClient`'s inference API to a port nothing listens on. */
  fail(setup: { respondWith(respond: Respond): void; client: PlatformClient; closedClient: PlatformClient; impatientClient: PlatformClient }): Promise<unknown>;
}

const cases: Case[] = [
  {
    name: '401',
    kind: 'rejected',
    statusBar: 'RL Studio: key rejected',
    models: 'key rejected welcome',
    fail: ({ respondWith, client }) => (respondWith(json(401, { error: { message: 'Invalid API key' } })), client.inference.listModels()),
  },
  {
    name: '403',
    kind: 'forbidden',
    statusBar: 'RL Studio',
    models: 'warning row',
    fail: ({ respondWith, client }) => (respondWith(json(403, { error: { message: 'Region not supported' } })), client.inference.listModels()),
  },
  {
    name: '404',
    kind: 'not-found',
    statusBar: 'RL Studio',
    models: 'warning row',
    fail: ({ respondWith, client }) => (respondWith(json(404, { error: { message: 'Not found' } })), client.inference.listModels()),
  },
  {
    name: '422',
    kind: 'refused-request',
    statusBar: 'RL Studio',
    models: 'warning row',
    fail: ({ respondWith, client }) => (respondWith(json(422, { detail: [{ loc: ['query', 'limit'], msg: 'Input should be a valid integer' }] })), client.inference.listModels()),
  },
  {
    name: '429 with Retry-After',
    kind: 'rate-limited',
    statusBar: 'RL Studio: inference API rate limited',
    models: 'warning row',
    fail: ({ respondWith, client }) => (respondWith(json(429, { error: { message: 'Concurrency limit reached for requests' } }, { 'retry-after': '8' })), client.inference.listModels()),
  },
  {
    name: '5xx',
    kind: 'server-error',
    statusBar: 'RL Studio: inference API failing',
    models: 'warning row',
    fail: ({ respondWith, client }) => (respondWith(json(500, { error: { message: 'Internal server error' } })), client.inference.listModels()),
  },
  {
    name: 'timeout',
    kind: 'timeout',
    statusBar: 'RL Studio: inference API not answering',
    models: 'unreachable welcome',
    fail: ({ respondWith, impatientClient }) => (respondWith(() => undefined), impatientClient.inference.listModels()),
  },
  { name: 'refused', kind: 'unreachable', statusBar: 'RL Studio: inference API unreachable', models: 'unreachable welcome', fail: ({ closedClient }) => closedClient.inference.listModels() },
  {
    name: 'too-large',
    kind: 'too-large',
    statusBar: 'RL Studio',
    models: 'warning row',
    fail: ({ respondWith, client }) => (respondWith(json(200, { object: 'list', data: [], padding: 'x'.repeat(4096) })), client.inference.listModels()),
  },
  { name: 'invalid-input', kind: 'invalid-input', statusBar: 'RL Studio', models: 'warning row', fail: ({ client }) => client.training.listCheckpoints('../../models', {}) },
  {
    name: 'cancelled',
    kind: 'cancelled',
    statusBar: 'RL Studio',
    models: 'warning row',
    fail: ({ respondWith, client }) => {
      respondWith(() => undefined);
      const controller = new AbortController();
      const call = client.inference.listModels({ signal: controller.signal });
      setImmediate(() => controller.abort());
      return call;
    },
  },
];

/** The Markdown of a status bar tooltip line, as read. */
function unescapeMarkdown(text: string): string {
  return text.replace(/\\(.)/g, '$1');
}

/** What the status bar shows after its own check of the inference API met `error` (as HealthStatusBar.probe does). */
function statusBarAfterCheck(failure: Failure, context: FailureContext): HealthSummary {
  const health = new PlatformHealth({ context: () => context });
  health.noteAnswer('training');
  if (verdictOf(failure) !== 'none') health.noteFailure('inference', failure);
  return health.summary();
}

/** What the status bar shows after the client's request log reported the failed call (as services' logger does). */
function statusBarAfterCall(entries: RequestLogEntry[], context: FailureContext): HealthSummary {
  const health = new PlatformHealth({ context: () => context });
  health.noteAnswer('training');
  for (const entry of entries) health.noteCall({ api: entry.api, method: entry.method, path: entry.path, status: entry.status, ms: entry.ms, error: entry.error, kind: entry.kind });
  return health.summary();
}

/** The Models view of a signed-in user with no training model yet, whose catalogue read fails with `error`. */
async function modelsViewWith(error: unknown, describe: (error: unknown) => Failure, context: FailureContext): Promise<{ outcome: ModelsOutcome; words: string }> {
  const listeners = { dispose: () => undefined };
  const services = {
    settings: { current: { trainingApiUrl: context.urls?.training ?? '', inferenceApiUrl: context.urls?.inference ?? '', project: '' } },
    credentials: { isSignedIn: async () => true },
    client: async () => ({
      inference: { listModels: async () => Promise.reject(error) },
      training: { listCheckpoints: async () => Promise.reject(error) },
    }),
    remembered: { models: { list: () => [], onDidChange: () => listeners } },
    context: { workspaceState: { get: () => undefined } },
    onDidChangeConnection: () => listeners,
    health: new PlatformHealth({ context: () => context }),
    describeFailure: describe,
    log: { warn: () => undefined, debug: () => undefined },
  } as unknown as Services;
  const tree = new ModelsTreeProvider(services);
  try {
    const roots = await tree.getChildren();
    const state = tree.viewState;
    if (state.rejected) return { outcome: 'key rejected welcome', words: modelsWelcome('rlStudio.keyRejected') };
    if (state.unreachable) return { outcome: 'unreachable welcome', words: state.catalogueFailure!.message };
    const inference = roots.find((node): node is ModelsNode => node.kind === 'group' && node.group === 'inference');
    assert.ok(inference, 'the inference section is listed');
    const [row, ...rest] = await tree.getChildren(inference);
    assert.equal(rest.length, 0, 'one warning row, not one per model');
    assert.equal(row?.kind === 'notice' && row.failure !== undefined, true, 'a warning row that carries its failure');
    return { outcome: 'warning row', words: String(treeItemOf(row!).label) };
  } finally {
    tree.dispose();
  }
}

/** The text of the Models view's welcome shown while a context key is set (package.json `viewsWelcome`). */
function modelsWelcome(key: string): string {
  const manifest = JSON.parse(readFileSync(join(repositoryRoot(), 'package.json'), 'utf8')) as { contributes: { viewsWelcome: Array<{ view: string; contents: string; when: string }> } };
  const welcome = manifest.contributes.viewsWelcome.find((entry) => entry.view === 'rlStudio.models' && new RegExp(`(^|&& )${key.replace('.', '\\.')}( |$)`).test(entry.when));
  assert.ok(welcome, `a Models welcome for ${key}`);
  return welcome.contents;
}

/** The chat's footer for a streamed answer that failed with `error`, through the platform backend. */
async function chatFooterWith(error: unknown, describe: (error: unknown) => Failure): Promise<{ kind: string; message: string }> {
  const backend = createPlatformBackend({
    client: async () =>
      ({
        inference: {
          streamChatCompletion: () => ({
            async *[Symbol.asyncIterator]() {
              throw error;
            },
          }),
        },
      }) as never,
    trainedModels: () => [],
    describeFailure: describe,
  });
  const outcome = await runStream(backend.stream({ model: 'm', messages: [] }, 'inference', new AbortController().signal), { signal: new AbortController().signal, onDelta: () => undefined });
  assert.equal(outcome.status, 'error');
  return outcome.error!;
}

describe('one failure, the same words in the chat, the Models view and the status bar', () => {
  let platform: Awaited<ReturnType<typeof startPlatform>>;
  let closedUrl: string;
  let client: PlatformClient;
  let closedClient: PlatformClient;
  /** Gives up after 300 ms, for the timeout. */
  let impatientClient: PlatformClient;
  const entries: RequestLogEntry[] = [];

  before(async () => {
    dialogs.reset();
    platform = await startPlatform();
    const closed = await startPlatform();
    closedUrl = closed.url;
    await closed.close();
    const options = {
      credentials: { getApiKey: async () => 'sk-failure-words-0123456789' },
      maxRetries: 0,
      timeoutMs: 10_000,
      maxJsonBytes: 1024,
      logger: (entry: RequestLogEntry) => void entries.push(entry),
    };
    client = new PlatformClient({ ...options, trainingUrl: platform.url, inferenceUrl: platform.url });
    closedClient = new PlatformClient({ ...options, trainingUrl: platform.url, inferenceUrl: closedUrl });
    impatientClient = new PlatformClient({ ...options, trainingUrl: platform.url, inferenceUrl: platform.url, timeoutMs: 300 });
    // The first call loads the network stack and connects: done here, so the timeout measures only the silence.
    await impatientClient.inference.listModels().catch(() => undefined);
  });

  after(async () => {
    await client?.destroy();
    await closedClient?.destroy();
    await impatientClient?.destroy();
    await platform?.close();
  });

  for (const testCase of cases) {
    it(`${testCase.name}: "${testCase.kind}" in every surface, the status bar "${testCase.statusBar}", the Models view a ${testCase.models}`, async () => {
      entries.length = 0;
      const error = await testCase.fail({ respondWith: platform.respondWith, client, closedClient, impatientClient }).then(
        () => assert.fail('the call did not fail'),
        (failed: unknown) => failed,
      );
      const context: FailureContext = { urls: { training: platform.url, inference: testCase.name === 'refused' ? closedUrl : platform.url } };
      const describe = (thrown: unknown) => describeFailure(thrown, context);
      const failure = describe(error);
      assert.equal(failure.kind, testCase.kind, failure.detail);
      assert.ok(failure.message.length > 0);

      // The chat: the same words, then when to try again (a person retries there).
      const chat = await chatFooterWith(error, describe);
      assert.equal(chat.kind, failure.kind);
      assert.ok(chat.message.startsWith(failure.message), `chat: ${chat.message}`);
      if (testCase.kind === 'rate-limited') assert.equal(chat.message, `${failure.message} Try again in 8 s.`);
      else assert.equal(chat.message, failure.message);

      // The Models view: a welcome for a refused key or no answer at all, else one row in the same words.
      const models = await modelsViewWith(error, describe, context);
      assert.equal(models.outcome, testCase.models);
      // A welcome view's words are fixed (package.json): they hold the headline, not what the server said.
      const headline = failure.message.replace(/ It said: ".*$/, '');
      assert.ok(models.words.startsWith(models.outcome === 'warning row' ? failure.message : headline), `Models view: ${models.words}`);
      if (testCase.kind === 'rate-limited') assert.doesNotMatch(headline, /reach|unreachable/i);

      // The status bar: its own check and the request log of any call agree, in the same words.
      const checked = statusBarAfterCheck(failure, context);
      assert.equal(checked.text, testCase.statusBar);
      const inferenceLine = unescapeMarkdown(checked.detail.find((line) => line.startsWith('**Inference API**'))!);
      if (testCase.statusBar.includes('inference API') || testCase.kind === 'rejected') {
        assert.ok(inferenceLine.startsWith(`**Inference API**: ${failure.message}`), `status bar: ${inferenceLine}`);
        assert.ok(checked.text.endsWith(failureLabel(failure.kind)));
      } else {
        assert.ok(!inferenceLine.includes(failure.message), 'a failure that does not concern the whole API leaves the status bar as it was');
      }
      if (entries.length > 0) {
        const logged = statusBarAfterCall(entries, context);
        assert.equal(logged.text, checked.text);
        assert.deepEqual(logged.detail.map(unescapeMarkdown), checked.detail.map(unescapeMarkdown));
      }
    });
  }
});
