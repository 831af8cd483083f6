import * as assert from 'node:assert/strict';
import type { TrajectoryGroup } from '../../../src/platform/client/types';
import { parseRunState, serializeRunState, type RunState } from '../../../src/taskRuns/model/runState';
import { parseTaskFile, type Task } from '../../../src/taskRuns/model/taskFile';
import { BudgetSpent, planTask, promptsOfStep, RunBudget } from '../../../src/taskRuns/model/taskPlan';
import { TaskLoop, type LoopDependencies, type LoopPrompt } from '../../../src/taskRuns/model/taskLoop';
import { buildGroup, hasNoSignal } from '../../../src/taskRuns/model/trajectoryGroups';
import { buildRelativeJudgeRequest, parseRelativeScores } from '../../../src/taskRuns/model/relativeJudge';

const taskText = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    model: 'e/p/m',
    prompts: 'p.evalset.jsonl',
    heldOut: 'h.evalset.jsonl',
    reward: { kind: 'exactMatch' },
    groupSize: 4,
    promptsPerStep: 3,
    steps: 3,
    budget: { requests: 1000, tokens: 1_000_000 },
    ...extra,
  });
const prompts: LoopPrompt[] = Array.from({ length: 5 }, (_, index) => ({ id: `p${index}`, messages: [{ role: 'user', content: `What is ${index} + 1?` }], reference: String(index + 1) }));

/** A platform in memory: answers right more often as the checkpoint grows; jobs add one checkpoint. */
function fakePlatform(options: { failJob?: number; stopAfterPrompts?: { count: number; stop: AbortController } } = {}) {
  const files = new Map<number, string>();
  let checkpoint = 0;
  let state: RunState | undefined;
  const asked: string[] = [];
  const jobs: TrajectoryGroup[][] = [];
  const deps: LoopDependencies = {
    sample: async (prompt) => {
      asked.push(prompt.id);
      if (options.stopAfterPrompts && asked.length === options.stopAfterPrompts.count) options.stopAfterPrompts.stop.abort();
      const right = Number(prompt.reference);
      return { answers: Array.from({ length: 4 }, (_, draw) => ({ text: draw <= checkpoint ? String(right) : 'no idea', finishReason: 'stop' })), sampledFromStep: checkpoint };
    },
    reward: async (prompt, answers) => answers.map((answer) => (answer === prompt.reference ? 1 : 0)),
    startJob: async (groups) => {
      jobs.push(groups);
      return `job-${jobs.length}`;
    },
    followJob: async () => {
      if (options.failJob === jobs.length) return { ok: false, message: 'CUDA out of memory' };
      checkpoint++;
      return { ok: true };
    },
    latestCheckpointStep: async () => checkpoint,
    evaluateHeldOut: async (step, checkpointStep) => ({ step, checkpointStep, mean: 0.2 + 0.2 * checkpointStep, low: 0.1, high: 0.9, scored: 10 }),
    readStepFile: async (index) => files.get(index),
    appendToStepFile: async (index, text) => void files.set(index, (files.get(index) ?? '') + text),
    writeState: async (written) => {
      // What is written must read back as it was.
      const read = parseRunState(serializeRunState(written));
      assert.ok(read.ok, read.ok ? '' : read.problem);
      state = read.state;
    },
    now: () => Date.parse('2026-11-28T12:00:00Z'),
    log: () => undefined,
  };
  return { deps, files, asked, jobs, state: () => state };
}

function task(extra: Record<string, unknown> = {}): Task {
  const parsed = parseTaskFile(taskText(extra), 'arith');
  assert.ok(parsed.task, JSON.stringify(parsed.problems));
  return parsed.task;
}

