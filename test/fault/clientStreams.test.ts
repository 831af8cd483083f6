/**
 * Hostile chat streams against the real platform client: one endless line, a million data lines
 * without an event boundary, keep-alive comments without end, a long answer that never says
 * [DONE], and a stream that goes silent.
 */
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import type { PlatformError } from '../../src/platform/client';
import type { ChatCompletionChunk } from '../../src/platform/client/types';
import { measureBounded, mib, repeated, startServer, until, writeLazily, type BoundedMeasurement, type WriteReport } from './support/clientServers';
import { faultClient, platformFailure } from './support/clientFaults';

const MiB = 2 ** 20;
const question = { model: 'm', messages: [{ role: 'user' as const, content: 'hi' }] };

function chunkEvent(content: string): string {
  const chunk: ChatCompletionChunk = { id: 'chatcmpl-f', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content }, finish_reason: null }] };
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

function startStream(response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
}

/**
 * Streams `total` bytes made by `piece` (written lazily) as the answer to a chat completion the real
 * client reads, and returns how it failed, what reading cost, and how much the server wrote before
 * it saw the client close the socket (waited for: it must close).
 */
async function streamUntilRefused(total: number, piece: (index: number) => Uint8Array): Promise<{ error: PlatformError; measurement: BoundedMeasurement; bytesWritten: number }> {
  let writer: WriteReport | undefined;
  const server = await startServer((_request, response) => {
    startStream(response);
    writer = writeLazily(response, total, piece);
  });
  const client = faultClient(server.apiUrl);
  try {
    const { result: error, measurement } = await measureBounded(() =>
      platformFailure(async () => {
        for await (const _chunk of client.inference.streamChatCompletion(question));
      }),
    );
    assert.equal(error.kind, 'too-large');
    await until(() => writer?.closedEarly === true, 5_000, 'the server to see the socket close');
    return { error, measurement, bytesWritten: writer!.bytesWritten };
  } finally {
    await client.close();
    await server.close();
  }
}

/** The event loop never stalled long and the heap stayed small while the client read. */
function assertHeldUpLittle(measurement: BoundedMeasurement): void {
  assert.ok(measurement.maxEventLoopDelayMs < 250, `event loop stalled ${measurement.maxEventLoopDelayMs.toFixed(0)} ms`);
  assert.ok(measurement.peakHeapGrowthMiB < 80, `heap grew ${measurement.peakHeapGrowthMiB.toFixed(1)} MiB`);
}

