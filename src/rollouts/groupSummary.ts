/**
 * What the rollout inspector shows of one trajectory group: a few numbers per trajectory and the
 * flags that point at groups worth a look, never the group itself (the editor reads a group's
 * text again from its line when the user opens it).
 */
import { repetitionRatio } from './repetition';

export type GroupFlag = 'noSignal' | 'highVariance' | 'exceptions' | 'truncated' | 'emptyOrRepetitive' | 'doNothingSibling';

export const groupFlags: readonly GroupFlag[] = ['noSignal', 'highVariance', 'exceptions', 'truncated', 'emptyOrRepetitive', 'doNothingSibling'];

export interface SummaryThresholds {
  /**
   * A group whose rewards have a population standard deviation above this is `highVariance`. An
   * absolute figure: 0.4 suits rewards in [0, 1], where the most a group can reach is 0.5 (half at
   * 0, half at 1); a file with rewards on another scale passes its own.
   */
  highVarianceStd: number;
  /** A choice whose repetition ratio (see repetition.ts) is above this is repetitive. */
  repetitionRatio: number;
  /**
   * A trajectory whose trained turns hold fewer characters than this in all (after trimming white
   * space) and no tool call is "doing nothing"; with a positive advantage it is `doNothingSibling`.
   */
  trivialChars: number;
}

export const defaultThresholds: SummaryThresholds = { highVarianceStd: 0.4, repetitionRatio: 0.5, trivialChars: 8 };

export interface TrajectorySummary {
  reward: number;
  /** reward − the group's mean reward. */
  advantage: number;
  /** The advantage divided by the group's standard deviation, or 0 when that is 0. */
  normalizedAdvantage: number;
  /** Finish reasons of the trained choices, in order. */
  finishReasons: string[];
  /** Characters of the trained choices: content plus tool-call names and arguments. */
  completionLength: number;
  /** Trained choices (choices, not plain messages: only choices carry the model's own tokens). */
  choices: number;
  /** The highest repetition ratio of any trained choice. */
  repetition: number;
  /** Numeric metrics (booleans and other values are left out). */
  metrics: Record<string, number>;
}

export interface GroupSummary {
  /** Zero-based position of the group in the file. */
  index: number;
  /** Zero-based line where the group starts, and its byte offset. */
  line: number;
  offset: number;
  trajectoryCount: number;
  reward: { mean: number; std: number; min: number; max: number };
  trajectories: TrajectorySummary[];
  exceptionCount: number;
  /** The group's metadata, small: at most `maxMetadataKeys` keys, each value cut to a short text. */
  metadata: Record<string, string | number | boolean | null>;
  flags: GroupFlag[];
}

export const maxMetadataKeys = 16;
export const maxMetadataValueChars = 120;
/** Metrics kept per trajectory: a file with more keys than this keeps the first ones. */
export const maxMetricKeys = 32;

export type SummaryResult = { ok: true; summary: GroupSummary } | { ok: false; message: string };

/** Summarises one parsed group, or says why the value is not a trajectory group. */
export function summarizeGroup(value: unknown, place: { index: number; line: number; offset: number }, thresholds: SummaryThresholds = defaultThresholds): SummaryResult {
  if (!isRecord(value)) return { ok: false, message: 'not a trajectory group: expected an object with "trajectories"' };
  const list = value.trajectories;
  if (!Array.isArray(list)) return { ok: false, message: 'not a trajectory group: "trajectories" is missing or not an array' };
  const trajectories: TrajectorySummary[] = [];
  let anyEmptyOrRepetitive = false;
  // Trajectories that do nothing: a flag only once their advantage is known.
  const trivial: boolean[] = [];
  for (let position = 0; position < list.length; position++) {
    const trajectory: unknown = list[position];
    if (!isRecord(trajectory)) return { ok: false, message: `trajectory ${position + 1} is not an object` };
    const reward = trajectory.reward;
    if (typeof reward !== 'number' || !Number.isFinite(reward)) return { ok: false, message: `trajectory ${position + 1} has no numeric "reward"` };
    const facts = summarizeTrajectory(trajectory, reward, thresholds);
    trajectories.push(facts.summary);
    trivial.push(facts.trivial);
    if (facts.empty || facts.summary.repetition > thresholds.repetitionRatio) anyEmptyOrRepetitive = true;
  }

  const count = trajectories.length;
  let sum = 0;
  let min = count > 0 ? Infinity : 0;
  let max = count > 0 ? -Infinity : 0;
  for (const { reward } of trajectories) {
    sum += reward;
    if (reward < min) min = reward;
    if (reward > max) max = reward;
  }
  const mean = count > 0 ? sum / count : 0;
  let squares = 0;
  for (const { reward } of trajectories) squares += (reward - mean) ** 2;
  const std = count > 0 ? Math.sqrt(squares / count) : 0;
  for (const trajectory of trajectories) {
    trajectory.advantage = trajectory.reward - mean;
    trajectory.normalizedAdvantage = std > 0 ? trajectory.advantage / std : 0;
  }

  const exceptionCount = Array.isArray(value.exceptions) ? value.exceptions.length : 0;
  const flags: GroupFlag[] = [];
  if (count > 0 && min === max) flags.push('noSignal');
  if (std > thresholds.highVarianceStd) flags.push('highVariance');
  if (exceptionCount > 0) flags.push('exceptions');
  if (trajectories.some((trajectory) => trajectory.finishReasons.includes('length'))) flags.push('truncated');
  if (anyEmptyOrRepetitive) flags.push('emptyOrRepetitive');
  if (trajectories.some((trajectory, position) => trajectory.advantage > 0 && trivial[position])) flags.push('doNothingSibling');

  return {
    ok: true,
    summary: {
      index: place.index,
      line: place.line,
      offset: place.offset,
      trajectoryCount: count,
      reward: { mean, std, min, max },
      trajectories,
      exceptionCount,
      metadata: smallMetadata(value.metadata),
      flags,
    },
  };
}

