/**
 * How a training job moves: its whole timeline follows from the time it was queued and the
 * emulated seconds per step, and is materialised lazily whenever anything reads the store. So
 * events appear on their own as time passes, with no timer to manage, and a job created "in the
 * past" (the seed) is simply further along.
 *
 * Timeline, in steps of `secondsPerStep` after queueing: 1 → training_started; 1+k → gradient
 * step k (adds checkpoint); last+1 → training_ended or training_failed.
 */
import { trainingReward } from './evalAccuracy';
import { hashString, Prng } from './prng';
import type { EmulatorState, JobEvent, JobRecord } from './state';

export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed';

/** Gradient steps that actually run: all of them, or those before the failure. */
function stepsToRun(job: JobRecord): number {
  return job.failAfterStep === undefined ? job.totalSteps : Math.min(job.failAfterStep, job.totalSteps);
}

function timelineLength(job: JobRecord): number {
  return stepsToRun(job) + 2;
}

export function jobStatus(job: JobRecord): JobStatus {
  const last = job.events.at(-1);
  if (!last) return 'queued';
  if (last.type === 'training_ended') return 'succeeded';
  if (last.type === 'training_failed') return 'failed';
  return 'running';
}

export interface MetricsInput {
  /** Seeds the noise, so a step's metrics never change between reads. */
  seedKey: string;
  /** 1-based gradient step within the run, and the run's length. */
  k: number;
  totalSteps: number;
  withReward: boolean;
  learningRate: number;
  tokensPerStep: number;
  /** The checkpoint step reported as `step`. */
  step: number;
}

/**
 * Metrics of one gradient step, with a little deterministic noise: loss falls over the run; reward
 * rises with the checkpoint's step (not the run's progress), so a model trained by several jobs
 * keeps rising and the reward follows the eval accuracy of its checkpoints (see evalAccuracy.ts).
 */
export function stepMetrics(input: MetricsInput): Record<string, number> {
  const random = new Prng(hashString(input.seedKey) ^ Math.imul(input.k, 0x9e3779b1));
  const progress = input.k / Math.max(1, input.totalSteps);
  const numTokens = Math.round(input.tokensPerStep * (1 + random.noise(0.08)));
  const metrics: Record<string, number> = {
    step: input.step,
    loss: round(0.08 + 1.1 * Math.exp(-2.4 * progress) + random.noise(0.03), 4),
  };
  if (input.withReward) metrics.reward = round(Math.min(1, Math.max(0, trainingReward(input.step) + random.noise(0.03))), 4);
  metrics.learning_rate = input.learningRate;
  metrics.num_tokens = numTokens;
  metrics.num_trainable_tokens = Math.round(numTokens * (0.32 + random.noise(0.04)));
  metrics.tokens_per_second = round(9000 + random.noise(1200), 1);
  metrics.grad_norm = round(0.15 + 0.9 * Math.exp(-1.5 * progress) + random.noise(0.05), 4);
  return metrics;
}

function gradientMetrics(job: JobRecord, k: number, step: number): Record<string, number> {
  return stepMetrics({ seedKey: job.id, k, totalSteps: job.totalSteps, withReward: job.kind === 'rl', learningRate: job.learningRate, tokensPerStep: job.tokensPerStep, step });
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

function pushEvent(state: EmulatorState, job: JobRecord, type: JobEvent['type'], data: Record<string, unknown>): void {
  const event: JobEvent = { id: state.random.uuid(), type, data };
  job.eventIndexById.set(event.id, job.events.length);
  job.events.push(event);
}

/** Appends the entry at timeline position `position` (1-based). */
function materialise(state: EmulatorState, job: JobRecord, position: number, at: number): void {
  const steps = stepsToRun(job);
  if (position === 1) {
    job.startedAt = at;
    pushEvent(state, job, 'training_started', { num_sequences: job.totalSteps });
    return;
  }
  const k = position - 1;
  if (k <= steps) {
    const model = state.models.get(job.modelId);
    const latest = model?.checkpoints.latest()?.step ?? 0;
    const step = model ? latest + 1 : k;
    const metrics = gradientMetrics(job, k, step);
    pushEvent(state, job, 'gradient_step', metrics);
    model?.checkpoints.add({ id: state.random.uuid(), step, metrics: { ...metrics } });
    return;
  }
  job.endedAt = at;
  if (job.failAfterStep !== undefined) pushEvent(state, job, 'training_failed', { error_message: job.errorMessage ?? 'Training failed' });
  else pushEvent(state, job, 'training_ended', {});
}

export function advanceJob(state: EmulatorState, job: JobRecord, now: number, secondsPerStep: number): void {
  const stepMs = Math.max(1e-3, secondsPerStep * 1000);
  const due = Math.min(timelineLength(job), Math.floor((now - job.createdAt) / stepMs));
  while (job.events.length < due) {
    const position = job.events.length + 1;
    materialise(state, job, position, job.createdAt + position * stepMs);
  }
}

/** Brings every unfinished job up to `now`, oldest first so that shared models get steps in order. */
export function advanceAllJobs(state: EmulatorState, now: number, secondsPerStep: number): void {
  for (const job of state.jobs.values()) {
    if (job.events.length < timelineLength(job)) advanceJob(state, job, now, job.secondsPerStep ?? secondsPerStep);
  }
}

/** Changes the pace of jobs created from now on; every existing job keeps the pace it had. */
export function changePace(state: EmulatorState, settings: { secondsPerStep: number }, seconds: number): void {
  for (const job of state.jobs.values()) job.secondsPerStep ??= settings.secondsPerStep;
  settings.secondsPerStep = seconds;
}

export function describeJob(job: JobRecord): Record<string, unknown> {
  const status = jobStatus(job);
  return {
    id: job.id,
    status,
    training_start: job.startedAt === undefined ? null : new Date(job.startedAt).toISOString(),
    training_end: job.endedAt === undefined ? null : new Date(job.endedAt).toISOString(),
    error_message: status === 'failed' ? (job.errorMessage ?? 'Training failed') : null,
    model_id: job.modelId,
  };
}
