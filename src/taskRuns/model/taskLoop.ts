/**
 * The reinforcement-learning loop of a task, step by step: sample a group of answers per prompt
 * from the model's newest checkpoint (one request per prompt, `n` answers, at bounded concurrency,
 * slowing down for 429s as long as Retry-After asks), reward them, write the groups to the step's
 * file as they come, train on the groups with a signal, follow the job to its end, and evaluate the
 * held-out set when due. Everything is on disk after each change (the run file and the step files),
 * so a run that stops, fails or is closed resumes from its files: a prompt whose group is written is
 * not asked again, and a step whose job was sent is followed, never sent again. No `vscode` here:
 * the editor passes how to ask, reward, train, evaluate and write.
 */
import type { ChatMessage, TrajectoryGroup } from '../../platform/client/types';
import { runEvaluations } from '../../platform/client/requestScheduler';
import type { ScoredSample } from '../../platform/scoring/scorerSpec';
import { errorMessage } from '../../platform/client/errorMessage';
import type { HeldOutPoint, RunState, Spend, StepState } from './runState';
import { summariseValues } from '../../platform/kit/valueSummary';
import { stepFileName } from './runState';
import { evaluatesAfter, promptsOfStep, type RunBudget } from './taskPlan';
import type { Task } from './taskFile';
import { buildGroup, readWrittenGroup, writtenGroup, type SampledAnswer, type WrittenGroup } from './trajectoryGroups';

export interface LoopPrompt extends ScoredSample {
  id: string;
  messages: ChatMessage[];
}

export interface LoopDependencies {
  /** One request for the group's answers, from the model's newest checkpoint (and its step, when known). */
  sample(prompt: LoopPrompt, signal: AbortSignal): Promise<{ answers: SampledAnswer[]; sampledFromStep?: number }>;
  /** A reward per answer, or why the group cannot be rewarded. */
  reward(prompt: LoopPrompt, answers: readonly string[], signal: AbortSignal): Promise<number[] | { error: string }>;
  /** Sends a training job on the groups; its id. */
  startJob(groups: TrajectoryGroup[]): Promise<string>;
  /** Resolves when the job is over: trained, or failed with its message. Rejects when `signal` stops the following. */
  followJob(jobId: string, signal: AbortSignal): Promise<{ ok: true } | { ok: false; message: string }>;
  /** The model's newest checkpoint step. */
  latestCheckpointStep(): Promise<number | undefined>;
  /** The held-out set asked of the model's newest checkpoint, after `step` (0: before the first). */
  evaluateHeldOut(step: number, checkpointStep: number, signal: AbortSignal): Promise<HeldOutPoint | undefined>;
  readStepFile(index: number): Promise<string | undefined>;
  appendToStepFile(index: number, text: string): Promise<void>;
  writeState(state: RunState): Promise<void>;
  now(): number;
  log(line: string): void;
}

/** Groups of one step kept in memory to train on at most (a step asks at most 1,024 prompts). */
const maxGroupsPerStep = 1_024;

export class TaskLoop {
  private state: RunState;

  constructor(
    private readonly task: Task,
    private readonly prompts: readonly LoopPrompt[],
    private readonly budget: RunBudget,
    private readonly deps: LoopDependencies,
    start: { taskPath: string; modelId: string; modelName: string; existing?: RunState },
  ) {
    const stamp = new Date(deps.now()).toISOString();
    this.state = start.existing
      ? { ...start.existing, plannedSteps: task.steps, budget: { ...task.budget } }
      : {
          kind: 'rl-studio-task-run',
          version: 1,
          name: task.name,
          task: start.taskPath,
          modelId: start.modelId,
          modelName: start.modelName,
          status: 'running',
          plannedSteps: task.steps,
          budget: { ...task.budget },
          spent: budget.spent,
          steps: [],
          heldOut: [],
          startedAt: stamp,
          updatedAt: stamp,
        };
    // The budget counts on from what the run spent before.
    Object.assign(budget.spent, this.state.spent);
    this.state.spent = budget.spent;
  }

  get current(): RunState {
    return this.state;
  }

