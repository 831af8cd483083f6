import * as assert from 'node:assert/strict';
import { canaryFileStem, maxNewPerLook, maxPins, newSteps, readPins } from '../../../../src/evals/model/canary/canaryPins';

const pin = (modelId: string, extra: Record<string, unknown> = {}) => ({
  modelId,
  modelName: 'm',
  setUri: 'file:///w/arith.evalset.jsonl',
  scorers: [{ name: 'exact match', spec: { kind: 'exactMatch' } }],
  seenStep: 3,
  ...extra,
});

describe('canary pins', () => {
  it('keeps only well-formed pins, one per model, at most the bound', () => {
    assert.deepEqual(readPins('nonsense'), []);
    const read = readPins([
      pin('e/p/a'),
      pin('e/p/a'),
      pin('e/p/b', { seenStep: 1.5 }),
      pin('e/p/c', { scorers: [] }),
      pin('e/p/d', { scorers: [{ name: 'run', spec: { kind: 'command', command: 'python' } }] }),
      null,
      pin('e/p/e', { setUri: 7 }),
      pin('e/p/f', { seenStep: -1 }),
      pin('e/p/g', { modelName: '' }),
    ]);
    assert.deepEqual(
      read.map((value) => value.modelId),
      ['e/p/a', 'e/p/f'],
    );
    assert.equal(readPins(Array.from({ length: 50 }, (_, index) => pin(`e/p/m${index}`))).length, maxPins);
  });

  it('evaluates the steps after the one seen, oldest first, the newest when many came at once', () => {
    assert.deepEqual(newSteps([5, 4, 3, 2], 3), { evaluate: [4, 5], skipped: [] });
    assert.deepEqual(newSteps([3], 3), { evaluate: [], skipped: [] });
    const many = newSteps([10, 9, 8, 7, 6, 9], 5);
    assert.equal(many.evaluate.length, maxNewPerLook);
    assert.deepEqual(many.evaluate, [8, 9, 10]);
    assert.deepEqual(many.skipped, [6, 7]);
  });

  it("names a canary's results by its model, with a file name's characters only", () => {
    assert.equal(canaryFileStem('agent-001'), 'canary-agent-001');
    assert.equal(canaryFileStem('emulator-entity/demo-project/agent-001'), 'canary-agent-001');
    assert.equal(canaryFileStem('e/p/../../etc passwd'), 'canary-etc-passwd');
  });
});
