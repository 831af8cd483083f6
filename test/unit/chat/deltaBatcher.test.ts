import assert from 'node:assert/strict';
import { applyDelta, DeltaBatcher, type AnswerDelta } from '../../../src/chat/deltaBatcher';
import { FakeClock } from '../core/fakeClock';

describe('streamed text batching', () => {
  it('coalesces deltas into one message per interval, with offsets', async () => {
    const clock = new FakeClock();
    const sent: AnswerDelta[] = [];
    const batcher = new DeltaBatcher((delta) => sent.push(delta), 16, undefined, clock);
    batcher.push('Hel', '');
    batcher.push('lo', 'r1');
    assert.deepEqual(clock.delays(), [16]);
    await clock.advance(16);
    batcher.push(' world', '');
    await clock.advance(16);
    assert.deepEqual(sent, [
      { contentOffset: 0, content: 'Hello', reasoningOffset: 0, reasoning: 'r1' },
      { contentOffset: 5, content: ' world', reasoningOffset: 2, reasoning: '' },
    ]);
  });

  it('sends nothing for empty deltas and nothing after cancel', async () => {
    const clock = new FakeClock();
    const sent: AnswerDelta[] = [];
    const batcher = new DeltaBatcher((delta) => sent.push(delta), 16, undefined, clock);
    batcher.push('', '');
    assert.equal(clock.pending(), 0);
    batcher.push('x', '');
    batcher.cancel();
    assert.equal(clock.pending(), 0, 'cancel disarms the timer');
    await clock.advance(16);
    batcher.flush();
    assert.deepEqual(sent, []);
  });

  it('applies deltas idempotently and detects gaps', () => {
    assert.equal(applyDelta('Hello', 5, ' world'), 'Hello world');
    assert.equal(applyDelta('Hello world', 5, ' world'), 'Hello world', 'already applied');
    assert.equal(applyDelta('Hello wo', 5, ' world'), 'Hello world', 'overlapping');
    assert.equal(applyDelta('Hel', 5, ' world'), undefined, 'gap');
  });

  it('rebuilds exactly the sent text from any batching of the same deltas', async () => {
    const words = 'The quick brown fox jumps over the lazy dog, again and again.'.split(/(?= )/);
    for (let flushEvery = 1; flushEvery <= words.length; flushEvery++) {
      const clock = new FakeClock();
      let received = '';
      const batcher = new DeltaBatcher((delta) => {
        received = applyDelta(received, delta.contentOffset, delta.content)!;
      }, 16, undefined, clock);
      for (const [index, word] of words.entries()) {
        batcher.push(word, '');
        if ((index + 1) % flushEvery === 0) await clock.advance(16);
      }
      batcher.flush();
      assert.equal(received, words.join(''));
    }
  });
});
