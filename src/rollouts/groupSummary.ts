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

/** One trajectory of a group, as `trajectoriesOf` gives it. */
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

/** The numbers kept per trajectory, in this order, in `GroupSummary.columns`. */
export const enum Column {
  Reward,
  Advantage,
  NormalizedAdvantage,
  CompletionLength,
  Choices,
  Repetition,
}
export const columnCount = 6;

/**
 * A group's summary. Its trajectories are kept as columns of numbers rather than an object each:
 * a file of 100,000 trajectories then holds a few objects per group instead of several per
 * trajectory, which the garbage collector would otherwise walk again on every collection while the
 * file is read (it made reading half again as slow). `trajectoriesOf` gives them as objects.
 */
export interface GroupSummary {
  /** Zero-based position of the group in the file. */
  index: number;
  /** Zero-based line where the group starts, and its byte offset. */
  line: number;
  offset: number;
  trajectoryCount: number;
  reward: { mean: number; std: number; min: number; max: number };
  /** `columnCount` numbers per trajectory, in the order of `Column`. */
  columns: Float64Array;
  /** Finish reasons of every trajectory's trained choices, one after the other (the `Choices` column says how many each). */
  finishReasons: string[];
  /** Numeric metric keys of the group's trajectories, and their values: `metricKeys.length` per trajectory, NaN where one lacks a key. */
  metricKeys: string[];
  metricValues: Float64Array;
  exceptionCount: number;
  /** The group's metadata, small: at most `maxMetadataKeys` keys, each value cut to a short text. */
  metadata: Record<string, string | number | boolean | null>;
  flags: GroupFlag[];
}

/** The trajectories of a summary as objects, for a view that shows them. */
export function trajectoriesOf(group: GroupSummary): TrajectorySummary[] {
  const trajectories: TrajectorySummary[] = [];
  let reason = 0;
  const keys = group.metricKeys.length;
  for (let position = 0; position < group.trajectoryCount; position++) {
    const at = position * columnCount;
    const choices = group.columns[at + Column.Choices]!;
    const metrics: Record<string, number> = {};
    for (let key = 0; key < keys; key++) {
      const value = group.metricValues[position * keys + key]!;
      if (!Number.isNaN(value)) setOwn(metrics, group.metricKeys[key]!, value);
    }
    trajectories.push({
      reward: group.columns[at + Column.Reward]!,
      advantage: group.columns[at + Column.Advantage]!,
      normalizedAdvantage: group.columns[at + Column.NormalizedAdvantage]!,
      finishReasons: group.finishReasons.slice(reason, reason + choices),
      completionLength: group.columns[at + Column.CompletionLength]!,
      choices,
      repetition: group.columns[at + Column.Repetition]!,
      metrics,
    });
    reason += choices;
  }
  return trajectories;
}

export const maxMetadataKeys = 16;
export const maxMetadataValueChars = 120;
/** Metric keys kept per group: a group with more keys than this keeps the first ones. */
export const maxMetricKeys = 32;

export type SummaryResult = { ok: true; summary: GroupSummary } | { ok: false; message: string };

