import * as assert from 'node:assert/strict';
import { PlatformError } from '../../../src/platform/client/errors';
import type { ChatCompletionRequest } from '../../../src/platform/client/types';
import type { EvalModelRef } from '../../../src/evals/model/evalModel';
import type { NamedScorer } from '../../../src/platform/scoring/scorerSpec';
import { EvalRun, type EvalRunDependencies } from '../../../src/evals/model/evalRun';
import { RegexMatcher } from '../../../src/platform/scoring/regexMatcher';
import { parseRunFile } from '../../../src/evals/model/resultsFile';
import { checkpoint, parameters, sample } from './evalFixtures';

const scorers: NamedScorer[] = [{ name: 'exact', spec: { kind: 'exactMatch' } }];
const samples = [sample('a', 'What is 1 + 1?', '2'), sample('b', 'What is 2 + 2?', '4'), sample('c', 'What is 3 + 3?', '6')];

describe('an evaluation run', () => {
  const regex = new RegexMatcher(1_000);
  after(() => regex.dispose());

  /** A platform whose step-20 checkpoint is always right and the others never; `fail` names requests that fail. */
  function platform(fail: (model: EvalModelRef, request: ChatCompletionRequest) => boolean = () => false) {
    const requests: ChatCompletionRequest[] = [];
    const saved: string[] = [];
    const deps: EvalRunDependencies = {
      complete: async (model, request) => {
        requests.push(request);
        if (fail(model, request)) throw new PlatformError({ kind: 'http', status: 400, method: 'POST', path: '/v1/chat/completions', api: 'training', message: 'Bad request (400)' });
        const asked = /(\d+) \+ (\d+)/.exec(request.messages.at(-1)!.content)!;
        const right = Number(asked[1]) + Number(asked[2]);
        return { text: String(model.step === 20 ? right : right + 1), finishReason: 'stop' };
      },
      scoring: { regex, complete: async () => 'Score: 10', command: { cwd: '.', trusted: false, allowed: new Set<string>() } },
      save: async (text) => {
        saved.push(text);
      },
      describeFailure: (error) => (error instanceof Error ? error.message : String(error)),
    };
    return { deps, requests, saved };
  }

  it('asks every sample of every model n times, scores the answers and writes the results file', async () => {
    const { deps, requests, saved } = platform();
    const models = [checkpoint(10), checkpoint(20)];
    const run = await new EvalRun({ samples, models, parameters, scorers, setPath: 'arith.evalset.jsonl' }, deps).start();
    assert.equal(requests.length, samples.length * models.length * parameters.n);
    assert.equal(run.answers.length, requests.length);
    const scoreOf = (step: number) => run.answers.filter((answer) => answer.model === checkpoint(step).id).map((answer) => answer.scores.exact);
    assert.ok(scoreOf(20).every((score) => score === 1));
    assert.ok(scoreOf(10).every((score) => score === 0));
    const written = parseRunFile(saved.at(-1)!);
    assert.ok(written.ok);
    assert.equal(written.run.answers.length, run.answers.length);
  });

  it('asks nothing again with everything in the file, and only the new model when one is added', async () => {
    const first = platform();
    const existing = await new EvalRun({ samples, models: [checkpoint(10)], parameters, scorers, setPath: 'set' }, first.deps).start();
    const again = platform();
    await new EvalRun({ samples, models: [checkpoint(10)], parameters, scorers, setPath: 'set', existing }, again.deps).start();
    assert.equal(again.requests.length, 0);
    const more = platform();
    const run = await new EvalRun({ samples, models: [checkpoint(10), checkpoint(20)], parameters, scorers, setPath: 'set', existing }, more.deps).start();
    assert.equal(more.requests.length, samples.length * parameters.n);
    assert.equal(run.answers.length, 2 * samples.length * parameters.n);
  });

  it('keeps a failed answer with its reason, and asks it again only when retried', async () => {
    const failing = platform((_, request) => request.messages.at(-1)!.content.includes('2 + 2'));
    const existing = await new EvalRun({ samples, models: [checkpoint(20)], parameters, scorers, setPath: 'set' }, failing.deps).start();
    const failed = existing.answers.filter((answer) => answer.error !== undefined);
    assert.equal(failed.length, parameters.n);
    assert.match(failed[0]!.error!, /Bad request/);
    const plain = platform();
    await new EvalRun({ samples, models: [checkpoint(20)], parameters, scorers, setPath: 'set', existing }, plain.deps).start();
    assert.equal(plain.requests.length, 0, 'a failure is not asked again unless retried');
    const retried = platform();
    const run = await new EvalRun({ samples, models: [checkpoint(20)], parameters, scorers, setPath: 'set', existing, retryFailed: true }, retried.deps).start();
    assert.equal(retried.requests.length, parameters.n);
    assert.ok(run.answers.every((answer) => answer.error === undefined && answer.scores.exact === 1));
  });
});
