/**
 * Checkpoint evaluation, as data: an eval set's samples, the scorers, the models compared, the
 * sampling parameters, and every answer with its scores. A run is saved as one results file in the
 * workspace (`*.rleval.json`): readable, diffable (answers in a stable order), committable, and the
 * cache of the next run (an answer is never asked again for the same model, sample, parameters and
 * draw). The report page is drawn from the same file. No `vscode` here.
 */
import { scoringLimits, type NamedScorer } from '../../platform/scoring/scorerSpec';
import { defaultConcurrency, maxConcurrency } from '../../platform/client/requestScheduler';
import type { ChatMessage } from '../../platform/client/types';

/** One prompt of an eval set. */
export interface EvalSample {
  /** Stable within its set: the sample's `id` when the file gives one, else a hash of its prompt and reference. */
  id: string;
  messages: ChatMessage[];
  /** The expected answer, for scorers that compare with one. */
  reference?: string;
  metadata?: Record<string, unknown>;
  /** Zero-based line of the sample in its file (a trajectory group's line for a set made from one). */
  line: number;
}

/** The sampling of every request of a run: fixed, so answers are comparable and cached. */
export interface EvalParameters {
  temperature: number;
  seed: number;
  /** Answers drawn per prompt and model. */
  n: number;
  maxTokens: number;
  topP?: number;
}

/** A model compared in a run. */
export interface EvalModelRef {
  /** The model id as sent in `model` (a checkpoint's `wandb-artifact:///…:stepN`, a catalogue id). */
  id: string;
  /** How the report names it: "step 120", "base", a catalogue id. */
  label: string;
  kind: 'checkpoint' | 'base' | 'catalogue';
  /** Which API answers it: checkpoints through the training API, catalogue models through the inference API. */
  api: 'training' | 'inference';
  /** A checkpoint's step and its training model, and the checkpoint's own training metrics (for the score-against-step chart). */
  step?: number;
  trainingModelId?: string;
  metrics?: Record<string, number>;
}

/** One answer of one model to one sample (draw `draw` of `n`), with its scores or its failure. */
export interface AnswerRecord {
  model: string;
  sample: string;
  draw: number;
  /** `cacheKey` of the model, sample, parameters and draw: what makes an answer reusable. */
  key: string;
  text?: string;
  finishReason?: string;
  /** Why no answer came (a 4xx/5xx, a timeout), in words; the answer is asked again by the next run. */
  error?: string;
  /** Each scorer's score by name, or why it could not score (a judge that failed, a command that crashed). */
  scores: Record<string, number | { error: string }>;
  latencyMs?: number;
  usage?: { promptTokens: number; completionTokens: number };
}

/** The results file of a run. */
export interface EvalRunFile {
  kind: 'rl-studio-eval';
  version: 1;
  /** The eval set: its path relative to the workspace, and a hash of its samples (a changed set invalidates nothing by itself: keys include each sample's content). */
  set: { path: string; hash: string; samples: number };
  scorers: NamedScorer[];
  parameters: EvalParameters;
  models: EvalModelRef[];
  /** Sorted by model (in `models` order), sample (in set order), draw. */
  answers: AnswerRecord[];
  createdAt: string;
  updatedAt: string;
}

/** A model's standing in the report. */
export interface LeaderboardRow {
  model: string;
  label: string;
  step?: number;
  /** Mean of the primary scorer over every scored answer, with a 95 % confidence interval. */
  mean: number;
  low: number;
  high: number;
  scored: number;
  failed: number;
}

export const evalLimits = {
  samples: 10_000,
  models: 32,
  draws: 16,
  scorers: scoringLimits.scorers,
  /** `max_tokens` of each request: a long answer fits; a file asking for a million does not spend it. */
  maxTokens: 32_768,
  commandArgs: scoringLimits.commandArgs,
  commandChars: scoringLimits.commandChars,
  maxScoredChars: scoringLimits.maxScoredChars,
  /** Requests in flight at once: the default of the concurrency setting, and its most. */
  defaultConcurrency,
  maxConcurrency,
} as const;
