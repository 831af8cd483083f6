import * as assert from 'node:assert/strict';
import { answerDigest } from '../../../src/evals/model/answerProvenance';
import { answerPage, answersPerPage } from '../../../src/evals/model/reportPaging';
import { serializeRunFile } from '../../../src/evals/model/resultsFile';
import { openRunFile } from '../../../src/evals/model/resultsFileLoader';
import { answer, checkpoint, run } from './evalFixtures';

describe('opening a results file for the report', () => {
  const models = [checkpoint(10), checkpoint(20)];
  const answers = models.flatMap((model) => Array.from({ length: 1_500 }, (_, at) => answer(model.id, `s${at}`, 0, { exact: at % 2 }, { text: `${'x'.repeat(3_000)}${at}` })));
  const bytes = new TextEncoder().encode(serializeRunFile(run(models, answers)));

  for (const [where, inlineBelowBytes] of [
    ['on a worker thread', 0],
    ["on the caller's thread", Number.MAX_SAFE_INTEGER],
  ] as const) {
    it(`serves the first screen, pages, one answer whole, the digests and every answer ${where}`, async () => {
      const opened = await openRunFile(bytes.slice(), { inlineBelowBytes });
      assert.ok(opened.ok);
      const { reader } = opened;
      try {
        assert.equal(reader.head.answerCount, answers.length);
        assert.equal(reader.head.run.answers.length, 0);
        assert.deepEqual(
          reader.head.leaderboard.map((row) => [row.model, row.scored]),
          models.map((model) => [model.id, 1_500]),
        );
        const page = await reader.page(answersPerPage, answersPerPage * 5, 100);
        assert.equal(page.length, answersPerPage, 'a page is never longer than answersPerPage');
        assert.equal(page[0]!.key, answers[answersPerPage]!.key);
        assert.equal(page[0]!.text!.length, 100);
        assert.equal((page[0] as { cut?: boolean }).cut, true);
        assert.equal((await reader.answer(answers[7]!.key))?.text, answers[7]!.text);
        assert.equal(await reader.answer('no such key'), null);
        assert.deepEqual(await reader.digests(), answers.map(answerDigest));
        const whole = await reader.whole();
        assert.deepEqual(
          whole.answers.map((one) => one.key),
          answers.map((one) => one.key),
        );
      } finally {
        reader.dispose();
      }
    });
  }

  it('refuses what is not a results file with the reason', async () => {
    const opened = await openRunFile(new TextEncoder().encode('{"kind":"something-else"}'), { inlineBelowBytes: 0 });
    assert.equal(opened.ok, false);
    assert.match((opened as { error: string }).error, /not an RL Studio evaluation/);
  });

  it('pages from any offset, clamped to the answers there are', () => {
    assert.equal(answerPage(answers, answers.length - 3, 10, 50).length, 3);
    assert.equal(answerPage(answers, answers.length + 5, 10, 50).length, 0);
    assert.equal(answerPage(answers, -4, 2, 50)[0]!.key, answers[0]!.key);
  });
});