/**
 * One pass over a trajectory's items. `empty`: a choice with no text and no tool call. `trivial`:
 * no trained choice at all, or trained choices with no tool call and under `trivialChars` of text
 * in all (after trimming white space): the trajectory does nothing.
 */
function summarizeTrajectory(trajectory: Record<string, unknown>, reward: number, thresholds: SummaryThresholds): { summary: TrajectorySummary; empty: boolean; trivial: boolean } {
  const finishReasons: string[] = [];
  let completionLength = 0;
  let choices = 0;
  let repetition = 0;
  let empty = false;
  let toolCalls = false;
  let trimmedChars = 0;
  const items = trajectory.messages_and_choices;
  if (Array.isArray(items)) {
    for (const item of items) {
      // A choice (not a plain message): the model's own tokens, the ones trained on.
      if (!isRecord(item) || !('finish_reason' in item) || !isRecord(item.message)) continue;
      choices++;
      finishReasons.push(typeof item.finish_reason === 'string' ? item.finish_reason : 'unknown');
      const content = typeof item.message.content === 'string' ? item.message.content : '';
      const calls = toolCallLength(item.message.tool_calls);
      completionLength += content.length + calls.length;
      if (calls.count > 0) toolCalls = true;
      // Trimming scans only the white space at the ends, and copies nothing when there is none.
      const textChars = content.trim().length;
      if (textChars === 0 && calls.count === 0) empty = true;
      trimmedChars += textChars;
      const ratio = content.length === 0 ? 0 : repetitionRatio(content);
      if (ratio > repetition) repetition = ratio;
    }
  }
  return {
    summary: { reward, advantage: 0, normalizedAdvantage: 0, finishReasons, completionLength, choices, repetition, metrics: numericMetrics(trajectory.metrics) },
    empty,
    trivial: !toolCalls && trimmedChars < thresholds.trivialChars,
  };
}

function toolCallLength(calls: unknown): { count: number; length: number } {
  if (!Array.isArray(calls)) return { count: 0, length: 0 };
  let length = 0;
  for (const call of calls) {
    const fn = isRecord(call) && isRecord(call.function) ? call.function : undefined;
    if (!fn) continue;
    if (typeof fn.name === 'string') length += fn.name.length;
    if (typeof fn.arguments === 'string') length += fn.arguments.length;
  }
  return { count: calls.length, length };
}

function numericMetrics(metrics: unknown): Record<string, number> {
  // A plain object: trajectories with the same keys share one hidden class, which keeps reading them fast.
  const kept: Record<string, number> = {};
  if (!isRecord(metrics)) return kept;
  let keys = 0;
  for (const key in metrics) {
    const metric = metrics[key];
    if (typeof metric !== 'number' || !Number.isFinite(metric)) continue;
    if (++keys > maxMetricKeys) break;
    setOwn(kept, key, metric);
  }
  return kept;
}

function smallMetadata(metadata: unknown): GroupSummary['metadata'] {
  const kept: GroupSummary['metadata'] = {};
  if (!isRecord(metadata)) return kept;
  let keys = 0;
  for (const key in metadata) {
    if (++keys > maxMetadataKeys) break;
    const value = metadata[key];
    const small =
      value === null || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value)) ? value : cut(typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value)));
    setOwn(kept, key, small);
  }
  return kept;
}

/** Sets a key of a plain object; "__proto__" is defined as an own property (assigning it would set the prototype). */
function setOwn<T>(target: Record<string, T>, key: string, value: T): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

function cut(text: string): string {
  return text.length <= maxMetadataValueChars ? text : `${text.slice(0, maxMetadataValueChars - 1)}…`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