  /**
   * Runs the remaining steps. `stop` asks it to stop: no new step or prompt starts, requests in
   * flight are dropped (their prompts are asked again on resume), a job being followed keeps
   * training on the platform and is followed again on resume. Resolves with the run as written.
   */
  async run(stop: AbortSignal): Promise<RunState> {
    delete this.state.failure;
    this.state.status = 'running';
    await this.save();
    try {
      if (evaluatesAfter(0, this.task) && !this.state.heldOut.some((point) => point.step === 0)) await this.evaluate(0, stop);
      for (let index = 1; index <= this.task.steps; index++) {
        if (stop.aborted) return await this.end('stopped');
        const step = this.stepAt(index);
        if (step.phase === 'trained') continue;
        const before = { ...this.budget.spent };
        // The groups just sampled, known without reading the step file again; a resumed step reads them.
        let written: WrittenGroup[] | undefined;
        if (step.phase === 'sampling' || step.phase === 'failed') {
          const sampled = await this.sampleStep(step, stop);
          this.addSpend(step, before);
          if (typeof sampled === 'string') return await this.fail(step, sampled);
          if (stop.aborted) return await this.end('stopped');
          written = sampled.written;
        }
        if (step.phase === 'written') await this.sendStep(step, written ?? (await this.writtenGroups(step.index)));
        if (step.phase === 'training') {
          const outcome = await this.deps.followJob(step.jobId!, stop).catch((error: unknown) => (stop.aborted ? 'stopped' : { ok: false as const, message: errorMessage(error) }));
          if (outcome === 'stopped') return await this.end('stopped');
          if (!outcome.ok) return await this.fail(step, `its training job ${step.jobId} failed: ${outcome.message}`);
          const checkpoint = await this.deps.latestCheckpointStep();
          step.phase = 'trained';
          if (checkpoint !== undefined) step.checkpointStep = checkpoint;
          step.endedAt = this.stamp();
          await this.save();
        }
        if (evaluatesAfter(index, this.task) && !this.state.heldOut.some((point) => point.step === index)) {
          const before = { ...this.budget.spent };
          await this.evaluate(index, stop);
          this.addSpend(step, before);
          await this.save();
        }
      }
      return await this.end('finished');
    } catch (error) {
      if (stop.aborted) return await this.end('stopped');
      const step = this.state.steps.at(-1);
      return await this.fail(step, errorMessage(error));
    }
  }

  private stepAt(index: number): StepState {
    let step = this.state.steps[index - 1];
    if (!step) {
      step = { index, phase: 'sampling', file: stepFileName(index), groups: 0, noSignalGroups: 0, leftOut: 0, spent: { requests: 0, promptTokens: 0, completionTokens: 0 }, startedAt: this.stamp() };
      this.state.steps.push(step);
    }
    return step;
  }

  /** Asks the step's prompts that have no group written yet; the step's groups, or why the step cannot go on. */
  private async sampleStep(step: StepState, stop: AbortSignal): Promise<{ written: WrittenGroup[] } | string> {
    step.phase = 'sampling';
    const written = await this.writtenGroups(step.index);
    const answered = new Set(written.map((entry) => entry.promptId));
    const todo = promptsOfStep(step.index, this.task.promptsPerStep, this.prompts.length)
      .map((at) => this.prompts[at]!)
      .filter((prompt) => !answered.has(prompt.id));
    this.deps.log(`step ${step.index}: ${todo.length} prompts to ask${answered.size ? `, ${answered.size} answered before` : ''}`);
    await this.save();
    let failure: string | undefined;
    let writing = Promise.resolve();
    await runEvaluations({
      items: todo,
      concurrency: this.task.concurrency,
      signal: stop,
      ask: async (prompt, signal) => {
        const sampled = await this.deps.sample(prompt, signal);
        const rewards = await this.deps.reward(
          prompt,
          sampled.answers.map((answer) => answer.text),
          signal,
        );
        if (!Array.isArray(rewards)) throw new RewardFailed(rewards.error);
        return { prompt, sampled, rewards };
      },
      onResult: (prompt, outcome) => {
        if (!outcome.ok) {
          // A group the reward could not score is left out (and asked again on resume); anything else stops the step.
          if (outcome.error instanceof RewardFailed) this.deps.log(`step ${step.index}: prompt ${prompt.id} is left out: ${outcome.error.message}`);
          else failure ??= `prompt ${prompt.id}: ${errorMessage(outcome.error)}`;
          return;
        }
        const { sampled, rewards } = outcome.value;
        const group = buildGroup(prompt.id, prompt.messages, sampled.answers, rewards, sampled.sampledFromStep);
        if (sampled.sampledFromStep !== undefined) step.sampledFromStep = sampled.sampledFromStep;
        written.push(writtenGroup(group)!);
        writing = writing.then(() => this.deps.appendToStepFile(step.index, `${JSON.stringify(group)}\n`));
      },
    });
    await writing;
    if (stop.aborted) {
      await this.save();
      return { written };
    }
    if (failure) return failure;
    this.summarise(step, written);
    step.phase = 'written';
    await this.save();
    return { written };
  }

