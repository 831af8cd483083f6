import assert from 'node:assert/strict';
import { RpcEndpoint, RpcError } from '../../../../src/platform/pages/rpc';
import { params, parseWireMessage, ProtocolError, type WireMessage } from '../../../../src/platform/pages/wire';
import { until } from '../../chat/support';

type Left = { add: { params: { a: number; b: number }; result: number }; fail: { params: Record<string, never>; result: null } };
type Right = { echo: { params: { text: string }; result: string } };

/** Two endpoints wired to each other, with every wire message recorded. */
function pair(options: { leftTimeoutMs?: number; deliver?: boolean } = {}) {
  const wire: { from: 'left' | 'right'; message: WireMessage }[] = [];
  const leftEvents: unknown[] = [];
  const problems: string[] = [];
  let right!: RpcEndpoint<Left, Right, never, unknown>;
  const left = new RpcEndpoint<Right, Left, { type: string }, unknown>({
    post: (message) => {
      wire.push({ from: 'left', message });
      if (options.deliver !== false) queueMicrotask(() => right.receive(JSON.parse(JSON.stringify(message))));
    },
    handlers: {
      add: (raw) => {
        const p = params.object(raw);
        if (typeof p.a !== 'number' || typeof p.b !== 'number') throw new ProtocolError('a and b must be numbers');
        return p.a + p.b;
      },
      fail: async () => {
        throw new Error('it broke');
      },
    },
    onEvent: (event) => leftEvents.push(event),
    onProtocolError: (problem) => problems.push(problem),
    timeoutMs: options.leftTimeoutMs,
  });
  right = new RpcEndpoint<Left, Right, never, unknown>({
    post: (message) => {
      wire.push({ from: 'right', message });
      queueMicrotask(() => left.receive(JSON.parse(JSON.stringify(message))));
    },
    handlers: { echo: async (raw) => params.string(raw, 'text', 1_000) },
    onProtocolError: (problem) => problems.push(problem),
  });
  return { left, right, wire, leftEvents, problems };
}

describe('webview request/reply channel', () => {
  it('settles each request with the reply that carries its id, whatever the order of replies', async () => {
    const { right } = pair();
    const results = await Promise.all([right.request('add', { a: 1, b: 2 }), right.request('add', { a: 10, b: 20 }), right.request('add', { a: -1, b: 1 })]);
    assert.deepEqual(results, [3, 30, 0]);
    assert.equal(right.pendingCount, 0);
  });

  it('matches replies delivered out of order to the right callers', async () => {
    const posted: WireMessage[] = [];
    const endpoint = new RpcEndpoint<Left, Right, never, unknown>({ post: (m) => posted.push(m), handlers: { echo: () => '' } });
    const first = endpoint.request('add', { a: 1, b: 1 });
    const second = endpoint.request('add', { a: 2, b: 2 });
    const [a, b] = posted as Extract<WireMessage, { kind: 'request' }>[];
    assert.notEqual(a!.id, b!.id);
    endpoint.receive({ kind: 'reply', id: b!.id, ok: true, result: 'second' });
    endpoint.receive({ kind: 'reply', id: a!.id, ok: true, result: 'first' });
    assert.equal(await first, 'first');
    assert.equal(await second, 'second');
  });

  it('turns a handler failure into an error reply the caller receives as a rejection', async () => {
    const { right } = pair();
    await assert.rejects(right.request('fail', {}), (error: unknown) => error instanceof RpcError && error.message === 'it broke');
  });

  it('answers invalid params with a typed error code', async () => {
    const { right } = pair();
    await assert.rejects(
      right.request('add', { a: 'x', b: 2 } as unknown as { a: number; b: number }),
      (error: unknown) => error instanceof RpcError && error.code === 'invalid-params' && /numbers/.test(error.message),
    );
  });

  it('refuses unknown methods, including names inherited from Object', async () => {
    const { right } = pair();
    for (const method of ['nope', '__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      await assert.rejects(
        (right as unknown as RpcEndpoint<Record<string, { params: unknown; result: unknown }>, Right, never, unknown>).request(method, {}),
        (error: unknown) => error instanceof RpcError && error.code === 'unknown-method',
        method,
      );
    }
  });

  it('times out a request whose reply never comes, and ignores the late reply', async () => {
    const posted: WireMessage[] = [];
    const problems: string[] = [];
    const endpoint = new RpcEndpoint<Left, Right, never, unknown>({ post: (m) => posted.push(m), handlers: { echo: () => '' }, onProtocolError: (p) => problems.push(p) });
    await assert.rejects(endpoint.request('add', { a: 1, b: 1 }, 20), (error: unknown) => error instanceof RpcError && error.code === 'timeout');
    endpoint.receive({ kind: 'reply', id: (posted[0] as { id: number }).id, ok: true, result: 2 });
    assert.equal(problems.length, 1);
    assert.match(problems[0]!, /unknown request/);
  });

  it('rejects pending requests when disposed and refuses new ones', async () => {
    const endpoint = new RpcEndpoint<Left, Right, never, unknown>({ post: () => undefined, handlers: { echo: () => '' } });
    const pending = endpoint.request('add', { a: 1, b: 1 });
    endpoint.dispose();
    await assert.rejects(pending, (error: unknown) => error instanceof RpcError && error.code === 'closed');
    await assert.rejects(endpoint.request('add', { a: 1, b: 1 }), (error: unknown) => error instanceof RpcError && error.code === 'closed');
  });

  it('delivers events without replies', async () => {
    const { left, right, leftEvents, wire } = pair();
    right.receive({ kind: 'event', event: { type: 'nothing' } });
    (right as unknown as { emit(e: unknown): void }).emit({ type: 'hello' });
    await until(() => leftEvents.length > 0, 3000, 'the event');
    assert.deepEqual(leftEvents, [{ type: 'hello' }]);
    assert.equal(wire.filter((entry) => entry.message.kind === 'reply').length, 0);
    left.dispose();
  });

  it('ignores messages that are not part of the protocol', () => {
    const problems: string[] = [];
    const endpoint = new RpcEndpoint<Left, Right, never, unknown>({ post: () => assert.fail('nothing to answer'), handlers: { echo: () => '' }, onProtocolError: (p) => problems.push(p) });
    for (const junk of [
      null,
      42,
      'text',
      [],
      {},
      { kind: 'request' },
      { kind: 'request', id: -1, method: 'echo' },
      { kind: 'request', id: 1.5, method: 'echo' },
      { kind: 'reply', id: 1 },
      { kind: 'event', event: 3 },
    ]) {
      endpoint.receive(junk);
    }
    assert.equal(problems.length, 10);
  });

  it('parses error replies defensively', () => {
    assert.deepEqual(parseWireMessage({ kind: 'reply', id: 3, ok: false, error: 'boom' }), { kind: 'reply', id: 3, ok: false, error: { message: 'the request failed' } });
    assert.deepEqual(parseWireMessage({ kind: 'reply', id: 3, ok: false, error: { message: 'x', code: 'y' } }), { kind: 'reply', id: 3, ok: false, error: { message: 'x', code: 'y' } });
  });

  it('checks string params for type and length', () => {
    assert.equal(params.string({ text: 'ok' }, 'text', 10), 'ok');
    assert.throws(() => params.string({ text: 5 }, 'text', 10), ProtocolError);
    assert.throws(() => params.string({ text: 'x'.repeat(11) }, 'text', 10), /too long/);
    assert.equal(params.optionalString({}, 'text', 10), undefined);
    assert.throws(() => params.object([1]), ProtocolError);
  });
});
