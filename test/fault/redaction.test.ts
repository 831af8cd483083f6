import '../unit/platform/client/support/fakeVscode';
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { isPlatformError, PlatformClient, type PlatformError, type RequestLogEntry } from '../../src/platform/client';
import { redactSecrets } from '../../src/platform/client/redact';
import { describeAnswerError } from '../../src/chat/model/answerErrors';
import { appendUserTurn, createConversation } from '../../src/chat/model/conversation';
import { defaultSettings } from '../../src/chat/model/conversationTypes';
import { conversationToJson, conversationToMarkdown } from '../../src/chat/model/exportConversation';
import { RedactingLog } from '../../src/platform/host/log';
import { testEnv } from '../unit/chat/support';
import { base64Pieces } from '../unit/platform/client/support/keys';
import { measure } from './support/measure';
import { basicOf, hostileServer, leakOf, type HostileServer } from './support/redactionHostile';

/** 48 characters, with the symbols that URL- and JSON-encoding change. */
const key = 'sk-rl/studio+fault=7Qz9X2vLk4Pw8Nn3Yb6Tc1Rd5Hf0J';

/** Everything a person or a file gets from one failed call: the error, the log, the chat, exports. */
function whatPeopleSee(error: PlatformError, entries: RequestLogEntry[]): Record<string, string> {
  const log = new RedactingLog('RL Studio');
  log.addSecret(key);
  // The line the extension's request logger writes for a failed attempt.
  for (const entry of entries) log.warn(`${entry.api} ${entry.method} ${entry.path} → failed: ${entry.error ?? entry.status} in ${Math.round(entry.ms)} ms`);
  // The chat describes the failure without knowing the key; exports are given the key.
  const chatError = describeAnswerError(error);
  const env = testEnv();
  const conversation = createConversation(env, defaultSettings('model-a'));
  const { answers } = appendUserTurn(conversation, 'hello', env);
  Object.assign(answers[0]!, { status: 'error', error: chatError });
  return {
    'error message': error.message,
    'error details': (error.details ?? []).join('\n'),
    'error as inspected': inspect(error, { depth: 6 }),
    'request log entries': JSON.stringify(entries),
    'log channel': log.recentLines().join('\n'),
    'chat error': chatError.message,
    'Markdown export': conversationToMarkdown(conversation, new Date(0)),
    'JSON export': conversationToJson(conversation, new Date(0)),
    'Markdown export (key known)': conversationToMarkdown(conversation, new Date(0), [key]),
  };
}

function clientOf(server: HostileServer, entries: RequestLogEntry[]): PlatformClient {
  return new PlatformClient({
    trainingUrl: `${server.origin}/v1`,
    inferenceUrl: `${server.origin}/v1`,
    credentials: { getApiKey: async () => key },
    maxRetries: 1,
    retryBaseDelayMs: 5,
    retryMaxDelayMs: 20,
    timeoutMs: 5_000,
    logger: (entry) => entries.push(entry),
  });
}

async function failureOf(work: () => Promise<unknown>): Promise<PlatformError> {
  try {
    await work();
  } catch (error) {
    assert.ok(isPlatformError(error), `expected a PlatformError, got ${String(error)}`);
    return error;
  }
  assert.fail('the call was expected to fail');
}

async function drainStream(client: PlatformClient): Promise<PlatformError> {
  return failureOf(async () => {
    for await (const _chunk of client.inference.streamChatCompletion({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })) {
      // Chunks before the failure do not matter here.
    }
  });
}

/** The key at `at` characters into a body of filler, as a server that echoes it might write it. */
function bodyWithKeyAt(at: number | 'end', echoed = key): string {
  if (at === 'end') return `${'the request was refused because '.repeat(8).slice(0, 250)}${echoed}`;
  return `${'e'.repeat(at)}${echoed} and then some more words to fill the line past its limit ${'f'.repeat(200)}`;
}

const positions: Array<number | 'end'> = [0, 280, 290, 300, 320, 'end'];

