/** The platform's fixed catalogues: trainable base models and the inference model list. */
import type { InferenceModel } from './context';

export const BASE_MODELS: readonly string[] = ['OpenPipe/Qwen3-14B-Instruct', 'Qwen/Qwen2.5-7B-Instruct', 'Qwen/Qwen3-30B-A3B-Instruct-2507', 'meta-llama/Llama-3.1-8B-Instruct'];

/** 2025-06-01T00:00:00Z, so that `created` does not change between runs. */
const CATALOGUE_CREATED = 1748736000;

export const INFERENCE_MODELS: readonly InferenceModel[] = [
  { id: 'OpenPipe/Qwen3-14B-Instruct', created: CATALOGUE_CREATED, owned_by: 'openpipe', root: 'OpenPipe/Qwen3-14B-Instruct', maxModelLen: 131_072 },
  { id: 'meta-llama/Llama-3.1-8B-Instruct', created: CATALOGUE_CREATED, owned_by: 'meta-llama', root: 'meta-llama/Llama-3.1-8B-Instruct', maxModelLen: 16_384 },
  { id: 'Qwen/Qwen3-235B-A22B-Instruct-2507', created: CATALOGUE_CREATED, owned_by: 'qwen', root: 'Qwen/Qwen3-235B-A22B-Instruct-2507', maxModelLen: 262_144 },
  // Says nothing about its context, as some servers do.
  { id: 'deepseek-ai/DeepSeek-R1-reasoning-demo', created: CATALOGUE_CREATED, owned_by: 'deepseek-ai', root: 'deepseek-ai/DeepSeek-R1' },
];
