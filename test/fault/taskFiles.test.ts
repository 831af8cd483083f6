import * as assert from 'node:assert/strict';
import { parseRunState, serializeRunState, maxRunSteps, type RunState } from '../../src/taskRuns/model/runState';
import { parseTaskFile } from '../../src/taskRuns/model/taskFile';
import { parseRelativeScores } from '../../src/taskRuns/model/relativeJudge';
import { readWrittenGroup } from '../../src/taskRuns/model/trajectoryGroups';

describe('hostile task files, run files and judges', () => {
  it('reads a task file nested 100,000 deep, or with a million keys, as a problem in bounded time', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    assert.equal(parseTaskFile(deep, 'x').task, undefined);
    const wide = `{${Array.from({ length: 1_000_000 }, (_, index) => `"k${index}":1`).join(',')}}`;
    const started = Date.now();
    const read = parseTaskFile(wide, 'x');
    assert.equal(read.task, undefined);
    assert.ok(Date.now() - started < 10_000, 'checked in bounded time');
  });

  it('refuses a run file that claims more steps than a run may have, or numbers them out of order', () => {
    const base: RunState = {
      kind: 'rl-studio-task-run',
      version: 1,
      name: 'r',
      task: 't',
      modelId: 'm',
      modelName: 'm',
      status: 'running',
      plannedSteps: 1,
      budget: { requests: 1, tokens: 1 },
      spent: { requests: 0, promptTokens: 0, completionTokens: 0 },
      steps: [],
      heldOut: [],
      startedAt: 'now',
      updatedAt: 'now',
    };
    const step = { index: 1, phase: 'trained', file: 'step-0001.trajectories.jsonl', groups: 1, noSignalGroups: 0, leftOut: 0, spent: base.spent, startedAt: 'now' };
    const many = { ...base, steps: Array.from({ length: maxRunSteps + 1 }, (_, index) => ({ ...step, index: index + 1 })) };
    assert.match(JSON.stringify(parseRunState(JSON.stringify(many))), /at most 10000/);
    assert.match(JSON.stringify(parseRunState(JSON.stringify({ ...base, steps: [{ ...step, index: 2 }] }))), /numbered 2/);
    assert.match(JSON.stringify(parseRunState(JSON.stringify({ ...base, steps: [{ ...step, file: '../../etc/passwd' }] }))), /trajectory file in the run folder/);
    assert.ok(parseRunState(serializeRunState(base)).ok);
  });

  it("takes a judge's reply that scores answers never given, or a hundred thousand of them, as no scores", () => {
    const many = JSON.stringify({ scores: Array.from({ length: 100_000 }, (_, index) => ({ answer: (index % 2) + 1, score: 0.5 })) });
    assert.match(JSON.stringify(parseRelativeScores(many, 2)), /twice/);
    assert.match(JSON.stringify(parseRelativeScores('{"scores": [{"answer": 9, "score": 1}]}', 2)), /not given/);
  });

  it('reads a garbage or foreign step file line as no group', () => {
    assert.equal(readWrittenGroup('not json'), undefined);
    assert.equal(readWrittenGroup('{"trajectories": []}'), undefined);
    assert.equal(readWrittenGroup('{"metadata": {"rlstudio_prompt": "p"}, "trajectories": "x"}'), undefined);
  });
});
