/**
 * A task file (`*.rltask.json`): what a training run from the editor does, with no script. The
 * prompts (an eval set), an optional held-out set, the reward (a scorer, an LLM judge, a judge that
 * ranks a whole group relative to itself, or a command), the group size, the number of steps and
 * the prompts each asks, the sampling, the budget and the training's experimental config. A task
 * file is a workspace file written by whoever: it is read into a task and problems (each with the
 * path of the value it is about); what it may spend is confirmed by the person before anything runs.
 */
import { parseStrictJson } from '../../platform/kit/strictJson';
import { isRecord, own } from '../../platform/kit/plainValues';
import type { ScorerSpec } from '../../platform/scoring/scorerSpec';
import { readScorerSpec } from '../../platform/scoring/scorerSpecs';

/** The reward of every answer: a scorer of the platform's kinds, or a judge that ranks the answers of a group against each other. */
export type TaskReward = { kind: 'scorer'; spec: ScorerSpec } | { kind: 'relativeJudge'; model: string; rubric: string };

export interface TaskSampling {
  temperature: number;
  maxTokens: number;
  topP?: number;
}

export interface Task {
  /** Names the run folder `.rlstudio/runs/<name>/`. */
  name: string;
  /** The training model: `entity/project/name`. */
  model: string;
  /** Creates the model from this base model when the platform has none of that name. */
  baseModel?: string;
  /** The prompts (an eval set), relative to the task file's folder. */
  prompts: string;
  heldOut?: string;
  reward: TaskReward;
  groupSize: number;
  promptsPerStep: number;
  steps: number;
  /** Evaluate the held-out set every this many steps (and before the first): 0 never. */
  evaluateEvery: number;
  sampling: TaskSampling;
  concurrency: number;
  /** Train on groups whose answers all got the same reward (they teach nothing with GRPO). */
  keepNoSignalGroups: boolean;
  budget: { requests: number; tokens: number };
  experimentalConfig?: Record<string, unknown>;
}

export interface TaskProblem {
  /** Where in the file: `sampling.temperature`. */
  path: string;
  message: string;
  severity: 'error' | 'warning';
}

export const taskLimits = {
  groupSize: { min: 2, max: 64 },
  promptsPerStep: { min: 1, max: 1_024 },
  steps: { min: 1, max: 1_000 },
  concurrency: { min: 1, max: 64 },
  maxTokens: { min: 1, max: 32_768 },
  budgetRequests: { min: 1, max: 10_000_000 },
  budgetTokens: { min: 1, max: 10_000_000_000 },
} as const;

const known = [
  '$schema',
  'name',
  'model',
  'baseModel',
  'prompts',
  'heldOut',
  'reward',
  'groupSize',
  'promptsPerStep',
  'steps',
  'evaluateEvery',
  'sampling',
  'concurrency',
  'keepNoSignalGroups',
  'budget',
  'experimentalConfig',
];

