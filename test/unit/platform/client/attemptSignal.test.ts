import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from 'undici';
import { AttemptDeadlineError, AttemptSignal } from '../../../../src/platform/client/attemptSignal';

describe('the signal of one attempt', () => {
  it('aborts with the deadline error once the deadline passes, and says it timed out', async () => {
    const attempt = new AttemptSignal(undefined, 5);
    await once(attempt.signal, 'abort');
    assert.equal(attempt.signal.aborted, true);
    assert.ok(attempt.signal.reason instanceof AttemptDeadlineError);
    assert.equal((attempt.signal.reason as AttemptDeadlineError).deadlineMs, 5);
    assert.equal(attempt.timedOut, true);
    attempt.release();
  });

  it("aborts with the caller's reason when the caller aborts, without timing out", () => {
    const caller = new AbortController();
    const attempt = new AttemptSignal(caller.signal, 60_000);
    const reason = new Error('stopped');
    caller.abort(reason);
    assert.deepEqual([attempt.signal.aborted, attempt.signal.reason, attempt.timedOut], [true, reason, false]);
    attempt.release();
  });

  it('starts aborted when the caller already was', () => {
    const caller = new AbortController();
    caller.abort('gone');
    const attempt = new AttemptSignal(caller.signal, 60_000);
    assert.deepEqual([attempt.signal.aborted, attempt.signal.reason], [true, 'gone']);
    attempt.release();
  });

  it("lets go of the caller's signal on release: a later abort of the caller leaves the attempt alone", () => {
    const caller = new AbortController();
    const attempt = new AttemptSignal(caller.signal, 60_000);
    attempt.release();
    caller.abort(new Error('after the attempt'));
    assert.equal(attempt.signal.aborted, false);
  });

  it('keeps the first reason when aborted twice', () => {
    const caller = new AbortController();
    const attempt = new AttemptSignal(caller.signal, 60_000);
    const first = new Error('first');
    caller.abort(first);
    attempt.signal.abort(new Error('second'));
    assert.equal(attempt.signal.reason, first);
    assert.equal(attempt.signal.listenerCount('abort'), 0);
    attempt.release();
  });

  describe('as the signal of an undici request', () => {
    let server: Server;
    let client: Client;

    before(async () => {
      // Takes every request and never answers it.
      server = createServer(() => undefined);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      client = new Client(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    });
    after(async () => {
      await client.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });

    it('ends a request the server never answers with the deadline error', async () => {
      const attempt = new AttemptSignal(undefined, 50);
      await assert.rejects(client.request({ path: '/', method: 'GET', signal: attempt.signal }), (error: unknown) => error instanceof AttemptDeadlineError);
      assert.equal(attempt.timedOut, true);
      attempt.release();
    });

    it("ends a request with the caller's reason when the caller aborts", async () => {
      const caller = new AbortController();
      const attempt = new AttemptSignal(caller.signal, 60_000);
      const request = client.request({ path: '/', method: 'GET', signal: attempt.signal });
      const reason = new Error('the view was closed');
      caller.abort(reason);
      await assert.rejects(request, (error: unknown) => error === reason);
      assert.equal(attempt.timedOut, false);
      attempt.release();
    });
  });
});