  /** Sends the step's groups with a signal (all, when the task keeps the others) as a training job. */
  private async sendStep(step: StepState, written: readonly WrittenGroup[]): Promise<void> {
    this.summarise(step, written);
    const train = written.filter((entry) => this.task.keepNoSignalGroups || !entry.noSignal).map((entry) => entry.group);
    if (train.length === 0) {
      this.deps.log(`step ${step.index}: every group got the same reward for all its answers: nothing to train on, the step is skipped`);
      step.phase = 'trained';
      step.endedAt = this.stamp();
      await this.save();
      return;
    }
    step.jobId = await this.deps.startJob(train);
    step.phase = 'training';
    this.deps.log(`step ${step.index}: training job ${step.jobId} on ${train.length} groups`);
    await this.save();
  }

  private async writtenGroups(index: number): Promise<WrittenGroup[]> {
    const text = (await this.deps.readStepFile(index)) ?? '';
    const groups = new Map<string, WrittenGroup>();
    for (const line of text.split('\n')) {
      if (line.trim() === '' || groups.size >= maxGroupsPerStep) continue;
      const read = readWrittenGroup(line);
      if (read) groups.set(read.promptId, read);
    }
    return [...groups.values()];
  }

  private summarise(step: StepState, written: readonly WrittenGroup[]): void {
    step.groups = written.length;
    step.noSignalGroups = written.filter((entry) => entry.noSignal).length;
    step.leftOut = this.task.keepNoSignalGroups ? 0 : step.noSignalGroups;
    const rewards = written.flatMap((entry) => entry.group.trajectories.map((trajectory) => trajectory.reward)).filter((reward) => Number.isFinite(reward));
    const summary = summariseValues(rewards);
    if (summary) step.reward = summary;
  }

  private async evaluate(step: number, stop: AbortSignal): Promise<void> {
    const checkpoint = (await this.deps.latestCheckpointStep()) ?? 0;
    const point = await this.deps.evaluateHeldOut(step, checkpoint, stop);
    if (point) {
      this.state.heldOut.push(point);
      this.deps.log(`held-out after step ${step} (model step ${checkpoint}): ${point.mean.toFixed(3)} (${point.low.toFixed(3)} to ${point.high.toFixed(3)}, ${point.scored} answers)`);
    }
    await this.save();
  }

  private addSpend(step: StepState, before: Spend): void {
    step.spent.requests += this.budget.spent.requests - before.requests;
    step.spent.promptTokens += this.budget.spent.promptTokens - before.promptTokens;
    step.spent.completionTokens += this.budget.spent.completionTokens - before.completionTokens;
  }

  private async fail(step: StepState | undefined, message: string): Promise<RunState> {
    if (step && step.phase !== 'trained' && step.phase !== 'written' && step.phase !== 'training') step.phase = 'failed';
    this.state.failure = { step: step?.index ?? 0, message };
    this.deps.log(`the run failed at step ${step?.index ?? 0}: ${message}`);
    return this.end('failed');
  }

  private async end(status: RunState['status']): Promise<RunState> {
    this.state.status = status;
    await this.save();
    return this.state;
  }

  private async save(): Promise<void> {
    this.state.updatedAt = this.stamp();
    await this.deps.writeState(this.state);
  }

  private stamp(): string {
    return new Date(this.deps.now()).toISOString();
  }
}

class RewardFailed extends Error {
  override readonly name = 'RewardFailed';
}