/** The task a file describes, or undefined when an error stops it; its problems either way. */
export function parseTaskFile(text: string, fileStem: string): { task?: Task; problems: TaskProblem[] } {
  const problems: TaskProblem[] = [];
  const error = (path: string, message: string) => problems.push({ path, message, severity: 'error' });
  const parsed = parseStrictJson(text);
  if (!parsed.ok) return { problems: [{ path: '', message: `not valid JSON (${parsed.error.message})`, severity: 'error' }] };
  const root = parsed.value;
  if (!isRecord(root)) return { problems: [{ path: '', message: 'a task file is an object: "model", "prompts", "reward", "steps"…', severity: 'error' }] };
  for (const key of Object.keys(root)) if (!known.includes(key)) problems.push({ path: key, message: `"${key}" is not part of a task and is ignored`, severity: 'warning' });

  const text_ = (key: string, required: boolean, max = 500): string | undefined => {
    const value = own(root, key);
    if (value === undefined) {
      if (required) error(key, `a task needs "${key}"`);
      return undefined;
    }
    if (typeof value !== 'string' || value.trim() === '' || value.length > max) {
      error(key, `"${key}" is text of at most ${max} characters`);
      return undefined;
    }
    return value.trim();
  };
  const whole = (key: string, fallback: number | undefined, bounds: { min: number; max: number }, value = own(root, key), path = key): number | undefined => {
    if (value === undefined) {
      if (fallback === undefined) error(path, `a task needs "${path}"`);
      return fallback;
    }
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < bounds.min || value > bounds.max) {
      error(path, `"${path}" is a whole number from ${bounds.min.toLocaleString('en-US')} to ${bounds.max.toLocaleString('en-US')}`);
      return undefined;
    }
    return value;
  };

  const name = text_('name', false, 80) ?? fileStem;
  if (!/^[\w.-]+$/.test(name) || name.startsWith('.'))
    error(own(root, 'name') === undefined ? '' : 'name', `the run's name "${name.slice(0, 80)}" names a folder: letters, digits, ".", "-" and "_" only`);
  const model = text_('model', true, 300);
  if (model !== undefined && model.split('/').length !== 3) error('model', '"model" is the training model as entity/project/name');
  const baseModel = text_('baseModel', false, 300);
  const prompts = text_('prompts', true);
  const heldOut = text_('heldOut', false);
  const reward = readReward(own(root, 'reward'), problems);
  const groupSize = whole('groupSize', 8, taskLimits.groupSize);
  const promptsPerStep = whole('promptsPerStep', 16, taskLimits.promptsPerStep);
  const steps = whole('steps', undefined, taskLimits.steps);
  const evaluateEvery = whole('evaluateEvery', heldOut ? 1 : 0, { min: 0, max: taskLimits.steps.max });
  if (evaluateEvery !== undefined && evaluateEvery > 0 && heldOut === undefined) problems.push({ path: 'evaluateEvery', message: 'there is no "heldOut" set to evaluate', severity: 'warning' });
  const concurrency = whole('concurrency', 8, taskLimits.concurrency);
  const keep = own(root, 'keepNoSignalGroups');
  if (keep !== undefined && typeof keep !== 'boolean') error('keepNoSignalGroups', '"keepNoSignalGroups" is true or false');

  const sampling = readSampling(own(root, 'sampling'), problems, whole);
  const budgetValue = own(root, 'budget');
  let budget: Task['budget'] | undefined;
  if (!isRecord(budgetValue)) error('budget', 'a task needs "budget": {"requests": …, "tokens": …}, the most it may spend');
  else {
    const requests = whole('requests', undefined, taskLimits.budgetRequests, own(budgetValue, 'requests'), 'budget.requests');
    const tokens = whole('tokens', undefined, taskLimits.budgetTokens, own(budgetValue, 'tokens'), 'budget.tokens');
    if (requests !== undefined && tokens !== undefined) budget = { requests, tokens };
  }
  const config = own(root, 'experimentalConfig');
  if (config !== undefined && !isRecord(config)) error('experimentalConfig', '"experimentalConfig" is an object of the training\'s settings');

  if (problems.some((problem) => problem.severity === 'error')) return { problems };
  return {
    task: {
      name,
      model: model!,
      ...(baseModel ? { baseModel } : {}),
      prompts: prompts!,
      ...(heldOut ? { heldOut } : {}),
      reward: reward!,
      groupSize: groupSize!,
      promptsPerStep: promptsPerStep!,
      steps: steps!,
      evaluateEvery: heldOut ? evaluateEvery! : 0,
      sampling: sampling!,
      concurrency: concurrency!,
      keepNoSignalGroups: keep === true,
      budget: budget!,
      ...(isRecord(config) ? { experimentalConfig: config } : {}),
    },
    problems,
  };
}

function readReward(value: unknown, problems: TaskProblem[]): TaskReward | undefined {
  const error = (path: string, message: string) => {
    problems.push({ path, message, severity: 'error' });
    return undefined;
  };
  if (!isRecord(value)) return error('reward', 'a task needs "reward": {"kind": "exactMatch"}, a judge, {"kind": "relativeJudge", "model": …, "rubric": …} or a command');
  if (own(value, 'kind') === 'relativeJudge') {
    const model = own(value, 'model');
    const rubric = own(value, 'rubric');
    if (typeof model !== 'string' || model === '' || model.length > 300) return error('reward.model', 'a relative judge names its "model"');
    if (typeof rubric !== 'string' || rubric === '' || rubric.length > 20_000) return error('reward.rubric', 'a relative judge needs a "rubric" (text)');
    return { kind: 'relativeJudge', model, rubric };
  }
  const read = readScorerSpec(value);
  if ('error' in read) return error('reward', `${read.error.replace('its "kind" must be', '"kind" is')}${read.error.includes('"kind"') ? ', or relativeJudge' : ''}`);
  return { kind: 'scorer', spec: read.spec };
}

function readSampling(
  value: unknown,
  problems: TaskProblem[],
  whole: (key: string, fallback: number | undefined, bounds: { min: number; max: number }, value?: unknown, path?: string) => number | undefined,
): TaskSampling | undefined {
  const defaults: TaskSampling = { temperature: 1, maxTokens: 512 };
  if (value === undefined) return defaults;
  if (!isRecord(value)) {
    problems.push({ path: 'sampling', message: '"sampling" is an object: "temperature", "maxTokens", "topP"', severity: 'error' });
    return undefined;
  }
  const temperature = own(value, 'temperature') ?? defaults.temperature;
  if (typeof temperature !== 'number' || !(temperature >= 0 && temperature <= 2)) {
    problems.push({ path: 'sampling.temperature', message: '"temperature" is a number from 0 to 2', severity: 'error' });
    return undefined;
  }
  if (temperature === 0) problems.push({ path: 'sampling.temperature', message: 'at temperature 0 every answer of a group is the same: no group has a signal to learn from', severity: 'warning' });
  const maxTokens = whole('maxTokens', defaults.maxTokens, taskLimits.maxTokens, own(value, 'maxTokens'), 'sampling.maxTokens');
  const topP = own(value, 'topP');
  if (topP !== undefined && (typeof topP !== 'number' || !(topP > 0 && topP <= 1))) {
    problems.push({ path: 'sampling.topP', message: '"topP" is a number above 0, at most 1', severity: 'error' });
    return undefined;
  }
  if (maxTokens === undefined) return undefined;
  return { temperature, maxTokens, ...(topP !== undefined ? { topP: topP as number } : {}) };
}
