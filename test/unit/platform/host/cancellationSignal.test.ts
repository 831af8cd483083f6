import * as assert from 'node:assert/strict';
import { signalFor, type CancellationTokenLike } from '../../../../src/platform/host/cancellationSignal';

/** A token stand-in: cancellable from the test, counting the listeners it holds. */
function fakeToken(cancelled = false): CancellationTokenLike & { cancel(): void; listeners: Set<() => unknown> } {
  const listeners = new Set<() => unknown>();
  const token = {
    isCancellationRequested: cancelled,
    listeners,
    onCancellationRequested(listener: () => unknown) {
      listeners.add(listener);
      return { dispose: () => listeners.delete(listener) };
    },
    cancel() {
      token.isCancellationRequested = true;
      for (const listener of [...listeners]) listener();
    },
  };
  return token;
}

describe('signalFor', () => {
  it('aborts when the token is cancelled', () => {
    const token = fakeToken();
    const cancel = signalFor(token);
    assert.equal(cancel.signal.aborted, false);
    token.cancel();
    assert.equal(cancel.signal.aborted, true);
  });

  it('starts aborted for a token already cancelled', () => {
    assert.equal(signalFor(fakeToken(true)).signal.aborted, true);
  });

  it('aborts with any other signal it is given', () => {
    const lifetime = new AbortController();
    const cancel = signalFor(fakeToken(), lifetime.signal);
    lifetime.abort();
    assert.equal(cancel.signal.aborted, true);
  });

  it('aborts from its own side', () => {
    const cancel = signalFor(fakeToken(), new AbortController().signal);
    cancel.abort();
    assert.equal(cancel.signal.aborted, true);
  });

  it('drops its listener from the token once disposed', () => {
    const token = fakeToken();
    const cancel = signalFor(token);
    assert.equal(token.listeners.size, 1);
    cancel.dispose();
    assert.equal(token.listeners.size, 0);
    token.cancel();
    assert.equal(cancel.signal.aborted, false);
  });
});
