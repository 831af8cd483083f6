import assert from 'node:assert/strict';
import { applyDelta, DeltaBatcher, type AnswerDelta } from '../../../src/chat/model/deltaBatcher';
import { manualTimers } from './support';

/** An answer that grows as a stream appends to it, with a batcher posting from it. */
function streamedAnswer() {
  const timers = manualTimers();
  const answer = { content: '', reasoning: '' };
  const sent: AnswerDelta[] = [];
  const batcher = new DeltaBatcher(
    () => answer,
    (delta) => sent.push(delta),
    16,
    timers,
  );
  const append = (content: string, reasoning = '') => {
    answer.content += content;
    answer.reasoning += reasoning;
    batcher.changed();
  };
  return { timers, answer, sent, batcher, append };
}

describe('streamed text batching', () => {
  it('coalesces deltas into one message per interval, with offsets', () => {
    const { timers, sent, append } = streamedAnswer();
    append('Hel');
    append('lo', 'r1');
    assert.equal(timers.pending(), 1);
    timers.fire();
    append(' world');
    timers.fire();
    assert.deepEqual(sent, [
      { contentOffset: 0, content: 'Hello', reasoningOffset: 0, reasoning: 'r1' },
      { contentOffset: 5, content: ' world', reasoningOffset: 2, reasoning: '' },
    ]);
  });

  it('keeps no copy of the text: a flush posts what the answer holds at that moment', () => {
    const { timers, answer, sent, append } = streamedAnswer();
    append('first');
    // The answer's owner changes it before the timer fires; the post carries the text as it is then.
    answer.content += ' and more';
    timers.fire();
    assert.deepEqual(
      sent.map((delta) => delta.content),
      ['first and more'],
    );
  });

  it('sends nothing for empty deltas and nothing after cancel', () => {
    const { timers, sent, batcher, append } = streamedAnswer();
    batcher.flush();
    append('x');
    batcher.cancel();
    timers.fire();
    batcher.flush();
    append('y');
    assert.equal(timers.pending(), 0);
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
      const { timers, sent, batcher, append } = streamedAnswer();
      words.forEach((word, index) => {
        append(word);
        if ((index + 1) % flushEvery === 0) timers.fire();
      });
      batcher.flush();
      const received = sent.reduce((text, delta) => applyDelta(text, delta.contentOffset, delta.content)!, '');
      assert.equal(received, words.join(''));
    }
  });
});
