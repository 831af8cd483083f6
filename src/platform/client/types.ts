/**
 * Wire types of the platform's training and inference APIs, as the wire reference describes them.
 * Fields the service does not document are optional and the client tolerates their absence.
 */

/** The platform's two APIs: the training API (models, checkpoints, jobs, chat with checkpoints) and the inference API (catalogue models). */
export type PlatformApi = 'training' | 'inference';

/** Cursor-paginated list (checkpoints and training-job events). */
export interface Page<T> {
  object?: 'list';
  data: T[];
  first_id?: string;
  last_id?: string;
  has_more: boolean;
}

export interface PageQuery {
  /** Cursor: the id of the last item seen. */
  after?: string;
  /** 1..100, server default 20. */
  limit?: number;
}

export interface CheckpointQuery extends PageQuery {
  order?: 'asc' | 'desc';
}

// ---------------------------------------------------------------- chat completions

export type ChatRole = 'system' | 'user' | 'assistant' | 'tool';

export interface ChatMessage {
  role: ChatRole;
  content: string;
  name?: string;
  tool_call_id?: string;
  tool_calls?: unknown[];
}

export interface ChatCompletionRequest {
  model: string;
  messages: ChatMessage[];
  temperature?: number;
  top_p?: number;
  max_tokens?: number;
  stop?: string | string[];
  seed?: number;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  response_format?: { type: 'text' | 'json_object' } | { type: 'json_schema'; json_schema: unknown };
  tools?: unknown[];
  /** Extra fields are passed through to the server unchanged. */
  [extra: string]: unknown;
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export interface ChatCompletionChoice {
  index: number;
  message: { role: 'assistant'; content: string | null; reasoning?: string | null; tool_calls?: unknown[] };
  finish_reason: string | null;
  logprobs?: unknown;
}

export interface ChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: ChatCompletionChoice[];
  usage?: Usage;
}

export interface ChatCompletionChunkChoice {
  index: number;
  delta: { role?: 'assistant'; content?: string | null; reasoning?: string | null; tool_calls?: unknown[] };
  finish_reason: string | null;
}

export interface ChatCompletionChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  choices: ChatCompletionChunkChoice[];
  /** Present on the last chunk (with empty choices) when stream_options.include_usage is set. */
  usage?: Usage | null;
}

// ---------------------------------------------------------------- models

export interface ModelListEntry {
  id: string;
  object: 'model';
  created: number;
  owned_by: string;
  root?: string;
  /** The model's context in tokens, as vLLM servers send it; a hint only, checked before use (src/chat/model/pickerModels.ts). */
  max_model_len?: number;
}

export interface ModelList {
  object: 'list';
  data: ModelListEntry[];
}

export interface CreateModelRequest {
  project: string;
  name: string;
  base_model: string;
  entity?: string;
  return_existing?: boolean;
}

export interface TrainingModel {
  id: string;
  entity: string;
  project: string;
  name: string;
  base_model: string;
  run_id?: string | null;
}

export interface DeleteModelResult {
  model_id: string;
  deleted_checkpoints: number;
  deleted_run: boolean;
}

export interface Checkpoint {
  id: string;
  step: number;
  metrics: Record<string, number>;
}

export interface DeleteCheckpointsResult {
  deleted_count: number;
  not_found_steps: number[];
}

// ---------------------------------------------------------------- trajectories

export interface TrajectoryChoice {
  index: number;
  finish_reason: string;
  message: { role: 'assistant'; content: string | null; tool_calls?: unknown[] };
  logprobs?: unknown;
}

export type MessageOrChoice = ChatMessage | TrajectoryChoice;

export interface Trajectory {
  messages_and_choices: MessageOrChoice[];
  reward: number;
  tools?: unknown[];
  metrics?: Record<string, number | boolean>;
  metadata?: Record<string, unknown>;
  logs?: string[];
  additional_histories?: unknown[];
}

export interface TrajectoryGroup {
  trajectories: Trajectory[];
  exceptions?: { type: string; message: string; traceback?: string }[];
  metadata?: Record<string, unknown>;
  metrics?: Record<string, number | boolean>;
  logs?: string[];
}

export interface LogRequest {
  split: string;
  trajectory_groups: TrajectoryGroup[];
}

// ---------------------------------------------------------------- training jobs

export interface ExperimentalConfig {
  learning_rate?: number;
  loss_fn?: 'cispo' | 'ppo';
  normalize_advantages?: boolean;
  scale_rewards?: boolean;
  kl_penalty_coef?: number;
  importance_sampling_level?: 'token' | 'sequence' | 'average' | 'geometric_average';
  allow_training_without_logprobs?: boolean;
  epsilon?: number;
  epsilon_high?: number;
  packed_sequence_length?: number;
  [key: string]: unknown;
}

export interface CreateTrainingJobRequest {
  model_id: string;
  trajectory_groups: TrajectoryGroup[];
  experimental_config?: ExperimentalConfig;
}

export interface CreateSftJobRequest {
  model_id: string;
  training_data_url: string;
  config?: { batch_size?: number | 'auto'; learning_rate?: number | number[] };
}

export interface CreatedJob {
  id: string;
}

/** `GET /training-jobs/{id}`: only `id` is documented; the rest has been observed. */
export interface TrainingJob {
  id: string;
  status?: string;
  training_start?: string | null;
  training_end?: string | null;
  error_message?: string | null;
  [extra: string]: unknown;
}

export type TrainingJobEventType = 'training_started' | 'gradient_step' | 'training_ended' | 'training_failed';

export interface TrainingJobEvent {
  id: string;
  /** Known types are listed; unknown ones are passed through. */
  type: TrainingJobEventType | (string & {});
  data: Record<string, unknown>;
  /** Not documented; present on some servers. */
  created_at?: string | number;
}

// ---------------------------------------------------------------- health

export interface SystemCheckEntry {
  success: boolean;
  duration?: number;
  error?: string | null;
}

export interface SystemCheck {
  api?: SystemCheckEntry;
  database?: SystemCheckEntry;
  cpu_queue?: SystemCheckEntry;
  gpu_queue?: SystemCheckEntry;
  [check: string]: SystemCheckEntry | unknown;
}
