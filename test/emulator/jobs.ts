/** Turns a training request into a job record: how many steps, and whether it is asked to fail. */
import type { EmulatorState, JobRecord } from './state';
import { isPlainObject } from './validation';

/** Gradient steps of an RL job follow the number of trajectory groups, within these bounds. */
export const MIN_RL_STEPS = 3;
export const MAX_RL_STEPS = 50;
export const SFT_STEPS = 8;
/** A failing job fails after this many gradient steps (fewer when it has fewer). */
export const FAIL_AFTER_STEPS = 2;

const DEFAULT_RL_LEARNING_RATE = 5e-6;
const DEFAULT_SFT_LEARNING_RATE = 2e-5;

export interface JobSpec {
  modelId: string;
  kind: 'rl' | 'sft';
  totalSteps: number;
  failure?: string;
  learningRate: number;
  tokensPerStep: number;
  input: unknown;
  createdAt: number;
}

export function createJob(state: EmulatorState, spec: JobSpec): JobRecord {
  const job: JobRecord = {
    id: state.random.uuid(),
    modelId: spec.modelId,
    kind: spec.kind,
    createdAt: spec.createdAt,
    totalSteps: spec.totalSteps,
    learningRate: spec.learningRate,
    tokensPerStep: spec.tokensPerStep,
    events: [],
    eventIndexById: new Map(),
    input: spec.input,
  };
  if (spec.failure !== undefined) {
    job.failAfterStep = Math.min(FAIL_AFTER_STEPS, spec.totalSteps);
    job.errorMessage = spec.failure;
  }
  state.jobs.set(job.id, job);
  return job;
}

/**
 * A job is asked to fail by a trajectory group whose `metadata.emulator_fail` is a string (the
 * error message), or by `experimental_config.emulator_fail` (a string message, or any truthy value).
 */
export function requestedFailure(trajectoryGroups: unknown[], experimentalConfig: unknown): string | undefined {
  for (const group of trajectoryGroups) {
    if (isPlainObject(group) && isPlainObject(group.metadata) && typeof group.metadata.emulator_fail === 'string') return group.metadata.emulator_fail;
  }
  if (isPlainObject(experimentalConfig)) {
    const fail = experimentalConfig.emulator_fail;
    if (typeof fail === 'string') return fail;
    if (fail) return 'Training failed: the job was asked to fail (emulator_fail)';
  }
  return undefined;
}

export function rlJobSpec(body: { model_id: string; trajectory_groups: unknown[]; experimental_config?: unknown }, now: number): JobSpec {
  const config = isPlainObject(body.experimental_config) ? body.experimental_config : {};
  const spec: JobSpec = {
    modelId: body.model_id,
    kind: 'rl',
    totalSteps: Math.max(MIN_RL_STEPS, Math.min(MAX_RL_STEPS, body.trajectory_groups.length)),
    learningRate: typeof config.learning_rate === 'number' ? config.learning_rate : DEFAULT_RL_LEARNING_RATE,
    // Roughly four characters a token, spread over the steps; never implausibly small.
    tokensPerStep: Math.max(4096, Math.round(JSON.stringify(body.trajectory_groups).length / 4)),
    input: body,
    createdAt: now,
  };
  const failure = requestedFailure(body.trajectory_groups, body.experimental_config);
  if (failure !== undefined) spec.failure = failure;
  return spec;
}

export function sftJobSpec(body: { model_id: string; training_data_url: string; config?: unknown }, now: number): JobSpec {
  const config = isPlainObject(body.config) ? body.config : {};
  const rate = config.learning_rate;
  const spec: JobSpec = {
    modelId: body.model_id,
    kind: 'sft',
    totalSteps: SFT_STEPS,
    learningRate: typeof rate === 'number' ? rate : Array.isArray(rate) && typeof rate[0] === 'number' ? rate[0] : DEFAULT_SFT_LEARNING_RATE,
    tokensPerStep: 16384,
    input: body,
    createdAt: now,
  };
  const failure = requestedFailure([], config);
  if (failure !== undefined) spec.failure = failure;
  return spec;
}
