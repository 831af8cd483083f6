/** Request body schemas of the training and inference APIs, after the wire reference. */
import type { ValidationIssue } from './httpError';
import { anyList, bool, dict, int, isPlainObject, list, literal, nullable, num, object, optional, recordOf, required, str, union, type Loc, type Schema } from './validation';

const numberOrBool = union(num, bool);

// Optional fields may come as `null`: the official client's models write every unset field that
// way (`"tools": null`, `"tool_calls": null`, `"logprobs": null`), and the service reads it as unset.

const toolCalls = optional(nullable(anyList));

const chatMessage = object({
  role: required(str),
  content: optional(nullable(union(str, anyList))),
  tool_calls: toolCalls,
});

/** A choice as the OpenAI SDK serialises it (`refusal`, `annotations`, `audio`, `function_call` and the like pass through). */
const trajectoryChoice = object({
  index: optional(int),
  finish_reason: required(str),
  message: required(object({ role: required(str), content: optional(nullable(str)), tool_calls: toolCalls })),
  logprobs: optional(nullable(dict)),
});

/** A message or a choice; a choice is told apart by its `message` field, as the official client does. */
const messageOrChoice: Schema = (value: unknown, loc: Loc, issues: ValidationIssue[]) => {
  if (isPlainObject(value) && 'message' in value && !('role' in value)) trajectoryChoice(value, loc, issues);
  else chatMessage(value, loc, issues);
};

const history = object({
  messages_and_choices: required(list(messageOrChoice)),
  tools: optional(nullable(anyList)),
});

export const trajectory = object({
  messages_and_choices: required(list(messageOrChoice)),
  reward: required(num),
  tools: optional(nullable(anyList)),
  metrics: optional(recordOf(numberOrBool)),
  metadata: optional(dict),
  logs: optional(list(str)),
  additional_histories: optional(list(history)),
  initial_policy_version: optional(nullable(int)),
  final_policy_version: optional(nullable(int)),
});

export const trajectoryGroup = object({
  trajectories: required(list(trajectory)),
  exceptions: optional(list(object({ type: required(str), message: required(str), traceback: optional(str) }))),
  metadata: optional(dict),
  metrics: optional(recordOf(numberOrBool)),
  logs: optional(list(str)),
});

export const createModelBody = object({
  project: required(str),
  name: required(str),
  base_model: required(str),
  entity: optional(nullable(str)),
  return_existing: optional(bool),
});

export const deleteCheckpointsBody = object({ steps: required(list(int)) });

/** The model's id may come in the body as well as the path (the official client sends both). */
export const logBody = object({
  model_id: optional(str),
  split: required(str),
  trajectory_groups: required(list(trajectoryGroup)),
});

/** The official client's experimental training config: every key optional, `null` for unset. */
export const experimentalConfig = object({
  advantage_balance: optional(nullable(num)),
  allow_training_without_logprobs: optional(nullable(bool)),
  epsilon: optional(nullable(num)),
  epsilon_high: optional(nullable(num)),
  importance_sampling_level: optional(nullable(literal('token', 'sequence', 'average', 'geometric_average'))),
  kimi_k2_tau: optional(nullable(num)),
  kl_penalty_coef: optional(nullable(num)),
  kl_penalty_reference_step: optional(nullable(int)),
  kl_penalty_source: optional(nullable(literal('current_learner', 'sample'))),
  kl_penalty_step_lag: optional(nullable(int)),
  kl_ref_adapter_path: optional(nullable(str)),
  learning_rate: optional(nullable(num)),
  logprob_calculation_chunk_size: optional(nullable(int)),
  loss_fn: optional(nullable(literal('cispo', 'ppo'))),
  mask_prob_ratio: optional(nullable(bool)),
  max_negative_advantage_importance_sampling_weight: optional(nullable(num)),
  normalize_advantages: optional(nullable(bool)),
  num_trajectories_learning_rate_multiplier_power: optional(nullable(num)),
  packed_sequence_length: optional(nullable(int)),
  plot_tensors: optional(nullable(bool)),
  ppo: optional(nullable(bool)),
  precalculate_logprobs: optional(nullable(bool)),
  scale_learning_rate_by_reward_std_dev: optional(nullable(bool)),
  scale_rewards: optional(nullable(bool)),
  truncated_importance_sampling: optional(nullable(num)),
});

export const createTrainingJobBody = object({
  model_id: required(str),
  trajectory_groups: required(list(trajectoryGroup)),
  experimental_config: optional(nullable(experimentalConfig)),
});

export const createSftJobBody = object({
  model_id: required(str),
  training_data_url: required(str),
  config: optional(
    nullable(
      object({
        batch_size: optional(union(int, literal('auto'))),
        learning_rate: optional(union(num, list(num))),
      }),
    ),
  ),
});

export const chatCompletionBody = object({
  model: required(str),
  messages: required(list(chatMessage)),
  max_tokens: optional(nullable(int)),
  max_completion_tokens: optional(nullable(int)),
  stop: optional(nullable(union(str, list(str)))),
  seed: optional(nullable(int)),
  stream: optional(nullable(bool)),
  stream_options: optional(nullable(object({ include_usage: optional(nullable(bool)) }))),
  response_format: optional(nullable(object({ type: required(literal('text', 'json_object', 'json_schema')) }))),
  temperature: optional(nullable(num)),
  top_p: optional(nullable(num)),
  n: optional(nullable(int)),
  logprobs: optional(nullable(bool)),
  top_logprobs: optional(nullable(int)),
});
