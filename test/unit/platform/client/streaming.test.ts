import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PlatformClient } from '../../../../src/platform/client';
import { startEmulator, type Emulator } from '../../../emulator';
import { answerOf, clientFor, drain, failure, observed, testApiKey, useEmulatorClient } from './support/harness';

const question = { messages: [{ role: 'user' as const, content: 'Write a long story about a lighthouse keeper.' }], seed: 11 };

/**
 * A server that streams chunks until the client goes away, and reports when it did: the proof that
 * leaving the loop closes the socket at once instead of reading on.
 */
class EndlessStreamServer {
  private server: Server | undefined;
  written = 0;
  closedAt: number | undefined;
  private onClosed: ((at: number) => void) | undefined;
  url = '';

  /**
   * When the server sees the client's connection close, or a failure naming the wait; the bound is
   * far under the client's idle timeout, so a socket left open fails rather than closing by itself.
   */
  closed(withinMs = 5_000): Promise<number> {
    if (this.closedAt !== undefined) return Promise.resolve(this.closedAt);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the server saw no close within ${withinMs} ms`)), withinMs);
      this.onClosed = (at) => {
        clearTimeout(timer);
        resolve(at);
      };
    });
  }

  async start(): Promise<void> {
    this.server = createServer((request: IncomingMessage, response: ServerResponse) => {
      request.resume();
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const timer = setInterval(() => {
        const chunk = { id: 'chatcmpl-endless', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content: `part ${this.written} ` }, finish_reason: null }] };
        response.write(`data: ${JSON.stringify(chunk)}\n\n`);
        this.written++;
      }, 5);
      response.on('close', () => {
        clearInterval(timer);
        this.closedAt = performance.now();
        this.onClosed?.(this.closedAt);
        this.onClosed = undefined;
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}

describe('chat streams', () => {
  let emulator: Emulator;
  let client: ReturnType<typeof clientFor>;

  useEmulatorClient((started, startedClient) => {
    emulator = started;
    client = startedClient;
  });

  for (const api of ['inference', 'training'] as const) {
    it(`delivers every chunk before a cut, then fails with stream-cut (${api} API)`, async () => {
      const model = api === 'inference' ? emulator.seeded!.inferenceModels[0]! : emulator.seeded!.baseModels[0]!;
      for (const afterChunks of [1, 5, 12]) {
        emulator.addFault({ kind: 'cut-stream', afterChunks, path: '/chat/completions' });
        const { chunks, error } = await drain(client[api].streamChatCompletion({ model, ...question }));
        assert.equal(chunks.length, afterChunks, `cut after ${afterChunks}`);
        assert.equal(error?.kind, 'stream-cut');
        assert.equal(error?.message, `POST /${api}/v1/chat/completions: the answer stream ended before it was complete (${afterChunks} chunk${afterChunks === 1 ? '' : 's'} received)`);
        assert.equal(chunks[0]?.choices[0]?.delta.role, 'assistant');
      }
    });
  }

  it('is not retried once the stream has begun', async () => {
    emulator.addFault({ kind: 'cut-stream', afterChunks: 3, path: '/chat/completions' });
    const before = emulator.requests.length;
    await drain(client.inference.streamChatCompletion({ model: emulator.seeded!.inferenceModels[0]!, ...question }));
    assert.equal(emulator.requests.length - before, 1);
  });

  it('ends with aborted and reads no further chunk when aborted after the first', async () => {
    const slow = await startEmulator({ apiKey: testApiKey, streamChunkDelayMs: 20 });
    const slowClient = clientFor(slow);
    try {
      const controller = new AbortController();
      const chunks: unknown[] = [];
      const error = await failure(async () => {
        for await (const chunk of slowClient.inference.streamChatCompletion({ model: slow.seeded!.inferenceModels[0]!, ...question }, { signal: controller.signal })) {
          chunks.push(chunk);
          controller.abort();
        }
      });
      assert.equal(chunks.length, 1);
      assert.equal(error.kind, 'aborted');
      assert.equal(error.message, 'POST /inference/v1/chat/completions was cancelled');
      // The socket was given up, not left half-read: the next call on the same client works.
      const models = await slowClient.inference.listModels();
      assert.ok(models.data.length > 0);
      const { error: streamError, chunks: again } = await drain(slowClient.inference.streamChatCompletion({ model: slow.seeded!.inferenceModels[0]!, messages: question.messages, max_tokens: 5 }));
      assert.equal(streamError, undefined);
      assert.ok(again.length > 0);
    } finally {
      await slowClient.close();
      await slow.close();
    }
  });

  it('also aborts when the signal fires while waiting for the next chunk', async () => {
    const slow = await startEmulator({ apiKey: testApiKey, streamChunkDelayMs: 300 });
    const slowClient = clientFor(slow);
    try {
      const controller = new AbortController();
      let received = 0;
      let abortedAt = 0;
      const error = await failure(async () => {
        for await (const _chunk of slowClient.inference.streamChatCompletion({ model: slow.seeded!.inferenceModels[0]!, ...question }, { signal: controller.signal })) {
          received++;
          if (received === 1) {
            setTimeout(() => {
              abortedAt = performance.now();
              controller.abort();
            }, 50);
          }
        }
      });
      assert.equal(error.kind, 'aborted');
      assert.equal(received, 1);
      assert.ok(performance.now() - abortedAt < 200, 'the pending read ended at once');
    } finally {
      await slowClient.close();
      await slow.close();
    }
  });

  it('times out when the next part of a stream takes longer than the timeout', async () => {
    const stalled = await startEmulator({ apiKey: testApiKey, streamChunkDelayMs: 3_000 });
    const hasty = clientFor(stalled, { timeoutMs: 200 });
    try {
      const { chunks, error } = await drain(hasty.inference.streamChatCompletion({ model: stalled.seeded!.inferenceModels[0]!, ...question }));
      assert.equal(chunks.length, 1);
      assert.equal(error?.kind, 'timeout');
      assert.match(error!.message, /timed out after 0\.2 s/);
    } finally {
      await hasty.close();
      await stalled.close();
    }
  });

  it('can be read only once', async () => {
    const stream = client.inference.streamChatCompletion({ model: emulator.seeded!.inferenceModels[0]!, messages: question.messages, max_tokens: 3 });
    await drain(stream);
    assert.throws(() => stream[Symbol.asyncIterator](), /only once/);
  });

  it('sends nothing until it is iterated', async () => {
    const before = emulator.requests.length;
    const stream = client.inference.streamChatCompletion({ model: emulator.seeded!.inferenceModels[0]!, messages: question.messages });
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(emulator.requests.length, before);
    assert.equal((await answerOf((await drain(stream)).chunks)).finishReason !== undefined, true);
  });

  it('keeps every chunk that arrived before a cut, even for a reader slower than the server', async () => {
    const written = 40;
    const server = createServer(async (request, response) => {
      request.resume();
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      for (let index = 0; index < written; index++) {
        const chunk = { id: 'chatcmpl-fast', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content: `${index} ` }, finish_reason: null }] };
        // One write per chunk, flushed, so that they arrive as separate reads.
        await new Promise((resolve) => response.write(`data: ${JSON.stringify(chunk)}\n\n`, resolve));
        await new Promise((resolve) => setImmediate(resolve));
      }
      setTimeout(() => response.destroy(), 10);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const fastClient = clientFor(emulator, { trainingUrl: url, inferenceUrl: url });
    try {
      const contents: string[] = [];
      const error = await failure(async () => {
        for await (const chunk of fastClient.inference.streamChatCompletion({ model: 'm', messages: [] })) {
          contents.push(chunk.choices[0]?.delta.content ?? '');
          await new Promise((resolve) => setTimeout(resolve, 8));
        }
      });
      assert.equal(error.kind, 'stream-cut');
      assert.deepEqual(
        contents,
        Array.from({ length: written }, (_, index) => `${index} `),
      );
    } finally {
      await fastClient.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  describe('unusual servers', () => {
    let server: Server;
    let url = '';
    let answer: (response: ServerResponse) => void = (response) => response.end();

    before(async () => {
      server = createServer((request, response) => {
        request.resume();
        request.on('end', () => answer(response));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    });
    after(async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });

    const chunkEvent = (content: string) =>
      `data: ${JSON.stringify({ id: 'chatcmpl-x', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;

    it('turns an error sent as an event into a PlatformError, after the chunks before it', async () => {
      answer = (response) => {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.end(`${chunkEvent('Hel')}${chunkEvent('lo')}data: {"error":{"message":"Engine overloaded","type":"server_error","code":503}}\n\n`);
      };
      const odd = clientFor(emulator, { trainingUrl: url, inferenceUrl: url });
      try {
        const { chunks, error } = await drain(odd.inference.streamChatCompletion({ model: 'm', messages: [] }));
        assert.equal((await answerOf(chunks)).content, 'Hello');
        assert.equal(error?.kind, 'http');
        assert.equal(error?.status, 503);
        assert.equal(error?.message, 'POST /v1/chat/completions: the server reported an error during the stream: Engine overloaded');
      } finally {
        await odd.close();
      }
    });

    it('reads a whole JSON completion from a server that ignores stream: true', async () => {
      answer = (response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            id: 'chatcmpl-y',
            object: 'chat.completion',
            created: 1,
            model: 'm',
            choices: [{ index: 0, message: { role: 'assistant', content: 'All at once', reasoning: 'short' }, finish_reason: 'stop' }],
            usage: { prompt_tokens: 1, completion_tokens: 3, total_tokens: 4 },
          }),
        );
      };
      const odd = clientFor(emulator, { trainingUrl: url, inferenceUrl: url });
      try {
        const { chunks, error } = await drain(odd.training.streamChatCompletion({ model: 'm', messages: [] }));
        assert.equal(error, undefined);
        assert.deepEqual([chunks[0]?.id, chunks[0]?.model], ['chatcmpl-y', 'm']);
        assert.deepEqual(await answerOf(chunks), { content: 'All at once', reasoning: 'short', finishReason: 'stop', usage: { prompt_tokens: 1, completion_tokens: 3, total_tokens: 4 } });
      } finally {
        await odd.close();
      }
    });

    it('stops reading at [DONE]: an event after it is not passed on', async () => {
      answer = (response) => {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.end(`${chunkEvent('a')}data: [DONE]\n\n${chunkEvent('ignored')}`);
      };
      const odd = clientFor(emulator, { trainingUrl: url, inferenceUrl: url });
      try {
        const { chunks, error } = await drain(odd.inference.streamChatCompletion({ model: 'm', messages: [] }));
        assert.equal(error, undefined);
        assert.deepEqual(
          chunks.map((chunk) => chunk.choices[0]?.delta.content),
          ['a'],
        );
      } finally {
        await odd.close();
      }
    });

    it('counts a stream that ends cleanly without [DONE] as cut, keeping a last event without its blank line', async () => {
      answer = (response) => {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.end(`${chunkEvent('a')}${chunkEvent('b').trimEnd()}`);
      };
      const odd = clientFor(emulator, { trainingUrl: url, inferenceUrl: url });
      try {
        const { chunks, error } = await drain(odd.inference.streamChatCompletion({ model: 'm', messages: [] }));
        assert.equal((await answerOf(chunks)).content, 'ab');
        assert.equal(error?.kind, 'stream-cut');
      } finally {
        await odd.close();
      }
    });

    it('reports an event cut in the middle of its JSON as the cut, not as a malformed answer', async () => {
      answer = (response) => {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.end(`${chunkEvent('a')}${chunkEvent('b').slice(0, 40)}`);
      };
      const odd = clientFor(emulator, { trainingUrl: url, inferenceUrl: url });
      try {
        const { chunks, error } = await drain(odd.inference.streamChatCompletion({ model: 'm', messages: [] }));
        assert.equal(chunks.length, 1);
        assert.equal(error?.kind, 'stream-cut');
      } finally {
        await odd.close();
      }
    });
  });

  describe('leaving early', () => {
    const endless = new EndlessStreamServer();
    let endlessClient: PlatformClient;

    before(async () => {
      await endless.start();
      endlessClient = new PlatformClient({
        trainingUrl: endless.url,
        inferenceUrl: endless.url,
        credentials: { getApiKey: async () => testApiKey },
        logger: (entry) => observed.logEntries.push(entry),
      });
    });
    after(async () => {
      await endlessClient.close();
      await endless.stop();
    });

    it('closes the socket at once when the loop is left', async () => {
      endless.closedAt = undefined;
      let seen = 0;
      for await (const _chunk of endlessClient.inference.streamChatCompletion({ model: 'm', messages: [] })) {
        if (++seen === 3) break;
      }
      const leftAt = performance.now();
      const closedAt = await endless.closed();
      // At once: the loop's exit closes the socket, rather than the idle timeout much later.
      assert.ok(closedAt - leftAt < 2_000, `closed ${Math.round(closedAt - leftAt)} ms after the loop was left`);
    });

    it('closes the socket at once when aborted', async () => {
      endless.closedAt = undefined;
      const controller = new AbortController();
      let seen = 0;
      const error = await failure(async () => {
        for await (const _chunk of endlessClient.inference.streamChatCompletion({ model: 'm', messages: [] }, { signal: controller.signal })) {
          if (++seen === 2) controller.abort();
        }
      });
      assert.equal(error.kind, 'aborted');
      assert.equal(seen, 2);
      await endless.closed();
    });
  });
});