describe('training from a task file: the loop', () => {
  it('runs every step: samples, rewards, writes, trains on groups with a signal, evaluates the held-out set before and after each step', async () => {
    const platform = fakePlatform();
    const loop = new TaskLoop(task(), prompts, new RunBudget({ requests: 1000, tokens: 1_000_000 }), platform.deps, { taskPath: 'arith.rltask.json', modelId: 'id', modelName: 'm' });
    const state = await loop.run(new AbortController().signal);
    assert.equal(state.status, 'finished');
    assert.deepEqual(
      state.steps.map((step) => [step.phase, step.groups, step.jobId, step.checkpointStep]),
      [
        ['trained', 3, 'job-1', 1],
        ['trained', 3, 'job-2', 2],
        ['trained', 3, 'job-3', 3],
      ],
    );
    assert.deepEqual(
      state.heldOut.map((point) => [point.step, point.checkpointStep]),
      [
        [0, 0],
        [1, 1],
        [2, 2],
        [3, 3],
      ],
    );
    assert.ok(state.heldOut.at(-1)!.mean > state.heldOut[0]!.mean, 'the held-out score rises');
    assert.deepEqual(platform.asked, ['p0', 'p1', 'p2', 'p3', 'p4', 'p0', 'p1', 'p2', 'p3'], 'the prompts go round the set');
    assert.equal(platform.files.get(1)!.trim().split('\n').length, 3);
    assert.ok(state.steps[1]!.reward!.mean > state.steps[0]!.reward!.mean);
    assert.equal(state.spent.requests, 0, 'the fake platform spends nothing through the budget');
  });

  it('stops between prompts and resumes from the files: no prompt asked twice, no job sent twice', async () => {
    const stop = new AbortController();
    const platform = fakePlatform({ stopAfterPrompts: { count: 5, stop } });
    const first = new TaskLoop(task({ concurrency: 1 }), prompts, new RunBudget({ requests: 1000, tokens: 1_000_000 }), platform.deps, { taskPath: 't', modelId: 'id', modelName: 'm' });
    const stopped = await first.run(stop.signal);
    assert.equal(stopped.status, 'stopped');
    const asked = [...platform.asked];
    const jobsBefore = platform.jobs.length;
    const second = new TaskLoop(task({ concurrency: 1 }), prompts, new RunBudget({ requests: 1000, tokens: 1_000_000 }), platform.deps, {
      taskPath: 't',
      modelId: 'id',
      modelName: 'm',
      existing: platform.state()!,
    });
    const resumed = await second.run(new AbortController().signal);
    assert.equal(resumed.status, 'finished');
    const written = [...platform.files.values()].join('').trim().split('\n');
    assert.equal(written.length, 9, 'three groups a step, each written once');
    assert.equal(platform.jobs.length, 3, `three jobs in all (${jobsBefore} before the stop)`);
    // Four groups were written before the stop; the prompt in flight then was dropped unwritten, so it is the one asked again.
    assert.equal(asked.length, 5);
    assert.deepEqual(platform.asked.slice(asked.length), ['p4', 'p0', 'p1', 'p2', 'p3']);
  });

  it('stops at a failed job with its step and message, and leaves what was done on disk', async () => {
    const platform = fakePlatform({ failJob: 2 });
    const state = await new TaskLoop(task(), prompts, new RunBudget({ requests: 1000, tokens: 1_000_000 }), platform.deps, { taskPath: 't', modelId: 'id', modelName: 'm' }).run(
      new AbortController().signal,
    );
    assert.equal(state.status, 'failed');
    assert.deepEqual(state.failure, { step: 2, message: 'its training job job-2 failed: CUDA out of memory' });
    assert.equal(state.steps[0]!.phase, 'trained');
    assert.equal(platform.files.size, 2);
  });

  it('leaves out groups whose answers all got the same reward, and skips a step with nothing to train on', () => {
    assert.equal(hasNoSignal([1, 1, 1]), true);
    assert.equal(hasNoSignal([1, 0]), false);
    const group = buildGroup('p0', [{ role: 'user', content: 'q' }], [{ text: 'a', finishReason: 'stop', logprobs: { content: [] } }], [1], 3);
    assert.equal(group.metadata?.rlstudio_no_signal, true);
    assert.deepEqual(group.trajectories[0]!.messages_and_choices.at(-1), { index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'a' }, logprobs: { content: [] } });
  });

  it('plans what a run spends at most, and holds it to its budget', () => {
    const plan = planTask(task({ reward: { kind: 'relativeJudge', model: 'judge', rubric: 'right' } }), 10);
    assert.deepEqual([plan.samplingRequests, plan.rewardRequests, plan.heldOutEvaluations, plan.heldOutRequests, plan.requests], [9, 9, 4, 80, 98]);
    assert.equal(plan.completionTokens, 36 * 512 + 9 * 2048 + 4 * 10 * (512 + 1024));
    assert.deepEqual(promptsOfStep(2, 3, 5), [3, 4, 0]);
    assert.deepEqual(promptsOfStep(1, 10, 4), [0, 1, 2, 3]);
    const budget = new RunBudget({ requests: 2, tokens: 100 });
    budget.take();
    budget.used({ promptTokens: 60, completionTokens: 50 });
    assert.throws(() => budget.take(), BudgetSpent);
    const requests = new RunBudget({ requests: 1, tokens: 100 });
    requests.take();
    assert.throws(() => requests.take(), /1 requests is spent/);
  });

  it('reads a relative judge strictly: every answer scored once, from 0 to 1', () => {
    const request = buildRelativeJudgeRequest({ model: 'judge', rubric: 'correct' }, [{ role: 'user', content: '2+2?' }], ['4', 'five']);
    assert.match(String(request.messages[1]!.content), /# Answer 1\n4\n\n# Answer 2\nfive/);
    assert.deepEqual(parseRelativeScores('Here: ```json\n{"scores": [{"answer": 2, "explanation": "wrong", "score": 0.1}, {"answer": 1, "score": 0.9}]}\n```', 2), { scores: [0.9, 0.1] });
    assert.deepEqual(parseRelativeScores('{"scores": [{"trajectory_id": "1", "score": 1}, {"trajectory_id": "2", "score": 0}]}', 2), { scores: [1, 0] });
    assert.match(JSON.stringify(parseRelativeScores('{"scores": [{"answer": 1, "score": 0.5}]}', 2)), /no score to answer 2/);
    assert.match(JSON.stringify(parseRelativeScores('{"scores": [{"answer": 1, "score": 5}, {"answer": 2, "score": 0}]}', 2)), /not a number from 0 to 1/);
    assert.match(JSON.stringify(parseRelativeScores('no json', 2)), /no JSON object/);
  });

  it('reads a task file, placing its problems', () => {
    assert.deepEqual(
      parseTaskFile(JSON.stringify({ model: 'm', prompts: 'p', reward: { kind: 'nope' }, steps: 0, sampling: { temperature: 3 }, extra: 1 }), 'x').problems.map((problem) => problem.path),
      ['extra', 'model', 'reward', 'steps', 'sampling.temperature', 'budget'],
    );
    const ok = parseTaskFile(taskText({ name: 'my run' }), 'x');
    assert.equal(ok.task, undefined);
    assert.match(ok.problems[0]!.message, /names a folder/);
    assert.equal(parseTaskFile('{', 'x').problems[0]!.path, '');
    assert.equal(task().name, 'arith', 'named by its file');
  });
});
