import * as assert from 'node:assert/strict';
import { PlatformError } from '../../../../src/platform/client/errors';
import type { ChatCompletionRequest } from '../../../../src/platform/client/types';
import type { NamedScorer } from '../../../../src/platform/scoring/scorerSpec';
import { RegexMatcher } from '../../../../src/platform/scoring/regexMatcher';
import { scoreWithAll, type ScoringContext } from '../../../../src/platform/scoring/scoring';
import { sample } from '../../evals/evalFixtures';

describe('scoring an answer', () => {
  const regex = new RegexMatcher(1_000);
  after(() => regex.dispose());
  const requests: ChatCompletionRequest[] = [];
  const context = (complete: ScoringContext['complete']): ScoringContext => ({ regex, complete, command: { cwd: '.', trusted: false, allowed: new Set<string>() }, seed: 3 });

  const scorers: NamedScorer[] = [
    { name: 'exact', spec: { kind: 'exactMatch' } },
    { name: 'judge', spec: { kind: 'judge', model: 'judge-model', rubric: 'Is it right?' } },
    { name: 'script', spec: { kind: 'command', command: 'score.py' } },
    { name: '__proto__', spec: { kind: 'contains', text: 'Par' } },
  ];

  it('gives each scorer its score or its reason, one failing never stopping the others', async () => {
    const scores = await scoreWithAll(
      scorers,
      sample('s', 'Capital?', 'Paris'),
      'Paris',
      context((request) => {
        requests.push(request);
        return Promise.resolve('Correct.\nScore: 8');
      }),
    );
    assert.deepEqual(Object.keys(scores), ['exact', 'judge', 'script', '__proto__']);
    assert.equal(scores.exact, 1);
    assert.equal(scores.judge, 0.8);
    assert.deepEqual(scores.script, { error: 'command scorers run only in trusted workspaces; trust this workspace to use it' });
    assert.equal(Object.getOwnPropertyDescriptor(scores, '__proto__')!.value, 1);
    assert.equal(requests[0]!.model, 'judge-model');
    assert.equal(requests[0]!.seed, 3);
  });

  it('a judge whose request fails gives the failure in words', async () => {
    const failure = new PlatformError({ kind: 'http', status: 404, message: 'HTTP 404: no such model', api: 'inference', method: 'POST', path: '/v1/chat/completions' });
    const scores = await scoreWithAll(
      scorers,
      sample('s', 'Capital?', 'Paris'),
      'Paris',
      context(() => Promise.reject(failure)),
      ['judge'],
    );
    assert.deepEqual(Object.keys(scores), ['judge']);
    assert.match((scores.judge as { error: string }).error, /^the judge did not answer: /);
  });
});
