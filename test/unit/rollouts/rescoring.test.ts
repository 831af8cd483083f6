import * as assert from 'node:assert/strict';
import { memorySource } from '../../../src/rollouts/model/fileSource';
import { ParquetGroupFile, parquetSourceOf } from '../../../src/rollouts/model/parquetGroupFile';
import { referenceKeys, rescoreFile, type AnswerToScore } from '../../../src/rollouts/model/rescoring';
import { TextGroupFile } from '../../../src/rollouts/model/textGroupFile';
import { scoreBuiltin } from '../../../src/platform/scoring/builtinScorers';
import type { RegexMatcher } from '../../../src/platform/scoring/regexMatcher';
import { artParquetBytes } from '../../support/artParquet';
import { choice, group, trajectory } from './rolloutFixtures';

/** Exact match runs no regular expression. */
const noRegex = {} as RegexMatcher;
const exactMatch = (item: AnswerToScore) => scoreBuiltin({ kind: 'exactMatch' }, item, item.answer, noRegex);

/** A trajectory answering `answer` with the old reward `reward`, its reference in its metadata. */
function answered(answer: string, reward: number, reference = '4') {
  return { ...trajectory(reward, choice(answer)), metadata: { scenario: 'arith', answer: reference } };
}

/**
 * Three groups with known outcomes under exact match against metadata.answer:
 * 1. old rewards all 0.5 (no signal), new [1, 0, 1, 0]: gains signal;
 * 2. old [1, 0], new [1, 0]: agrees;
 * 3. old [1, 0], new [0, 0] (neither answer is "4"): loses signal.
 */
const groups = [
  group([answered('4', 0.5), answered('five', 0.5), answered(' 4 ', 0.5), answered('3', 0.5)]),
  group([answered('4', 1), answered('22', 0)]),
  group([answered('four', 1), answered('5', 0)]),
];

function checkComparison(result: Awaited<ReturnType<typeof rescoreFile>>): void {
  assert.equal(result.totals.groups, 3);
  assert.equal(result.totals.trajectories, 8);
  assert.equal(result.totals.compared, 8);
  assert.equal(result.totals.gainedSignal, 1);
  assert.equal(result.totals.lostSignal, 1);
  assert.equal(result.totals.signalBefore, 2);
  assert.equal(result.totals.signalAfter, 2);
  assert.equal(result.unreadable, 0);
  // The groups that disagree most first: the gain of group 1 and the loss of group 3 move by 1 a trajectory, group 2 by 0.
  assert.deepEqual(
    result.groups.map((compared) => compared.index),
    [0, 2, 1],
  );
  assert.deepEqual(
    result.groups[0]!.kept.map((kept) => [kept.answer, kept.before, kept.after]),
    [
      ['4', 0.5, 1],
      ['five', 0.5, 0],
      [' 4 ', 0.5, 1],
      ['3', 0.5, 0],
    ],
  );
}

describe('re-scoring a trajectory file', () => {
  it('scores each final answer of a .jsonl file against its reference and compares it with the old reward', async () => {
    const bytes = new TextEncoder().encode(`${groups.map((value) => JSON.stringify(value)).join('\n')}\n`);
    const file = new TextGroupFile(
      memorySource(() => bytes),
      'jsonl',
    );
    assert.deepEqual((await referenceKeys(file)).slice(0, 2), ['answer', 'step']);
    checkComparison(await rescoreFile(file, { referenceKey: 'answer', score: exactMatch }));
  });

  it('reads the same groups from the official client’s Parquet log', async () => {
    const bytes = await artParquetBytes(groups);
    const file = new ParquetGroupFile(parquetSourceOf(memorySource(() => bytes)));
    assert.ok((await referenceKeys(file)).includes('answer'));
    checkComparison(await rescoreFile(file, { referenceKey: 'answer', score: exactMatch }));
  });

  it('says why an answer got no new score when the file has no reference under the key', async () => {
    const bytes = new TextEncoder().encode(`${JSON.stringify(groups[1])}\n`);
    const result = await rescoreFile(
      new TextGroupFile(
        memorySource(() => bytes),
        'jsonl',
      ),
      { referenceKey: 'expected', score: exactMatch },
    );
    assert.equal(result.totals.notScored, 2);
    assert.deepEqual(result.totals.scoreErrors, [{ message: 'the sample has no reference to compare with', count: 2 }]);
  });

  it('stops at the bound of scored answers and says so', async () => {
    const bytes = new TextEncoder().encode(`${groups.map((value) => JSON.stringify(value)).join('\n')}\n`);
    const result = await rescoreFile(
      new TextGroupFile(
        memorySource(() => bytes),
        'jsonl',
      ),
      { referenceKey: 'answer', score: exactMatch, maxTrajectories: 6 },
    );
    assert.equal(result.totals.trajectories, 6);
    assert.match(result.stoppedEarly ?? '', /first 6 trajectories/);
  });

  it('stops when cancelled', async () => {
    const bytes = new TextEncoder().encode(`${groups.map((value) => JSON.stringify(value)).join('\n')}\n`);
    const abort = new AbortController();
    abort.abort();
    await assert.rejects(
      rescoreFile(
        new TextGroupFile(
          memorySource(() => bytes),
          'jsonl',
        ),
        { referenceKey: 'answer', score: exactMatch, signal: abort.signal },
      ),
    );
  });
});
