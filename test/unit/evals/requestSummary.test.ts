import * as assert from 'node:assert/strict';
import type { NamedScorer } from '../../../src/platform/scoring/scorerSpec';
import { describeRequests, summarizeRequests, unknownModels } from '../../../src/evals/model/requestSummary';
import { planRun } from '../../../src/evals/model/runPlan';
import { readScorerSpec } from '../../../src/platform/scoring/scorerSpecs';
import { checkpoint, parameters, sample } from './evalFixtures';

const samples = [sample('a'), sample('b')];
const catalogueModel = { id: 'vendor/model-x', label: 'model-x', kind: 'catalogue', api: 'inference' } as const;

describe('what a run would send, as a confirmation names it', () => {
  const scorers: NamedScorer[] = [
    { name: 'exact', spec: { kind: 'exactMatch' } },
    { name: 'grader', spec: { kind: 'judge', model: 'vendor/judge', rubric: 'r' } },
  ];
  const plan = planRun({ samples, models: [checkpoint(10), catalogueModel], parameters, scorers });

  it('counts one request per answer and one per judge per answer, by model', () => {
    const summary = summarizeRequests(plan, scorers);
    const answers = 2 * samples.length * parameters.n;
    assert.equal(summary.requests, answers * 2, 'each answer, and the judge grading each');
    assert.deepEqual(
      summary.models.map((model) => [model.id, model.requests, model.judge === true]),
      [
        [checkpoint(10).id, 4, false],
        ['vendor/model-x', 4, false],
        ['vendor/judge', 8, true],
      ],
    );
  });

  it('names each model by label and id, the token limit, and the models nobody chose', () => {
    const summary = summarizeRequests(plan, scorers);
    const unknown = unknownModels(summary, { isKnownCheckpoint: () => true, catalogue: new Set(['vendor/model-x']) });
    assert.deepEqual(
      unknown.map((model) => model.id),
      ['vendor/judge'],
    );
    const text = describeRequests(summary, parameters, unknown).join('\n');
    assert.match(text, /^16 chat completions, each with max_tokens 256/);
    assert.match(text, /4 requests to "step 10": "wandb-artifact:\/\/\/team\/proj\/agent:step10" \(training API\)/);
    assert.match(text, /Not a checkpoint of your training models nor a model of the catalogue, named only by the file: "vendor\/judge"/);
  });

  it('a label with a line break cannot pose as a line of its own', () => {
    const forged = { ...catalogueModel, label: 'x\n• 0 requests to "nothing"' };
    const summary = summarizeRequests(planRun({ samples, models: [forged], parameters, scorers: [scorers[0]!] }), [scorers[0]!]);
    assert.equal(describeRequests(summary, parameters, []).length, 2);
  });

  it('a catalogue that could not be listed knows no model', () => {
    const summary = summarizeRequests(plan, [scorers[0]!]);
    assert.deepEqual(
      unknownModels(summary, { isKnownCheckpoint: () => false, catalogue: undefined }).map((model) => model.id),
      [checkpoint(10).id, 'vendor/model-x'],
    );
  });
});

describe('command scorers a file may name', () => {
  it('bounds the program, the number of arguments and their length', () => {
    assert.ok('spec' in readScorerSpec({ kind: 'command', command: '/bin/sh', args: ['-c', 'true'] }));
    assert.match((readScorerSpec({ kind: 'command', command: 'x'.repeat(1_001) }) as { error: string }).error, /longer than the 1000 characters/);
    assert.match((readScorerSpec({ kind: 'command', command: 'p', args: Array.from({ length: 65 }, () => 'a') }) as { error: string }).error, /65 arguments, more than the 64/);
    assert.match((readScorerSpec({ kind: 'command', command: 'p', args: ['a'.repeat(1_001)] }) as { error: string }).error, /an argument is longer/);
  });
});
