/**
 * What the run dashboard draws, from a run's state: reward per step (the mean, with a band of one
 * standard deviation either side, clamped to the rewards seen), the share of groups with no signal,
 * the held-out score with its 95 % interval, the spend against the budget, and the current step in
 * words.
 */
import type { RunState, StepState } from './runState';

export interface DashboardSeries {
  xs: number[];
  ys: number[];
  band?: { low: number[]; high: number[] };
}

export function rewardSeries(state: RunState): DashboardSeries {
  const steps = state.steps.filter((step) => step.reward !== undefined);
  return {
    xs: steps.map((step) => step.index),
    ys: steps.map((step) => step.reward!.mean),
    band: {
      low: steps.map((step) => Math.max(step.reward!.min, step.reward!.mean - step.reward!.std)),
      high: steps.map((step) => Math.min(step.reward!.max, step.reward!.mean + step.reward!.std)),
    },
  };
}

export function noSignalSeries(state: RunState): DashboardSeries {
  const steps = state.steps.filter((step) => step.groups > 0 && step.phase !== 'sampling');
  return { xs: steps.map((step) => step.index), ys: steps.map((step) => step.noSignalGroups / step.groups) };
}

export function heldOutSeries(state: RunState): DashboardSeries {
  const points = [...state.heldOut].sort((a, b) => a.step - b.step);
  return { xs: points.map((point) => point.step), ys: points.map((point) => point.mean), band: { low: points.map((point) => point.low), high: points.map((point) => point.high) } };
}

/** Shares of the budget spent, each from 0 to 1 (past 1 when the last request went over it by its own size). */
export function budgetShares(state: RunState): { requests: number; tokens: number } {
  const tokens = state.spent.promptTokens + state.spent.completionTokens;
  return { requests: state.budget.requests ? state.spent.requests / state.budget.requests : 0, tokens: state.budget.tokens ? tokens / state.budget.tokens : 0 };
}

const phaseWords: Record<StepState['phase'], string> = {
  sampling: 'sampling and rewarding answers',
  written: 'groups written, the training job not sent yet',
  training: 'training',
  trained: 'trained',
  failed: 'failed',
};

/** "Step 2 of 3: training, job 1a2b3c4d" — or how the run ended. */
export function describeCurrent(state: RunState): string {
  const trained = state.steps.filter((step) => step.phase === 'trained').length;
  if (state.status === 'finished') return `Finished: ${trained} of ${state.plannedSteps} steps trained.`;
  if (state.status === 'failed') return `Failed at step ${state.failure?.step ?? '?'}.`;
  const step = state.steps.at(-1);
  const where = step
    ? `Step ${step.index} of ${state.plannedSteps}: ${phaseWords[step.phase]}${step.phase === 'training' && step.jobId ? `, job ${step.jobId.slice(0, 8)}` : ''}`
    : `Before step 1 of ${state.plannedSteps}: evaluating the held-out set`;
  if (state.status === 'stopped') return `Stopped after ${trained} of ${state.plannedSteps} steps (start the task again to resume). ${where}.`;
  if (state.status === 'stopping') return `Stopping. ${where}.`;
  return `${where}.`;
}