describe('fault: a server that echoes the API key into error bodies', function () {
  this.timeout(20_000);

  for (const at of positions) {
    it(`a 401 JSON detail with the key at character ${at}: no 8 characters of the key in the message, details, log, chat error or exports`, async () => {
      const server = await hostileServer((_request, response) => {
        response.writeHead(401, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            detail: [
              { loc: ['header', 'authorization'], msg: bodyWithKeyAt(at) },
              { loc: ['body'], msg: `got ${key}` },
            ],
          }),
        );
      });
      const entries: RequestLogEntry[] = [];
      const client = clientOf(server, entries);
      try {
        const error = await failureOf(() => client.training.getTrainingJob('job-1'));
        assert.equal(error.status, 401);
        assert.equal(leakOf(whatPeopleSee(error, entries), key), undefined);
      } finally {
        await client.close();
        await server.close();
      }
    });

    it(`a 500 text body with the key at character ${at}: no 8 characters of the key anywhere a person reads`, async () => {
      const server = await hostileServer((_request, response) => {
        response.writeHead(500, { 'content-type': 'text/plain' });
        response.end(bodyWithKeyAt(at));
      });
      const entries: RequestLogEntry[] = [];
      const client = clientOf(server, entries);
      try {
        const error = await failureOf(() => client.inference.listModels());
        assert.equal(error.status, 500);
        assert.ok(entries.length >= 1, 'the attempt was logged');
        assert.equal(leakOf(whatPeopleSee(error, entries), key), undefined);
      } finally {
        await client.close();
        await server.close();
      }
    });

    it(`an SSE error event with the key at character ${at} of its message: no 8 characters of the key anywhere a person reads`, async () => {
      const server = await hostileServer((_request, response) => {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 'Hel' } }] })}\n\n`);
        response.end(`data: ${JSON.stringify({ error: { message: bodyWithKeyAt(at), code: 500 } })}\n\n`);
      });
      const entries: RequestLogEntry[] = [];
      const client = clientOf(server, entries);
      try {
        const error = await drainStream(client);
        assert.match(error.message, /error during the stream/);
        assert.equal(leakOf(whatPeopleSee(error, entries), key), undefined);
      } finally {
        await client.close();
        await server.close();
      }
    });
  }

  it('an SSE event that is not JSON, the key at character 40 (cut at 60): no 8 characters of the key', async () => {
    const server = await hostileServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(`data: ${'x'.repeat(40)}${key} trailing\n\n`);
    });
    const entries: RequestLogEntry[] = [];
    const client = clientOf(server, entries);
    try {
      const error = await drainStream(client);
      assert.equal(error.kind, 'invalid-response');
      assert.equal(leakOf(whatPeopleSee(error, entries), key), undefined);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('a 200 answer that is not JSON, the key at character 45 (cut at 60): no 8 characters of the key', async () => {
    const server = await hostileServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(`${'z'.repeat(45)}${key} trailing`);
    });
    const entries: RequestLogEntry[] = [];
    const client = clientOf(server, entries);
    try {
      const error = await failureOf(() => client.inference.listModels());
      assert.equal(error.kind, 'invalid-response');
      assert.equal(leakOf(whatPeopleSee(error, entries), key), undefined);
    } finally {
      await client.close();
      await server.close();
    }
  });

  const echoes: Array<[string, (authorization: string) => string, string[]?]> = [
    ['the Authorization header with a lowercase scheme', (authorization) => `seen: ${authorization.replace('Bearer', 'bearer')}`],
    ['the Authorization header in capitals', (authorization) => `SEEN: ${authorization.toUpperCase().replace(key.toUpperCase(), key)}`],
    ['Basic base64(user:key)', () => `tried Authorization: Basic ${basicOf('user', key)}`, base64Pieces(key, false)],
    ['Basic base64(key) with no header name', () => `tried Basic ${basicOf('ab', key)}`, base64Pieces(key, false)],
    ['the key URL-encoded in a query', () => `redirect to /login?next=%2Fv1&api_key=${encodeURIComponent(key)}`],
    ['the key URL-encoded twice', () => `bad key ${encodeURIComponent(encodeURIComponent(key))}`],
    ['the key JSON-escaped with \\/', () => JSON.stringify({ key }).replace(/\//g, '\\/')],
    ['the key as \\u escapes', () => [...key].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')],
    ['x-api-key: key', () => `expected header x-api-key: ${key}`],
  ];
  for (const [name, echo, extraForms] of echoes) {
    it(`a 401 echoing ${name}: masked in every text a person reads`, async () => {
      const server = await hostileServer((request, response) => {
        response.writeHead(401, { 'content-type': 'text/plain' });
        response.end(`Key rejected. ${echo(String(request.headers.authorization))}`);
      });
      const entries: RequestLogEntry[] = [];
      const client = clientOf(server, entries);
      try {
        const error = await failureOf(() => client.training.getTrainingJob('job-2'));
        assert.equal(server.requests[0].headers.authorization, `Bearer ${key}`, 'the server did receive the key');
        const seen = whatPeopleSee(error, entries);
        for (const form of [key, ...(extraForms ?? [])]) assert.equal(leakOf(seen, form), undefined);
        assert.match(error.message, /Key rejected\. .*\[redacted\]/);
      } finally {
        await client.close();
        await server.close();
      }
    });
  }

  it('a 4 MB error text full of near misses of the key: redacted in one pass, without freezing the extension host', async () => {
    // Every 7 characters of the key repeated (a piece short of a match), with the key itself inside.
    const nearMisses = Array.from({ length: key.length - 7 }, (_, start) => key.slice(start, start + 7)).join(' ');
    const text = `${nearMisses.repeat(Math.ceil(4_000_000 / nearMisses.length))}${key}${encodeURIComponent(key)}`;
    const pause = () => new Promise((resolve) => setTimeout(resolve, 30));
    let took = 0;
    // Pauses around the work let the event-loop monitor take a sample after the stall it caused.
    const { result, measurement } = await measure(async () => {
      await pause();
      const started = performance.now();
      const redacted = redactSecrets(text, [key]);
      took = performance.now() - started;
      await pause();
      return redacted;
    });
    assert.equal(leakOf({ redacted: result.slice(-200) }, key), undefined);
    assert.ok(result.length > 3_900_000, 'the near misses stay');
    console.log(`      4 MB redaction: ${took.toFixed(0)} ms, longest event-loop stall ${measurement.maxEventLoopDelayMs.toFixed(0)} ms, heap growth ${measurement.peakHeapGrowthMiB.toFixed(1)} MiB`);
    assert.ok(measurement.maxEventLoopDelayMs < 2_000, `stalled ${measurement.maxEventLoopDelayMs} ms`);
  });
});
