/** Request body schemas of the training and inference APIs, after the wire reference. */
import type { ValidationIssue } from './httpError';
import { anyList, bool, dict, int, isPlainObject, list, literal, nullable, num, object, optional, recordOf, required, str, union, type Loc, type Schema } from './validation';

const numberOrBool = union(num, bool);

const chatMessage = object({
  role: required(str),
  content: optional(nullable(union(str, anyList))),
  tool_calls: optional(anyList),
});

const trajectoryChoice = object({
  index: optional(int),
  finish_reason: required(str),
  message: required(object({ role: required(str), content: optional(nullable(str)), tool_calls: optional(anyList) })),
});

/** A message or a choice; a choice is told apart by its `message` field, as the official client does. */
const messageOrChoice: Schema = (value: unknown, loc: Loc, issues: ValidationIssue[]) => {
  if (isPlainObject(value) && 'message' in value && !('role' in value)) trajectoryChoice(value, loc, issues);
  else chatMessage(value, loc, issues);
};

export const trajectory = object({
  messages_and_choices: required(list(messageOrChoice)),
  reward: required(num),
  tools: optional(nullable(anyList)),
  metrics: optional(recordOf(numberOrBool)),
  metadata: optional(dict),
  logs: optional(list(str)),
  additional_histories: optional(anyList),
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

export const logBody = object({
  split: required(str),
  trajectory_groups: required(list(trajectoryGroup)),
});

export const experimentalConfig = object({
  learning_rate: optional(nullable(num)),
  loss_fn: optional(nullable(literal('cispo', 'ppo'))),
  normalize_advantages: optional(nullable(bool)),
  scale_rewards: optional(nullable(bool)),
  kl_penalty_coef: optional(nullable(num)),
  importance_sampling_level: optional(nullable(literal('token', 'sequence', 'average', 'geometric_average'))),
  allow_training_without_logprobs: optional(nullable(bool)),
  epsilon: optional(nullable(num)),
  epsilon_high: optional(nullable(num)),
  packed_sequence_length: optional(nullable(int)),
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
});
