/**
 * Hostile servers against the real platform client: answers too large to hold, answers that drip,
 * Retry-After values meant to stall or spin it, redirects that would carry the key away, ids that
 * would change the request's path, and plain http to a remote host.
 */
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { countConnects, measureBounded, mib, repeated, startServer, until, writeLazily, type HostileServer, type WriteReport } from './support/clientServers';
import { faultApiKey, faultClient, platformFailure } from './support/clientFaults';

const MiB = 2 ** 20;
const GiB = 2 ** 30;

function closeAll(...servers: (HostileServer | undefined)[]): Promise<void[]> {
  return Promise.all(servers.map(async (server) => server?.close()));
}

describe('client faults: answers too large to hold', () => {
  /** A JSON answer of `total` bytes written lazily, with or without announcing its length. */
  async function hugeJsonCase(total: number, announce: boolean, status = 200) {
    let writer: WriteReport | undefined;
    const head = Buffer.from('{"object":"list","data":[');
    const filler = repeated('"0123456789abcdef",');
    const server = await startServer((_request, response) => {
      response.writeHead(status, { 'content-type': 'application/json', ...(announce ? { 'content-length': String(total) } : {}) });
      writer = writeLazily(response, total, (index) => (index === 0 ? head : filler), true);
    });
    const client = faultClient(server.apiUrl);
    try {
      const { result: error, measurement } = await measureBounded(() => platformFailure(client.inference.listModels()));
      await until(() => writer !== undefined, 5_000, 'the server to start writing');
      await writer!.done;
      return { error, measurement, writer: writer!, server };
    } finally {
      await client.close();
      await server.close();
    }
  }

  for (const [label, total] of [
    ['600 MB', 600e6],
    ['2 GB', 2 * GiB],
  ] as const) {
    it(`${label} JSON answer without Content-Length: refused at the 32 MiB cap, socket closed early, heap and event loop bounded`, async () => {
      const { error, measurement, writer } = await hugeJsonCase(total, false);
      assert.equal(error.kind, 'too-large');
      assert.equal(error.message, "GET /v1/models: the server's answer was larger than 32 MiB; it was not read");
      assert.equal(writer.closedEarly, true, 'the client closed the socket');
      assert.ok(writer.bytesWritten < 96 * MiB, `the server wrote ${mib(writer.bytesWritten).toFixed(0)} MiB before the socket closed`);
      assert.ok(measurement.peakHeapGrowthMiB < 48, `heap grew ${measurement.peakHeapGrowthMiB.toFixed(1)} MiB`);
      assert.ok(measurement.peakArrayBufferGrowthMiB < 96, `buffers grew ${measurement.peakArrayBufferGrowthMiB.toFixed(1)} MiB`);
      assert.ok(measurement.maxEventLoopDelayMs < 250, `event loop stalled ${measurement.maxEventLoopDelayMs.toFixed(0)} ms`);
    });
  }

  it('2 GB JSON answer announced by Content-Length: refused before reading it, socket closed', async () => {
    const { error, measurement, writer } = await hugeJsonCase(2 * GiB, true);
    assert.equal(error.kind, 'too-large');
    assert.equal(writer.closedEarly, true);
    assert.ok(writer.bytesWritten < 32 * MiB, `the server wrote ${mib(writer.bytesWritten).toFixed(1)} MiB`);
    assert.ok(measurement.peakArrayBufferGrowthMiB < 32, `buffers grew ${measurement.peakArrayBufferGrowthMiB.toFixed(1)} MiB`);
  });

  it('600 MB error body: only its first 64 KiB read, the error still names the status, socket closed early', async () => {
    const { error, measurement, writer } = await hugeJsonCase(600e6, false, 500);
    assert.equal(error.kind, 'http');
    assert.equal(error.status, 500);
    assert.match(error.message, /^GET \/v1\/models failed: 500 \{"object":"list","data":\["0123456789abcdef"/);
    assert.equal(writer.closedEarly, true);
    assert.ok(writer.bytesWritten < 64 * MiB, `the server wrote ${mib(writer.bytesWritten).toFixed(1)} MiB`);
    assert.ok(measurement.peakArrayBufferGrowthMiB < 32, `buffers grew ${measurement.peakArrayBufferGrowthMiB.toFixed(1)} MiB`);
  });
});

describe('client faults: deadlines', () => {
  it('JSON body dripping 1 byte every 250 ms with timeoutMs 1000: fails with a timeout within 1.5 s', async () => {
    let closedAt: number | undefined;
    const server = await startServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"object":"list","data":[');
      // Never more than 8 s, so even a client without a deadline ends the case.
      let sent = 0;
      const timer = setInterval(() => {
        if (++sent > 32) {
          clearInterval(timer);
          response.end(']}');
        } else {
          response.write(' ');
        }
      }, 250);
      response.once('close', () => {
        clearInterval(timer);
        closedAt = performance.now();
      });
    });
    const client = faultClient(server.apiUrl, { timeoutMs: 1_000 });
    try {
      const started = performance.now();
      const error = await platformFailure(client.inference.listModels());
      const elapsed = performance.now() - started;
      assert.equal(error.kind, 'timeout');
      assert.equal(error.message, 'GET /v1/models timed out after 1 s (the answer was still arriving)');
      assert.ok(elapsed < 1_500, `failed after ${elapsed.toFixed(0)} ms`);
      await until(() => closedAt !== undefined, 2_000, 'the server to see the socket close');
    } finally {
      await client.close();
      await server.close();
    }
  });
});

describe('client faults: Retry-After', () => {
  const maxDelayMs = 300;
  const cases: [string, () => string, 'capped' | 'short'][] = [
    ['-5', () => '-5', 'short'],
    ['0', () => '0', 'short'],
    ['1e9', () => '1e9', 'short'],
    ['a date in the past', () => new Date(Date.now() - 3_600_000).toUTCString(), 'short'],
    ['a date an hour ahead', () => new Date(Date.now() + 3_600_000).toUTCString(), 'capped'],
    ['a billion seconds', () => '1000000000', 'capped'],
    ['garbage', () => 'soon, maybe; 12', 'short'],
    ['a malformed date', () => 'Wed, 99 Foo 2025 25:61:61 GMT', 'short'],
  ];
  for (const [label, value, expected] of cases) {
    it(`Retry-After ${label} on every 503: waits bounded by the maximum delay, four attempts in all`, async () => {
      const server = await startServer((_request, response) => {
        response.writeHead(503, { 'content-type': 'application/json', 'retry-after': value() });
        response.end('{"detail":"busy"}');
      });
      const client = faultClient(server.apiUrl, { maxRetries: 3, retryBaseDelayMs: 20, retryMaxDelayMs: maxDelayMs });
      try {
        const error = await platformFailure(client.inference.listModels());
        assert.equal(error.kind, 'http');
        assert.equal(error.status, 503);
        assert.ok(error.retryAfterMs === undefined || (Number.isFinite(error.retryAfterMs) && error.retryAfterMs >= 0), `retryAfterMs ${error.retryAfterMs}`);
        assert.equal(server.received.length, 4, 'one attempt and three retries');
        const gaps = server.received.slice(1).map((request, index) => request.at - server.received[index]!.at);
        for (const gap of gaps) {
          assert.ok(gap < maxDelayMs + 250, `a wait of ${gap.toFixed(0)} ms passed the ${maxDelayMs} ms cap`);
          if (expected === 'capped') assert.ok(gap >= maxDelayMs - 20, `a wait of ${gap.toFixed(0)} ms: the server's long Retry-After should have been capped at ${maxDelayMs} ms, not ignored`);
        }
      } finally {
        await client.close();
        await server.close();
      }
    });
  }
});

describe('client faults: redirects', () => {
  let elsewhere: HostileServer | undefined;
  let redirecting: HostileServer | undefined;
  let location = '';
  let status = 302;

  beforeEach(async () => {
    elsewhere = await startServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"object":"list","data":[]}');
    });
    redirecting = await startServer((_request, response: ServerResponse) => {
      response.writeHead(status, { location, 'content-type': 'text/plain' });
      response.end('moved');
    });
  });
  afterEach(() => closeAll(elsewhere, redirecting));

  for (const code of [302, 307]) {
    it(`${code} to another origin: not followed, the other server receives nothing, a clear error`, async () => {
      status = code;
      location = `${elsewhere!.origin}/v1/models`;
      const client = faultClient(redirecting!.apiUrl);
      try {
        const { result: errors, connects } = await countConnects(async () => [
          await platformFailure(client.inference.listModels()),
          await platformFailure(client.inference.chatCompletion({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })),
          await platformFailure(async () => {
            for await (const _chunk of client.inference.streamChatCompletion({ model: 'm', messages: [] }));
          }),
        ]);
        const [get, post] = errors;
        assert.equal(get!.message, `GET /v1/models: the server redirected to ${elsewhere!.origin} (${code}); RL Studio does not follow redirects, so your key stays with the address you set`);
        assert.equal(post!.message, `POST /v1/chat/completions: the server redirected to ${elsewhere!.origin} (${code}); RL Studio does not follow redirects, so your key stays with the address you set`);
        for (const error of errors) {
          assert.equal(error.kind, 'http');
          assert.equal(error.status, code);
        }
        assert.equal(redirecting!.received.length, 3, 'each call was sent once');
        assert.equal(elsewhere!.received.length, 0, 'the other server received nothing');
        const elsewherePort = new URL(elsewhere!.origin).port;
        assert.ok(!connects.some((address) => address.endsWith(`:${elsewherePort}`)), `connections: ${connects.join(', ')}`);
      } finally {
        await client.close();
      }
    });
  }

  it('302 to a host named after the key: not followed, and the key is not in the message in any letter case', async () => {
    status = 302;
    location = `https://${faultApiKey}.attacker.example/collect`;
    const client = faultClient(redirecting!.apiUrl);
    try {
      const error = await platformFailure(client.inference.listModels());
      assert.match(error.message, /redirected to an address that contains your key \(302\)/);
      assert.ok(!client.log.some((entry) => JSON.stringify(entry).toLowerCase().includes(faultApiKey.toLowerCase())));
    } finally {
      await client.close();
    }
  });
});

