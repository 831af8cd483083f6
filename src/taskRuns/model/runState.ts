/**
 * A training run started from a task file, as it stands on disk: `.rlstudio/runs/<name>/run.json`
 * beside each step's trajectory groups (`step-0001.trajectories.jsonl`, which open in the rollout
 * inspector) and the held-out evaluations (`heldout.rleval.json`, an evaluation results file). The
 * loop writes this file after every change of a step; the run dashboard reads it; resuming starts
 * from it. It is a workspace file, written by whoever: `parseRunState` checks every field and
 * keeps nothing it cannot trust the shape of.
 */
import { parseStrictJson } from '../../platform/kit/strictJson';
import { isRecord, own } from '../../platform/kit/plainValues';

export type RunStatus = 'running' | 'stopping' | 'stopped' | 'finished' | 'failed';

/**
 * Where a step is: its answers being sampled and scored, its groups written, its training job
 * sent and followed, its checkpoint made; or failed (the run's `failure` says why).
 */
export type StepPhase = 'sampling' | 'written' | 'training' | 'trained' | 'failed';

export interface Spend {
  requests: number;
  promptTokens: number;
  completionTokens: number;
}

export interface RewardSummary {
  mean: number;
  std: number;
  min: number;
  max: number;
}

export interface StepState {
  /** 1-based. */
  index: number;
  phase: StepPhase;
  /** The step's trajectory file, relative to the run folder. */
  file: string;
  /** Groups sampled, groups whose rewards were all equal (no signal), and of those left out of training. */
  groups: number;
  noSignalGroups: number;
  leftOut: number;
  /** Over every trajectory of the step, no-signal groups included. */
  reward?: RewardSummary;
  /** The training job that trained on the step's groups, once sent. */
  jobId?: string;
  /** The model step of the checkpoint the job made. */
  checkpointStep?: number;
  /** The model step the step's answers were sampled from. */
  sampledFromStep?: number;
  spent: Spend;
  startedAt: string;
  endedAt?: string;
}

/** A held-out evaluation after a step: the checkpoint's mean score and its 95 % interval. */
export interface HeldOutPoint {
  step: number;
  checkpointStep: number;
  mean: number;
  low: number;
  high: number;
  scored: number;
}

export interface RunState {
  kind: 'rl-studio-task-run';
  version: 1;
  name: string;
  /** The task file, relative to the workspace folder. */
  task: string;
  modelId: string;
  modelName: string;
  status: RunStatus;
  /** Why the run stopped failing: the step and the reason in words. */
  failure?: { step: number; message: string };
  plannedSteps: number;
  budget: { requests: number; tokens: number };
  spent: Spend;
  steps: StepState[];
  heldOut: HeldOutPoint[];
  startedAt: string;
  updatedAt: string;
}

export const runStateFileName = 'run.json';
export const heldOutFileName = 'heldout.rleval.json';
/** The most steps a run may have; a file listing more is not a run. */
export const maxRunSteps = 10_000;

export function stepFileName(index: number): string {
  return `step-${String(index).padStart(4, '0')}.trajectories.jsonl`;
}

export function serializeRunState(state: RunState): string {
  return `${JSON.stringify(state, undefined, 2)}\n`;
}

export type ParsedRunState = { ok: true; state: RunState } | { ok: false; problem: string };

