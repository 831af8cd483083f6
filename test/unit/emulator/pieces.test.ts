import assert from 'node:assert/strict';
import fc from 'fast-check';
import { CheckpointList } from '../../emulator/checkpointList';
import { generateCompletion, content } from '../../emulator/completions';
import { Prng } from '../../emulator/prng';
import { countTokens, tokenize } from '../../emulator/tokenizer';

describe('emulator: tokenizer', () => {
  it('gives back any text when its tokens are joined', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }), (text) => tokenize(text).join('') === text));
  });

  it('counts words and punctuation, carrying the whitespace before them', () => {
    assert.deepEqual(tokenize('Hello, world!\n\n- item'), ['Hello', ',', ' world', '!', '\n\n-', ' item']);
    assert.equal(countTokens(''), 0);
    assert.equal(countTokens('  '), 1);
  });
});

describe('emulator: completions', () => {
  it('never exceeds max_tokens and counts what it returns', () => {
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: 0, max: 80 }), (prompt, maxTokens) => {
        const completion = generateCompletion({ model: 'm-reason', messages: [{ role: 'user', content: prompt }], maxTokens });
        assert.equal(countTokens(content(completion)), completion.contentTokens.length);
        return completion.reasoningTokens.length + completion.contentTokens.length <= maxTokens;
      }),
    );
  });

  it('takes the prompt from the last user message, including text parts', () => {
    const fromParts = generateCompletion({
      model: 'm',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: '/echo from ' },
            { type: 'text', text: 'parts' },
          ],
        },
      ],
    });
    assert.equal(content(fromParts), 'from parts');
    const lastUser = generateCompletion({
      model: 'm',
      messages: [
        { role: 'user', content: '/echo one' },
        { role: 'assistant', content: 'x' },
        { role: 'user', content: '/echo two' },
      ],
    });
    assert.equal(content(lastUser), 'two');
  });
});

describe('emulator: checkpoint list', () => {
  const list = (steps: number[]) => {
    const random = new Prng(1);
    const checkpoints = new CheckpointList();
    for (const step of steps) checkpoints.add({ id: random.uuid(), step, metrics: {} });
    return checkpoints;
  };

  it('keeps steps sorted whatever the insertion order, and pages from any cursor', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 500 }), { maxLength: 60 }), fc.integer({ min: 1, max: 7 }), (steps, limit) => {
        const checkpoints = list(steps);
        const sorted = [...steps].sort((a, b) => a - b);
        for (const order of ['asc', 'desc'] as const) {
          const seen: number[] = [];
          let after: string | undefined;
          for (;;) {
            const page = checkpoints.page(after, limit, order)!;
            seen.push(...page.data.map((checkpoint) => checkpoint.step));
            if (!page.has_more) break;
            after = page.last_id;
          }
          assert.deepEqual(seen, order === 'asc' ? sorted : [...sorted].reverse());
        }
      }),
    );
  });

  it('replaces a checkpoint saved again at the same step', () => {
    const checkpoints = list([0, 1, 2]);
    checkpoints.add({ id: 'again', step: 1, metrics: { loss: 1 } });
    assert.equal(checkpoints.size, 3);
    assert.equal(checkpoints.byStep(1)!.id, 'again');
    assert.equal(checkpoints.page('again', 5, 'asc')!.data[0]!.step, 2);
  });

  it('forgets deleted ids as cursors', () => {
    const checkpoints = list([0, 1, 2, 3]);
    const gone = checkpoints.byStep(2)!.id;
    assert.deepEqual(checkpoints.deleteSteps([2, 7]), { deletedCount: 1, notFoundSteps: [7] });
    assert.equal(checkpoints.page(gone, 5, 'asc'), undefined);
    assert.deepEqual(
      checkpoints.page(checkpoints.byStep(1)!.id, 5, 'asc')!.data.map((checkpoint) => checkpoint.step),
      [3],
    );
  });
});