describe('client faults: ids that would change the path', () => {
  for (const id of ['..', 'a/../b', '%2e%2e', '.', '', 'a%2fb', 'a?b', 'a#b', 'a\\b', 'a\u0000b', 'a\nb']) {
    it(`id ${JSON.stringify(id)}: every call with it in the path fails with invalid-input, the server receives no request`, async () => {
      const server = await startServer((_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"id":"x","object":"list","data":[],"has_more":false}');
      });
      const client = faultClient(server.apiUrl);
      const training = client.training;
      try {
        const { result: errors, connects } = await countConnects(async () => [
          await platformFailure(training.deleteModel(id)),
          await platformFailure(training.listCheckpoints(id)),
          await platformFailure(training.deleteCheckpoints(id, [1])),
          await platformFailure(training.log(id, { split: 'train', trajectory_groups: [] })),
          await platformFailure(training.getTrainingJob(id)),
          await platformFailure(training.listTrainingJobEvents(id)),
        ]);
        for (const error of errors) {
          assert.equal(error.kind, 'invalid-input', error.message);
          assert.match(error.message, /cannot be used in a request address .*; nothing was sent$/);
        }
        assert.equal(server.received.length, 0);
        assert.deepEqual(connects, []);
        assert.equal(client.log.length, 0, 'no attempt was made');
      } finally {
        await client.close();
        await server.close();
      }
    });
  }
});