/** Summarises one parsed group, or says why the value is not a trajectory group. */
export function summarizeGroup(value: unknown, place: { index: number; line: number; offset: number }, thresholds: SummaryThresholds = defaultThresholds): SummaryResult {
  if (!isRecord(value)) return { ok: false, message: 'not a trajectory group: expected an object with "trajectories"' };
  const list = value.trajectories;
  if (!Array.isArray(list)) return { ok: false, message: 'not a trajectory group: "trajectories" is missing or not an array' };
  const count = list.length;
  const columns = new Float64Array(count * columnCount);
  const finishReasons: string[] = [];
  const metricKeys: string[] = [];
  // Pairs of (key index, value) per trajectory, placed once every key is known.
  const metricEntries: number[] = [];
  const metricEnds: number[] = [];
  const facts = { empty: false, trivial: false };
  let anyEmptyOrRepetitive = false;
  // Trajectories that do nothing: a flag only once their advantage is known.
  const trivial: boolean[] = [];
  let sum = 0;
  let min = count > 0 ? Infinity : 0;
  let max = count > 0 ? -Infinity : 0;
  for (let position = 0; position < count; position++) {
    const trajectory: unknown = list[position];
    if (!isRecord(trajectory)) return { ok: false, message: `trajectory ${position + 1} is not an object` };
    const reward = trajectory.reward;
    if (typeof reward !== 'number' || !Number.isFinite(reward)) return { ok: false, message: `trajectory ${position + 1} has no numeric "reward"` };
    summarizeTrajectory(trajectory, columns, position * columnCount, finishReasons, facts, thresholds);
    columns[position * columnCount + Column.Reward] = reward;
    collectMetrics(trajectory.metrics, metricKeys, metricEntries);
    metricEnds.push(metricEntries.length);
    trivial.push(facts.trivial);
    if (facts.empty || columns[position * columnCount + Column.Repetition]! > thresholds.repetitionRatio) anyEmptyOrRepetitive = true;
    sum += reward;
    if (reward < min) min = reward;
    if (reward > max) max = reward;
  }

  const mean = count > 0 ? sum / count : 0;
  let squares = 0;
  for (let at = 0; at < columns.length; at += columnCount) squares += (columns[at + Column.Reward]! - mean) ** 2;
  const std = count > 0 ? Math.sqrt(squares / count) : 0;
  let doNothingSibling = false;
  for (let position = 0; position < count; position++) {
    const at = position * columnCount;
    const advantage = columns[at + Column.Reward]! - mean;
    columns[at + Column.Advantage] = advantage;
    columns[at + Column.NormalizedAdvantage] = std > 0 ? advantage / std : 0;
    if (advantage > 0 && trivial[position]) doNothingSibling = true;
  }
  const metricValues = new Float64Array(count * metricKeys.length).fill(NaN);
  for (let position = 0, entry = 0; position < count; position++) {
    for (; entry < metricEnds[position]!; entry += 2) metricValues[position * metricKeys.length + metricEntries[entry]!] = metricEntries[entry + 1]!;
  }

  const exceptionCount = Array.isArray(value.exceptions) ? value.exceptions.length : 0;
  const flags: GroupFlag[] = [];
  if (count > 0 && min === max) flags.push('noSignal');
  if (std > thresholds.highVarianceStd) flags.push('highVariance');
  if (exceptionCount > 0) flags.push('exceptions');
  if (finishReasons.includes('length')) flags.push('truncated');
  if (anyEmptyOrRepetitive) flags.push('emptyOrRepetitive');
  if (doNothingSibling) flags.push('doNothingSibling');

  return {
    ok: true,
    summary: {
      index: place.index,
      line: place.line,
      offset: place.offset,
      trajectoryCount: count,
      reward: { mean, std, min, max },
      columns,
      finishReasons,
      metricKeys,
      metricValues,
      exceptionCount,
      metadata: smallMetadata(value.metadata),
      flags,
    },
  };
}

/**
 * One pass over a trajectory's items, writing its numbers into `columns` at `at` and its finish
 * reasons onto `finishReasons`. `facts.empty`: a choice with no text and no tool call.
 * `facts.trivial`: no trained choice at all, or trained choices with no tool call and under
 * `trivialChars` of text in all (after trimming white space): the trajectory does nothing.
 */
function summarizeTrajectory(
  trajectory: Record<string, unknown>,
  columns: Float64Array,
  at: number,
  finishReasons: string[],
  facts: { empty: boolean; trivial: boolean },
  thresholds: SummaryThresholds,
): void {
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
      const calls = item.message.tool_calls;
      const callCount = Array.isArray(calls) ? calls.length : 0;
      completionLength += content.length + (callCount > 0 ? toolCallLength(calls as unknown[]) : 0);
      if (callCount > 0) toolCalls = true;
      // Trimming scans only the white space at the ends, and copies nothing when there is none.
      const textChars = content.trim().length;
      if (textChars === 0 && callCount === 0) empty = true;
      trimmedChars += textChars;
      const ratio = content.length === 0 ? 0 : repetitionRatio(content);
      if (ratio > repetition) repetition = ratio;
    }
  }
  columns[at + Column.CompletionLength] = completionLength;
  columns[at + Column.Choices] = choices;
  columns[at + Column.Repetition] = repetition;
  facts.empty = empty;
  facts.trivial = !toolCalls && trimmedChars < thresholds.trivialChars;
}

function toolCallLength(calls: unknown[]): number {
  let length = 0;
  for (const call of calls) {
    const fn = isRecord(call) && isRecord(call.function) ? call.function : undefined;
    if (!fn) continue;
    if (typeof fn.name === 'string') length += fn.name.length;
    if (typeof fn.arguments === 'string') length += fn.arguments.length;
  }
  return length;
}

/** Adds a trajectory's numeric metrics as (key index, value) pairs, growing the group's keys up to `maxMetricKeys`. */
function collectMetrics(metrics: unknown, keys: string[], entries: number[]): void {
  if (!isRecord(metrics)) return;
  for (const key in metrics) {
    const metric = metrics[key];
    if (typeof metric !== 'number' || !Number.isFinite(metric)) continue;
    let index = keys.indexOf(key);
    if (index < 0) {
      if (keys.length >= maxMetricKeys) continue;
      index = keys.push(key) - 1;
    }
    entries.push(index, metric);
  }
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
