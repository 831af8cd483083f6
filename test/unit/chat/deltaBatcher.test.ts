import assert from 'node:assert/strict';
import { applyDelta, DeltaBatcher, type AnswerDelta, type Timers } from '../../../src/chat/deltaBatcher';

function manualTimers() {
  const callbacks = new Map<number, () => void>();
  let next = 1;
  const timers: Timers & { fire(): void; pending(): number } = {
    set: (callback) => {
      callbacks.set(next, callback);
      return next++;
    },
    clear: (handle) => callbacks.delete(handle as number),
    fire: () => {
      const all = [...callbacks.values()];
      callbacks.clear();
      for (const callback of all) callback();
    },
    pending: () => callbacks.size,
  };
  return timers;
}

describe('streamed text batching', () => {
  it('coalesces deltas into one message per interval, with offsets', () => {
    const timers = manualTimers();
    const sent: AnswerDelta[] = [];
    const batcher = new DeltaBatcher((delta) => sent.push(delta), 16, undefined, timers);
    batcher.push('Hel', '');
    batcher.push('lo', 'r1');
    assert.equal(timers.pending(), 1);
    timers.fire();
    batcher.push(' world', '');
    timers.fire();
    assert.deepEqual(sent, [
      { contentOffset: 0, content: 'Hello', reasoningOffset: 0, reasoning: 'r1' },
      { contentOffset: 5, content: ' world', reasoningOffset: 2, reasoning: '' },
    ]);
  });

  it('sends nothing for empty deltas and nothing after cancel', () => {
    const timers = manualTimers();
    const sent: AnswerDelta[] = [];
    const batcher = new DeltaBatcher((delta) => sent.push(delta), 16, undefined, timers);
    batcher.push('', '');
    assert.equal(timers.pending(), 0);
    batcher.push('x', '');
    batcher.cancel();
    timers.fire();
    batcher.flush();
    assert.deepEqual(sent, []);
  });

  it('applies deltas idempotently and detects gaps', () => {
    assert.equal(applyDelta('Hello', 5, ' world'), 'Hello world');
    assert.equal(applyDelta('Hello world', 5, ' world'), 'Hello world', 'already applied');
    assert.equal(applyDelta('Hello wo', 5, ' world'), 'Hello world', 'overlapping');
    assert.equal(applyDelta('Hel', 5, ' world'), undefined, 'gap');
  });

  it('rebuilds exactly the sent text from any batching of the same deltas', () => {
    const words = 'The quick brown fox jumps over the lazy dog, again and again.'.split(/(?= )/);
    for (let flushEvery = 1; flushEvery <= words.length; flushEvery++) {
      const timers = manualTimers();
      let received = '';
      const batcher = new DeltaBatcher((delta) => {
        received = applyDelta(received, delta.contentOffset, delta.content)!;
      }, 16, undefined, timers);
      words.forEach((word, index) => {
        batcher.push(word, '');
        if ((index + 1) % flushEvery === 0) timers.fire();
      });
      batcher.flush();
      assert.equal(received, words.join(''));
    }
  });
});