describe('client faults: plain http', () => {
  it('http:// to a non-loopback host (203.0.113.1, a documentation address): refused before any connection, with not-configured', async () => {
    const client = faultClient('http://203.0.113.1/v1');
    try {
      const started = performance.now();
      const { result: errors, connects } = await countConnects(async () => [
        await platformFailure(client.inference.listModels()),
        await platformFailure(client.training.health()),
        await platformFailure(client.inference.chatCompletion({ model: 'm', messages: [] })),
        await platformFailure(async () => {
          for await (const _chunk of client.inference.streamChatCompletion({ model: 'm', messages: [] }));
        }),
      ]);
      const elapsed = performance.now() - started;
      for (const error of errors) {
        assert.equal(error.kind, 'not-configured');
        assert.match(error.message, /uses http:\/\/ for a host other than this computer; use https:\/\//);
      }
      assert.deepEqual(connects, [], 'no connection was started');
      assert.equal(client.log.length, 0, 'no attempt was made');
      assert.ok(elapsed < 200, `took ${elapsed.toFixed(0)} ms`);
    } finally {
      await client.close();
    }
  });
});

describe('client faults: connections', () => {
  it('40 calls at once to one slow server: at most 16 sockets, every call answered', async () => {
    const pending: ServerResponse[] = [];
    let released = false;
    const answer = (response: ServerResponse) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"object":"list","data":[]}');
    };
    const server = await startServer((_request, response) => {
      if (released) return answer(response);
      pending.push(response);
      // Held until 16 wait at once: an uncapped client would have opened all 40 by then.
      if (pending.length >= 16) {
        released = true;
        pending.splice(0).forEach(answer);
      }
    });
    const client = faultClient(server.apiUrl);
    try {
      const lists = await Promise.all(Array.from({ length: 40 }, () => client.inference.listModels()));
      assert.equal(lists.length, 40);
      assert.equal(server.received.length, 40);
      assert.ok(server.maxOpenSockets <= 16, `${server.maxOpenSockets} sockets were open at once`);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
