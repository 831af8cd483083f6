/**
 * What a run will spend at most, before it starts (the confirmation states it), and the budget it
 * is held to while it runs. Sampling asks each prompt of a step once for the whole group (`n` answers
 * in one request); a per-answer judge asks once per answer, a relative judge once per group; the
 * held-out set is asked once per prompt before the first step and every `evaluateEvery` steps.
 */
import { relativeJudgeMaxTokens } from './relativeJudge';
import type { Spend } from './runState';
import type { Task } from './taskFile';

/** The per-answer judge's reply, at most (as the evaluations' judge asks). */
const judgeMaxTokens = 1_024;

export interface TaskPlan {
  samplingRequests: number;
  rewardRequests: number;
  heldOutEvaluations: number;
  heldOutRequests: number;
  requests: number;
  /** Completion tokens at most: answers, held-out answers and judges' replies. Prompt tokens add to it. */
  completionTokens: number;
}

export function planTask(task: Task, heldOutPrompts: number): TaskPlan {
  const prompts = task.steps * task.promptsPerStep;
  const answers = prompts * task.groupSize;
  const judgePerAnswer = task.reward.kind === 'scorer' && task.reward.spec.kind === 'judge';
  const rewardRequests = judgePerAnswer ? answers : task.reward.kind === 'relativeJudge' ? prompts : 0;
  const rewardTokens = judgePerAnswer ? answers * judgeMaxTokens : task.reward.kind === 'relativeJudge' ? prompts * relativeJudgeMaxTokens : 0;
  const heldOutEvaluations = task.heldOut && task.evaluateEvery > 0 ? 1 + Math.floor(task.steps / task.evaluateEvery) : 0;
  // Held-out answers are graded one by one: by the scorer, or by a judge of the relative judge's model.
  const heldOutJudged = judgePerAnswer || task.reward.kind === 'relativeJudge';
  const heldOutRequests = heldOutEvaluations * heldOutPrompts * (heldOutJudged ? 2 : 1);
  return {
    samplingRequests: prompts,
    rewardRequests,
    heldOutEvaluations,
    heldOutRequests,
    requests: prompts + rewardRequests + heldOutRequests,
    completionTokens: answers * task.sampling.maxTokens + rewardTokens + heldOutEvaluations * heldOutPrompts * (task.sampling.maxTokens + (heldOutJudged ? judgeMaxTokens : 0)),
  };
}

/** The steps whose held-out evaluation is due after them (0: before the first). */
export function evaluatesAfter(step: number, task: Pick<Task, 'evaluateEvery' | 'heldOut' | 'steps'>): boolean {
  if (!task.heldOut || task.evaluateEvery <= 0) return false;
  return step === 0 || step % task.evaluateEvery === 0;
}

/** The prompts step `index` (1-based) asks: the next `perStep` of the set, going round it. */
export function promptsOfStep(index: number, perStep: number, count: number): number[] {
  if (count === 0) return [];
  const first = ((index - 1) * perStep) % count;
  return Array.from({ length: Math.min(perStep, count) }, (_, offset) => (first + offset) % count);
}

/**
 * The run's budget: a request is paid for before it is sent and refused when the requests are
 * spent, or when the tokens the service reported so far reach the budget's (a request's tokens are
 * known only once it answered, so the last one may pass it by its own size).
 */
export class RunBudget {
  constructor(
    readonly limits: { requests: number; tokens: number },
    readonly spent: Spend = { requests: 0, promptTokens: 0, completionTokens: 0 },
  ) {}

  /** Throws `BudgetSpent` when the run may send no more; counts the request otherwise. */
  take(): void {
    if (this.spent.requests >= this.limits.requests) throw new BudgetSpent(`the budget of ${this.limits.requests.toLocaleString('en-US')} requests is spent`);
    if (this.tokens() >= this.limits.tokens) throw new BudgetSpent(`the budget of ${this.limits.tokens.toLocaleString('en-US')} tokens is spent`);
    this.spent.requests++;
  }

  /** Records the tokens an answered request used. */
  used(usage: { promptTokens: number; completionTokens: number }): void {
    this.spent.promptTokens += Math.max(0, Math.floor(usage.promptTokens));
    this.spent.completionTokens += Math.max(0, Math.floor(usage.completionTokens));
  }

  tokens(): number {
    return this.spent.promptTokens + this.spent.completionTokens;
  }
}

export class BudgetSpent extends Error {
  override readonly name = 'BudgetSpent';
}
