import { appendFile, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import * as vscode from 'vscode';
import type { ChatCompletionRequest } from '../../platform/client/types';
import type { Services } from '../../platform/host/services';
import { checkpointModelId } from '../../platform/kit/checkpointIds';
import type { RememberedModel } from '../../platform/host/rememberedItems';
import { RegexMatcher } from '../../platform/scoring/regexMatcher';
import { scoreAnswer } from '../../platform/scoring/scoring';
import type { NamedScorer } from '../../platform/scoring/scorerSpec';
import { createEvalRun, existingResults, leaderboard, type EvalModelRef, type EvalSample } from '../../evals';
import { isTerminal, type RegisteredViews } from '../../training';
import { buildRelativeJudgeRequest, parseRelativeScores } from '../model/relativeJudge';
import { heldOutFileName, runStateFileName, serializeRunState, stepFileName, type HeldOutPoint, type RunState } from '../model/runState';
import type { RunBudget } from '../model/taskPlan';
import type { Task } from '../model/taskFile';
import type { LoopDependencies } from '../model/taskLoop';
import type { SampledAnswer } from '../model/trajectoryGroups';

/** A step file read back at most: 1,024 groups of 64 long answers fit. */
const maxStepFileBytes = 512 * 1024 * 1024;

export interface RunPlace {
  folder: vscode.Uri;
  model: RememberedModel;
  heldOut: EvalSample[];
  /** The programs the person allowed the task's command reward to start, and the folder it runs in. */
  programs: ReadonlySet<string>;
  programFolder: string;
}

/**
 * The loop's dependencies wired to the editor: requests through the one client (sampling and the
 * training job through the training API, judges through the inference API), each paid from the
 * run's budget before it is sent; the job followed by the sidebar's job service (the Training Jobs
 * view shows it); the held-out set evaluated into the run's results file; files in the run folder.
 */
export function loopDependencies(services: Services, task: Task, place: RunPlace, budget: RunBudget, sidebar: () => RegisteredViews): { deps: LoopDependencies; dispose(): void } {
  const regex = new RegexMatcher();
  const modelRef = checkpointModelId(place.model);
  if (!modelRef) throw new Error(`the model ${place.model.id} has no entity, project and name: its checkpoints cannot be asked`);
  const stepUri = (index: number) => vscode.Uri.joinPath(place.folder, stepFileName(index));

  const complete = async (request: ChatCompletionRequest, api: 'training' | 'inference', signal?: AbortSignal) => {
    budget.take();
    const client = await services.client();
    const reply = await (api === 'training' ? client.training : client.inference).chatCompletion({ ...request, stream: false }, signal ? { signal } : {});
    if (reply.usage) budget.used({ promptTokens: reply.usage.prompt_tokens ?? 0, completionTokens: reply.usage.completion_tokens ?? 0 });
    return reply;
  };
  const judgeText = async (request: ChatCompletionRequest, signal?: AbortSignal) => {
    const reply = await complete(request, 'inference', signal);
    const content = reply.choices[0]?.message.content;
    return typeof content === 'string' ? content : '';
  };

  const deps: LoopDependencies = {
    sample: async (prompt, signal) => {
      const reply = await complete(
        {
          model: modelRef,
          messages: prompt.messages,
          n: task.groupSize,
          temperature: task.sampling.temperature,
          max_tokens: task.sampling.maxTokens,
          ...(task.sampling.topP !== undefined ? { top_p: task.sampling.topP } : {}),
          logprobs: true,
        },
        'training',
        signal,
      );
      const answers: SampledAnswer[] = [...reply.choices]
        .sort((a, b) => a.index - b.index)
        .slice(0, task.groupSize)
        .map((choice) => ({
          text: typeof choice.message.content === 'string' ? choice.message.content : '',
          finishReason: choice.finish_reason ?? 'stop',
          ...(choice.logprobs ? { logprobs: choice.logprobs } : {}),
        }));
      if (answers.length < 2) throw new Error(`the service gave ${answers.length} answer${answers.length === 1 ? '' : 's'} where ${task.groupSize} were asked`);
      return { answers, ...stepOf(reply.model) };
    },
    reward: async (prompt, answers, signal) => {
      if (task.reward.kind === 'relativeJudge') {
        const reply = await judgeText(buildRelativeJudgeRequest(task.reward, prompt.messages, answers), signal);
        const read = parseRelativeScores(reply, answers.length);
        return 'error' in read ? read : read.scores;
      }
      const spec = task.reward.spec;
      const rewards: number[] = [];
      for (const answer of answers) {
        const score = await scoreAnswer(spec, prompt, answer, {
          regex,
          complete: judgeText,
          command: { cwd: place.programFolder, trusted: vscode.workspace.isTrusted, allowed: place.programs },
          signal,
        });
        if (typeof score !== 'number') return { error: score.error };
        rewards.push(score);
      }
      return rewards;
    },
    startJob: async (groups) => {
      const client = await services.client();
      const created = await client.training.createTrainingJob({
        model_id: place.model.id,
        trajectory_groups: groups,
        ...(task.experimentalConfig ? { experimental_config: task.experimentalConfig } : {}),
      });
      await services.remembered.jobs.add({ id: created.id, modelId: place.model.id, addedAt: new Date().toISOString(), label: `${task.name} → ${String(place.model.name || place.model.id)}` });
      return created.id;
    },
    followJob: (jobId, signal) => followJob(sidebar, jobId, signal),
    latestCheckpointStep: async () => {
      const client = await services.client();
      return (await client.training.listCheckpoints(place.model.id, { order: 'desc', limit: 1 })).data[0]?.step;
    },
    evaluateHeldOut: (step, checkpointStep, signal) => evaluateHeldOut(services, task, place, budget, step, checkpointStep, signal),
    readStepFile: async (index) => {
      const path = stepUri(index).fsPath;
      const size = await stat(path).then(
        (info) => info.size,
        () => -1,
      );
      if (size < 0) return undefined;
      if (size > maxStepFileBytes) throw new Error(`${path} is larger than ${maxStepFileBytes / 2 ** 20} MB: not a step file this run wrote`);
      return readFile(path, 'utf8');
    },
    appendToStepFile: async (index, text) => {
      const path = stepUri(index).fsPath;
      await mkdir(dirname(path), { recursive: true });
      await appendFile(path, text, 'utf8');
    },
    writeState: async (state: RunState) => {
      await mkdir(place.folder.fsPath, { recursive: true });
      await writeFile(vscode.Uri.joinPath(place.folder, runStateFileName).fsPath, serializeRunState(state), 'utf8');
    },
    now: () => Date.now(),
    log: (line) => services.log.info(`task ${task.name}: ${line}`),
  };
  return { deps, dispose: () => regex.dispose() };
}

/** The checkpoint step a reply names in its `model` (`…:stepN`), when it does. */
function stepOf(model: unknown): { sampledFromStep?: number } {
  const match = typeof model === 'string' ? /:step(\d+)$/.exec(model) : null;
  return match ? { sampledFromStep: Number(match[1]) } : {};
}

/** Resolves when the sidebar's job service sees the job over. */
function followJob(sidebar: () => RegisteredViews, jobId: string, signal: AbortSignal): Promise<{ ok: true } | { ok: false; message: string }> {
  const jobs = sidebar().jobService;
  return new Promise((resolve, reject) => {
    const check = (): void => {
      const record = jobs.record(jobId);
      if (!record?.loaded || !isTerminal(record.status)) return;
      finish();
      resolve(record.status.phase === 'succeeded' ? { ok: true } : { ok: false, message: record.status.errorMessage ?? 'the job failed without a message' });
    };
    const changes = jobs.onDidChangeJob((change) => {
      if (change.id === jobId) check();
    });
    const aborted = () => {
      finish();
      reject(new Error('stopped'));
    };
    const waiting = jobs.waitOn(jobId);
    const finish = () => {
      waiting.dispose();
      changes.dispose();
      signal.removeEventListener('abort', aborted);
    };
    signal.addEventListener('abort', aborted, { once: true });
    check();
  });
}

/** The held-out set asked of the newest checkpoint, greedily, into the run's results file; its mean and interval. */
async function evaluateHeldOut(services: Services, task: Task, place: RunPlace, budget: RunBudget, step: number, checkpointStep: number, signal: AbortSignal): Promise<HeldOutPoint | undefined> {
  const id = checkpointModelId(place.model, checkpointStep);
  if (!id || place.heldOut.length === 0) return undefined;
  const scorer: NamedScorer =
    task.reward.kind === 'relativeJudge' ? { name: 'judge', spec: { kind: 'judge', model: task.reward.model, rubric: task.reward.rubric } } : { name: task.reward.spec.kind, spec: task.reward.spec };
  const results = vscode.Uri.joinPath(place.folder, heldOutFileName);
  const existing = await existingResults(results, services);
  const ref: EvalModelRef = { id, label: `step ${checkpointStep}`, kind: 'checkpoint', api: 'training', step: checkpointStep, trainingModelId: place.model.id };
  const models = [...(existing?.models.filter((model) => model.id !== id && model.kind === 'checkpoint') ?? []).slice(-30), ref];
  const evaluation = createEvalRun(
    services,
    {
      samples: place.heldOut,
      models,
      scorers: [scorer],
      parameters: { temperature: 0, seed: 0, n: 1, maxTokens: task.sampling.maxTokens },
      setPath: task.heldOut ?? '',
      ...(existing ? { existing } : {}),
    },
    results,
    place.programFolder,
    { identities: place.programs, rewritten: async () => undefined },
    { beforeRequest: () => budget.take(), afterAnswer: (usage) => budget.used(usage), concurrency: task.concurrency },
  );
  try {
    const finished = await evaluation.run.start(signal);
    const row = leaderboard(finished, scorer.name).find((candidate) => candidate.model === id);
    if (!row || row.scored === 0) return undefined;
    return { step, checkpointStep, mean: row.mean, low: row.low, high: row.high, scored: row.scored };
  } finally {
    evaluation.dispose();
  }
}