export function parseRunState(text: string): ParsedRunState {
  const parsed = parseStrictJson(text);
  if (!parsed.ok) return { ok: false, problem: `not valid JSON (${parsed.error.message})` };
  const value = parsed.value;
  const fail = (problem: string): ParsedRunState => ({ ok: false, problem });
  if (!isRecord(value) || own(value, 'kind') !== 'rl-studio-task-run') return fail('not a run file (its "kind" is not "rl-studio-task-run")');
  if (own(value, 'version') !== 1) return fail('a run file of another version');
  const text_ = (key: string, max = 1_000) => {
    const field = own(value, key);
    return typeof field === 'string' && field.length <= max ? field : undefined;
  };
  const name = text_('name', 200);
  const task = text_('task');
  const modelId = text_('modelId', 300);
  const modelName = text_('modelName', 300);
  const status = own(value, 'status');
  const startedAt = text_('startedAt', 40);
  const updatedAt = text_('updatedAt', 40);
  if (name === undefined || task === undefined || modelId === undefined || modelName === undefined || startedAt === undefined || updatedAt === undefined)
    return fail('a run file names its run, task, model and times');
  if (status !== 'running' && status !== 'stopping' && status !== 'stopped' && status !== 'finished' && status !== 'failed') return fail('its "status" is not one a run has');
  const plannedSteps = own(value, 'plannedSteps');
  if (!isCount(plannedSteps) || plannedSteps > maxRunSteps) return fail(`"plannedSteps" is a whole number up to ${maxRunSteps}`);
  const budget = own(value, 'budget');
  if (!isRecord(budget) || !isCount(own(budget, 'requests')) || !isCount(own(budget, 'tokens'))) return fail('"budget" gives "requests" and "tokens" as whole numbers');
  const spent = readSpend(own(value, 'spent'));
  if (!spent) return fail('"spent" gives "requests", "promptTokens" and "completionTokens" as whole numbers');
  const rawSteps = own(value, 'steps');
  if (!Array.isArray(rawSteps) || rawSteps.length > maxRunSteps) return fail(`"steps" is a list of at most ${maxRunSteps}`);
  const steps: StepState[] = [];
  for (const [at, raw] of rawSteps.entries()) {
    const step = readStep(raw);
    if (typeof step === 'string') return fail(`step ${at + 1}: ${step}`);
    if (step.index !== at + 1) return fail(`step ${at + 1} is numbered ${step.index}`);
    steps.push(step);
  }
  const rawHeldOut = own(value, 'heldOut');
  if (!Array.isArray(rawHeldOut) || rawHeldOut.length > maxRunSteps) return fail(`"heldOut" is a list of at most ${maxRunSteps}`);
  const heldOut: HeldOutPoint[] = [];
  for (const raw of rawHeldOut) {
    if (!isRecord(raw)) return fail('a held-out point is an object');
    const point = { step: own(raw, 'step'), checkpointStep: own(raw, 'checkpointStep'), mean: own(raw, 'mean'), low: own(raw, 'low'), high: own(raw, 'high'), scored: own(raw, 'scored') };
    if (!isCount(point.step) || !isCount(point.checkpointStep) || !isCount(point.scored) || !isFiniteNumber(point.mean) || !isFiniteNumber(point.low) || !isFiniteNumber(point.high))
      return fail('a held-out point gives its step, checkpoint step, mean, interval and count as numbers');
    heldOut.push(point as HeldOutPoint);
  }
  const failure = own(value, 'failure');
  const readFailure =
    isRecord(failure) && isCount(own(failure, 'step')) && typeof own(failure, 'message') === 'string'
      ? { step: own(failure, 'step') as number, message: (own(failure, 'message') as string).slice(0, 4_000) }
      : undefined;
  return {
    ok: true,
    state: {
      kind: 'rl-studio-task-run',
      version: 1,
      name,
      task,
      modelId,
      modelName,
      status,
      ...(readFailure ? { failure: readFailure } : {}),
      plannedSteps,
      budget: { requests: own(budget, 'requests') as number, tokens: own(budget, 'tokens') as number },
      spent,
      steps,
      heldOut,
      startedAt,
      updatedAt,
    },
  };
}

const phases: readonly StepPhase[] = ['sampling', 'written', 'training', 'trained', 'failed'];

function readStep(raw: unknown): StepState | string {
  if (!isRecord(raw)) return 'a step is an object';
  const index = own(raw, 'index');
  const phase = own(raw, 'phase');
  const file = own(raw, 'file');
  const startedAt = own(raw, 'startedAt');
  if (!isCount(index) || index < 1) return '"index" is a whole number from 1';
  if (!phases.includes(phase as StepPhase)) return `"phase" is one of ${phases.join(', ')}`;
  if (typeof file !== 'string' || !/^step-\d{4,5}\.trajectories\.jsonl$/.test(file)) return '"file" is the step\'s trajectory file in the run folder';
  if (typeof startedAt !== 'string' || startedAt.length > 40) return '"startedAt" is a time';
  const counts = ['groups', 'noSignalGroups', 'leftOut'].map((key) => own(raw, key));
  if (!counts.every(isCount)) return '"groups", "noSignalGroups" and "leftOut" are whole numbers';
  const spent = readSpend(own(raw, 'spent'));
  if (!spent) return '"spent" gives its requests and tokens';
  const step: StepState = { index, phase: phase as StepPhase, file, groups: counts[0] as number, noSignalGroups: counts[1] as number, leftOut: counts[2] as number, spent, startedAt };
  const reward = own(raw, 'reward');
  if (reward !== undefined) {
    if (!isRecord(reward) || !['mean', 'std', 'min', 'max'].every((key) => isFiniteNumber(own(reward, key)))) return '"reward" gives its mean, std, min and max';
    step.reward = { mean: own(reward, 'mean') as number, std: own(reward, 'std') as number, min: own(reward, 'min') as number, max: own(reward, 'max') as number };
  }
  const jobId = own(raw, 'jobId');
  if (jobId !== undefined) {
    if (typeof jobId !== 'string' || jobId === '' || jobId.length > 200) return '"jobId" is a job id';
    step.jobId = jobId;
  }
  for (const key of ['checkpointStep', 'sampledFromStep'] as const) {
    const field = own(raw, key);
    if (field === undefined) continue;
    if (!isCount(field)) return `"${key}" is a whole number`;
    step[key] = field;
  }
  const endedAt = own(raw, 'endedAt');
  if (endedAt !== undefined) {
    if (typeof endedAt !== 'string' || endedAt.length > 40) return '"endedAt" is a time';
    step.endedAt = endedAt;
  }
  return step;
}

function readSpend(raw: unknown): Spend | undefined {
  if (!isRecord(raw)) return undefined;
  const requests = own(raw, 'requests');
  const promptTokens = own(raw, 'promptTokens');
  const completionTokens = own(raw, 'completionTokens');
  return isCount(requests) && isCount(promptTokens) && isCount(completionTokens) ? { requests, promptTokens, completionTokens } : undefined;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}