describe('client faults: hostile chat streams', () => {
  it('a 100 MB SSE line: fails with the event-size error at 16 MiB, event loop and heap bounded, socket closed', async () => {
    const head = Buffer.from('data: {"id":"');
    const filler = repeated('abcdefghijklmnopqrstuvwxyz012345');
    const { error, measurement, bytesWritten } = await streamUntilRefused(100e6, (index) => (index === 0 ? head : filler));
    assert.equal(error.message, 'POST /v1/chat/completions: an event of the answer stream was larger than 16 MiB; the stream was stopped (0 chunks received)');
    assert.ok(bytesWritten < 64 * MiB, `the server wrote ${mib(bytesWritten).toFixed(0)} MiB`);
    // How long parsing takes is a bench figure (test/bench/suites/sseLongLines.ts); here, what it holds up and holds.
    assertHeldUpLittle(measurement);
  });

  it('a million `data:` lines without a blank line: fails with the same event-size error, event loop and heap bounded', async () => {
    const line = 'data: {"i":"abcdefghijklmnopqrstuvwxyz0123"}\n';
    const lines = repeated(line);
    const total = 1e6 * line.length;
    const { error, measurement, bytesWritten } = await streamUntilRefused(total, () => lines);
    assert.match(error.message, /an event of the answer stream was larger than 16 MiB; the stream was stopped/);
    assert.ok(bytesWritten < total / 2, `the server wrote ${mib(bytesWritten).toFixed(0)} MiB of ${mib(total).toFixed(0)}`);
    assertHeldUpLittle(measurement);
  });

  it('keep-alive comments for 3 s (standing in for 10 minutes), past the idle timeout, then Stop: alive until Stop, ends with it, socket closed, heap flat', async () => {
    let comments = 0;
    let closed = false;
    const server = await startServer((_request, response) => {
      startStream(response);
      response.write(chunkEvent('thinking'));
      const timer = setInterval(() => {
        response.write(': keep-alive\n\n');
        comments++;
      }, 50);
      response.once('close', () => {
        clearInterval(timer);
        closed = true;
      });
    });
    // Comments count as activity: a 500 ms idle timeout must not end a stream that sends them.
    const client = faultClient(server.apiUrl, { streamIdleTimeoutMs: 500 });
    const controller = new AbortController();
    let received = 0;
    try {
      const { result: error, measurement } = await measureBounded(() =>
        platformFailure(async () => {
          const reading = (async () => {
            for await (const _chunk of client.inference.streamChatCompletion(question, { signal: controller.signal })) received++;
          })();
          await until(() => comments >= 60, 10_000, '3 s of comments');
          assert.equal(closed, false, 'the stream was still open before Stop');
          controller.abort();
          await reading;
        }),
      );
      // The server never ends this answer: only Stop can have ended the stream and closed the socket.
      assert.equal(error.kind, 'aborted');
      assert.equal(received, 1);
      await until(() => closed, 2_000, 'the server to see the socket close');
      assert.ok(measurement.peakHeapGrowthMiB < 16, `heap grew ${measurement.peakHeapGrowthMiB.toFixed(1)} MiB`);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('a 50 MB answer with no [DONE]: every chunk delivered to the end, then stream-cut, no hang', async () => {
    const event = Buffer.from(chunkEvent('x'.repeat(4000)));
    const count = Math.ceil(50e6 / event.byteLength);
    let writer: WriteReport | undefined;
    const server = await startServer((_request, response) => {
      startStream(response);
      writer = writeLazily(response, count * event.byteLength, () => event);
    });
    const client = faultClient(server.apiUrl);
    let received = 0;
    let characters = 0;
    try {
      const { result: error, measurement } = await measureBounded(() =>
        platformFailure(async () => {
          for await (const chunk of client.inference.streamChatCompletion(question)) {
            received++;
            characters += chunk.choices[0]?.delta.content?.length ?? 0;
          }
        }),
      );
      assert.equal(error.kind, 'stream-cut');
      assert.equal(writer!.finished, true);
      assert.equal(received, count);
      assert.equal(characters, count * 4000);
      assert.ok(measurement.peakArrayBufferGrowthMiB < 32, `buffers grew ${measurement.peakArrayBufferGrowthMiB.toFixed(1)} MiB`);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('a stream that goes silent after one chunk: fails with a timeout after the idle timeout, keeping the chunk', async () => {
    let closed = false;
    const server = await startServer((_request, response) => {
      startStream(response);
      response.write(chunkEvent('only'));
      response.once('close', () => (closed = true));
    });
    const client = faultClient(server.apiUrl, { streamIdleTimeoutMs: 300 });
    const contents: string[] = [];
    try {
      // The server neither writes nor ends: only the idle timeout can end the stream.
      const error = await platformFailure(async () => {
        for await (const chunk of client.inference.streamChatCompletion(question)) contents.push(chunk.choices[0]?.delta.content ?? '');
      });
      assert.equal(error.kind, 'timeout');
      assert.equal(error.message, 'POST /v1/chat/completions timed out after 0.3 s without any part of the answer stream arriving (1 chunk received)');
      assert.deepEqual(contents, ['only']);
      await until(() => closed, 2_000, 'the server to see the socket close');
    } finally {
      await client.close();
      await server.close();
    }
  });
});
