/**
 * Demo data: a trained model with a finished job and a live one, a second model whose job failed,
 * and direct creation of models with many checkpoints for paging tests and benchmarks.
 */
import type { SeededIds } from './contract';
import type { EmulatorEnv } from './context';
import { advanceJob, stepMetrics } from './jobClock';
import { createJob, rlJobSpec } from './jobs';
import { DEFAULT_ENTITY, type ModelRecord } from './state';

export const DEMO_PROJECT = 'demo-project';
export const TRAINED_MODEL_NAME = 'agent-001';
export const FAILED_MODEL_NAME = 'agent-002';
/** Project of models made by `createModelWithCheckpoints`. */
export const GENERATED_PROJECT = 'emulator-project';

/** Gradient steps of the seeded finished job: with step 0 the model has 25 checkpoints. */
const SUCCEEDED_JOB_STEPS = 24;
/**
 * The live job is measured in wall-clock time, not steps: it must still be running when someone
 * comes back to a demo left open for the afternoon, whatever the emulated seconds per step. At the
 * demo's 2 s per step that is 21,600 steps, one checkpoint each, materialised only as time passes.
 * Never fewer than 1000 steps, so a fast test clock still sees it running for a while.
 */
const RUNNING_JOB_HOURS = 12;
const MIN_RUNNING_JOB_STEPS = 1000;
/** Trajectory groups of the failing run; it fails after FAIL_AFTER_STEPS (jobs.ts) of its steps. */
const FAILED_JOB_GROUPS = 12;
const FAILED_JOB_MESSAGE = 'CUDA out of memory: tried to allocate 2.50 GiB (GPU 0; 79.15 GiB total capacity; 76.02 GiB already allocated)';

/** A model with checkpoints at steps 0..count-1, made directly rather than by training. */
export function createModelWithCheckpoints(env: EmulatorEnv, name: string, count: number, project = GENERATED_PROJECT): ModelRecord {
  const { state } = env;
  if (state.findModelByName(DEFAULT_ENTITY, project, name)) throw new Error(`Model ${DEFAULT_ENTITY}/${project}/${name} already exists`);
  const model = state.createModel(DEFAULT_ENTITY, project, name, env.baseModels[0]!);
  // The step-0 checkpoint comes with the model; a count of 0 still leaves it (a model always has it).
  for (let step = 1; step < count; step++) {
    const metrics = stepMetrics({ seedKey: model.id, k: step, totalSteps: count, withReward: true, learningRate: 5e-6, tokensPerStep: 8192, step });
    model.checkpoints.add({ id: state.random.uuid(), step, metrics });
  }
  return model;
}

function syntheticGroups(count: number): unknown[] {
  return Array.from({ length: count }, (_, index) => ({
    trajectories: [
      {
        messages_and_choices: [
          { role: 'user', content: `Solve puzzle #${index + 1}` },
          { index: 0, finish_reason: 'stop', message: { role: 'assistant', content: `Answer to puzzle #${index + 1}` } },
        ],
        reward: (index % 5) / 4,
      },
    ],
  }));
}

/** Gradient steps of the live job: RUNNING_JOB_HOURS of the emulator's clock. */
export function runningJobSteps(secondsPerStep: number): number {
  const steps = Math.ceil((RUNNING_JOB_HOURS * 3600) / Math.max(1e-3, secondsPerStep));
  return Math.max(MIN_RUNNING_JOB_STEPS, steps);
}

/**
 * The failing run's groups: the first one carries `metadata.emulator_fail`, which is how any
 * training request asks the emulator to fail (see jobs.ts), so the seeded failure is made the same
 * way a user's failing file makes one, and its input shows how.
 */
function failingGroups(): unknown[] {
  const groups = syntheticGroups(FAILED_JOB_GROUPS) as Array<Record<string, unknown>>;
  groups[0] = { ...groups[0], metadata: { emulator_fail: FAILED_JOB_MESSAGE } };
  return groups;
}

export function seedDemo(env: EmulatorEnv): SeededIds {
  const { state } = env;
  const now = env.now();
  const stepMs = env.settings.secondsPerStep * 1000;
  const baseModel = env.baseModels[0]!;

  const trained = state.createModel(DEFAULT_ENTITY, DEMO_PROJECT, TRAINED_MODEL_NAME, baseModel);
  const succeeded = createJob(state, {
    modelId: trained.id,
    kind: 'rl',
    totalSteps: SUCCEEDED_JOB_STEPS,
    learningRate: 5e-6,
    tokensPerStep: 12288,
    input: { model_id: trained.id, trajectory_groups: syntheticGroups(SUCCEEDED_JOB_STEPS) },
    // Queued long enough ago to have finished just now.
    createdAt: now - (SUCCEEDED_JOB_STEPS + 3) * stepMs,
  });
  advanceJob(state, succeeded, now, env.settings.secondsPerStep);
  trained.logs.push({ split: 'val', trajectoryGroups: syntheticGroups(4), at: now });

  const running = createJob(state, {
    modelId: trained.id,
    kind: 'rl',
    totalSteps: runningJobSteps(env.settings.secondsPerStep),
    learningRate: 5e-6,
    tokensPerStep: 12288,
    input: { model_id: trained.id, trajectory_groups: syntheticGroups(8) },
    // Already started, so it is "running" from the first look.
    createdAt: now - 1.5 * stepMs,
  });
  advanceJob(state, running, now, env.settings.secondsPerStep);

  const failedModel = state.createModel(DEFAULT_ENTITY, DEMO_PROJECT, FAILED_MODEL_NAME, baseModel);
  // Queued long enough ago to have failed already: it fails after a few of its steps.
  const failedRequest = { model_id: failedModel.id, trajectory_groups: failingGroups(), experimental_config: { learning_rate: 1e-5 } };
  const failed = createJob(state, rlJobSpec(failedRequest, now - (FAILED_JOB_GROUPS + 3) * stepMs));
  advanceJob(state, failed, now, env.settings.secondsPerStep);

  return {
    baseModels: [...env.baseModels],
    inferenceModels: env.inferenceModels.map((model) => model.id),
    trainedModelId: trained.id,
    trainedModelEntity: trained.entity,
    trainedModelProject: trained.project,
    trainedModelName: trained.name,
    runningJobId: running.id,
    failedJobId: failed.id,
    succeededJobId: succeeded.id,
  };
}
