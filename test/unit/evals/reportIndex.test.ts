/** The report's reading of a run: cells, spreads, filters, failures and answers merged as they come. */
import assert from 'node:assert/strict';
import { evalLimits, type AnswerRecord } from '../../../src/evals/model/evalModel';
import { ReportIndex, noFilter } from '../../../src/evals/page/reportIndex';
import { parseSamples } from '../../../src/evals/page/samples';
import { parseViewState } from '../../../src/evals/page/viewState';
import { fixtureRun } from './reportFixtures';

function indexOf(run = fixtureRun({ samples: 40, steps: [100, 200], base: true, failEvery: 11 })): ReportIndex {
  return new ReportIndex(run.snapshot.run, run.snapshot.samples, run.snapshot.primaryScorer);
}

describe('evaluation report index', () => {
  it('holds each cell as the mean primary score of its draws, and each sample spread as highest minus lowest', () => {
    const run = fixtureRun({ samples: 12, steps: [100, 200], draws: 3 });
    const index = indexOf(run);
    for (let sample = 0; sample < 12; sample++) {
      const means = run.models.map((model) => {
        const scores = run.snapshot.run.answers.filter((answer) => answer.model === model.id && answer.sample === `s${sample}`).map((answer) => answer.scores.exact as number);
        return scores.reduce((sum, value) => sum + value, 0) / scores.length;
      });
      means.forEach((mean, model) => assert.equal(index.cell(sample, model)!.mean, mean));
      assert.equal(index.spread(sample), Math.max(...means) - Math.min(...means));
    }
  });

  it('filters by disagreement, failures and prompt text, and orders by spread with ties in set order', () => {
    const index = indexOf();
    const all = [...index.rows(noFilter, 'sample')];
    assert.deepEqual(
      all,
      Array.from({ length: 40 }, (_, at) => at),
    );
    const disagree = [...index.rows({ ...noFilter, disagree: true }, 'sample')];
    assert.ok(disagree.length > 0 && disagree.length < 40);
    assert.ok(disagree.every((sample) => index.spread(sample) >= 0.5));
    const failures = [...index.rows({ ...noFilter, failures: true }, 'sample')];
    assert.ok(failures.length > 0 && failures.every((sample) => index.hasFailure(sample)));
    assert.deepEqual([...index.rows({ ...noFilter, text: '  QUESTION 7: ' }, 'sample')], [6]);
    const bySpread = [...index.rows(noFilter, 'spread')];
    for (let at = 1; at < bySpread.length; at++) {
      const [a, b] = [index.spread(bySpread[at - 1]!), index.spread(bySpread[at]!)];
      assert.ok(a > b || (a === b && bySpread[at - 1]! < bySpread[at]!) || Number.isNaN(b), `${a} then ${b}`);
    }
  });

  it('lists every failure, and a retried answer that comes back scored replaces its failure', () => {
    const run = fixtureRun({ samples: 40, steps: [100, 200], base: true, failEvery: 11 });
    const index = indexOf(run);
    const failures = index.failures();
    const failedAnswers = run.snapshot.run.answers.filter((answer) => answer.error !== undefined);
    assert.ok(failedAnswers.every((answer) => failures.some((failure) => failure.answer.key === answer.key)));
    const target = failedAnswers[0]!;
    const version = index.version;
    index.merge([{ ...target, error: undefined, text: 'fine', scores: { exact: 1 } } as AnswerRecord]);
    assert.ok(index.version > version);
    assert.ok(!index.failures().some((failure) => failure.answer.key === target.key));
    assert.equal(index.answer(target.key)!.text, 'fine');
  });

  it('ignores answers of unknown models or impossible draws, and stops adding samples at the limit', () => {
    const index = indexOf(fixtureRun({ samples: 2, steps: [100] }));
    const model = index.models[0]!.id;
    index.merge([
      { model: 'nobody', sample: 's0', draw: 0, key: 'x1', scores: { exact: 1 } },
      { model, sample: 's0', draw: evalLimits.draws, key: 'x2', scores: { exact: 1 } },
      { model, sample: 's0', draw: -1, key: 'x3', scores: { exact: 1 } },
    ]);
    assert.equal(index.answer('x1') ?? index.answer('x2') ?? index.answer('x3'), undefined);
    const flood: AnswerRecord[] = Array.from({ length: evalLimits.samples + 50 }, (_, at) => ({ model, sample: `new${at}`, draw: 0, key: `n${at}`, scores: { exact: 0 } }));
    index.merge(flood);
    assert.equal(index.sampleCount, evalLimits.samples);
  });

  it('reads samples and the saved place defensively', () => {
    assert.deepEqual(parseSamples('nope'), []);
    const samples = parseSamples([
      { id: 'a', line: 3, messages: [{ role: 'user', content: 'hi' }, 'junk'], reference: 'yo' },
      { id: 'a' },
      { nothing: true },
      { id: 'b', messages: [{ role: 7, content: { x: 1 } }] },
    ]);
    assert.deepEqual(samples, [
      { id: 'a', line: 3, messages: [{ role: 'user', content: 'hi' }], reference: 'yo' },
      { id: 'b', line: 1, messages: [{ role: '', content: '' }] },
    ]);
    assert.equal(parseViewState(null), undefined);
    assert.deepEqual(parseViewState({ filter: { disagree: 'yes', failures: true, text: 5 }, sort: 'other', scrollTop: -3, selected: 's1', diff: false }), {
      filter: { disagree: false, failures: true, text: '' },
      sort: 'sample',
      scrollTop: 0,
      diff: false,
      selected: 's1',
    });
  });
});
