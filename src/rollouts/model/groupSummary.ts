/**
 * Summarises one parsed trajectory group in a single walk (the summary's shape is in
 * groupSummaryShape.ts): a few numbers per trajectory and the flags that point at groups worth a
 * look, never the group itself (the editor reads a group's text again from its line when the user
 * opens it), and on the way whether the group is well formed (groupWellFormed.ts).
 */
import { ColumnStore } from './columnStore';
import {
  Column,
  columnCount,
  defaultThresholds,
  groupFlags,
  maxMetadataKeys,
  maxMetadataValueChars,
  maxMetricKeys,
  type GroupFlag,
  type GroupPlace,
  type GroupSummary,
  type SummaryThresholds,
} from './groupSummaryShape';
import { choiceWellFormed, groupFieldsWellFormed, messageWellFormed, trajectoryFieldsWellFormed } from './groupWellFormed';
import { cutText, isRecord, setOwn } from '../../platform/kit/plainValues';
import { repetitionRatio } from '../../platform/kit/repetition';

/**
 * `summary`: the group's summary, made from its trajectories that are objects with a numeric reward
 * (in file order), or undefined when it has none. `wellFormed`: true only when the group passes
 * every check of the trajectory-group shape (core/trajectoryShape.ts) without an error or a
 * warning, found on the way through the group; false when something is off or may be, and then the
 * caller runs the full check to say what. The walk sees every value that check looks at, so an
 * ordinary file never pays for a second walk.
 */
export interface SummaryResult {
  summary: GroupSummary | undefined;
  wellFormed: boolean;
}

const nothingToSummarize: SummaryResult = { summary: undefined, wellFormed: false };

/** Summarises one parsed group. */
export function summarizeGroup(value: unknown, place: GroupPlace, thresholds: SummaryThresholds = defaultThresholds, store?: ColumnStore): SummaryResult {
  if (!isRecord(value)) return nothingToSummarize;
  const list = value.trajectories;
  if (!Array.isArray(list)) return nothingToSummarize;
  let count = 0;
  for (let position = 0; position < list.length; position++) if (isReadable(list[position])) count++;
  if (count === 0) return nothingToSummarize;
  let wellFormed = count === list.length && groupFieldsWellFormed(value);
  const columns = store ? store.take(count * columnCount) : new Float64Array(count * columnCount);
  // Pairs of (key index, value) per trajectory, placed once every key is known.
  const work = workspace(list.length);
  // The group's finish reasons and metric keys gather in scratch lists; the summary gets a copy or a shared equal list.
  const finishReasons = work.reasons;
  const metricKeys = work.keys;
  finishReasons.length = 0;
  metricKeys.length = 0;
  let entries = 0;
  work.booleanKeys = 0;
  work.numericKeys = 0;
  const facts = work.facts;
  let anyEmptyOrRepetitive = false;
  // Trajectories that do nothing: a flag only once their advantage is known, and whether any
  // sibling called a tool (then a short text-only answer did none of the work).
  let groupCallsTools = false;
  let sum = 0;
  let min = Infinity;
  let max = -Infinity;
  for (let item = 0, position = 0; item < list.length; item++) {
    const trajectory: unknown = list[item];
    if (!isReadable(trajectory)) continue;
    const reward = trajectory.reward;
    const at = position * columnCount;
    summarizeTrajectory(trajectory, columns, at, finishReasons, facts, thresholds);
    columns[at + Column.Reward] = reward;
    const metrics = trajectory.metrics;
    if (metrics != null) {
      entries = collectMetrics(metrics, metricKeys, entries);
      if (entries < 0) {
        entries = -entries - 1;
        facts.wellFormed = false;
      }
    }
    if (!facts.wellFormed) wellFormed = false;
    work.ends[position] = entries;
    work.trivial[position] = facts.trivial ? (facts.wordless ? Trivial.Wordless : Trivial.Short) : Trivial.No;
    if (facts.callsTools) groupCallsTools = true;
    if (facts.empty || columns[at + Column.Repetition]! > thresholds.repetitionRatio) anyEmptyOrRepetitive = true;
    sum += reward;
    if (reward < min) min = reward;
    if (reward > max) max = reward;
    position++;
  }

  const mean = sum / count;
  let squares = 0;
  for (let at = 0; at < columns.length; at += columnCount) squares += (columns[at + Column.Reward]! - mean) ** 2;
  const std = Math.sqrt(squares / count);
  let doNothingSibling = false;
  for (let position = 0; position < count; position++) {
    const at = position * columnCount;
    const advantage = advantageOf(columns[at + Column.Reward]!, mean);
    columns[at + Column.Advantage] = advantage;
    columns[at + Column.NormalizedAdvantage] = std > 0 ? advantage / std : 0;
    const trivial = work.trivial[position]! as Trivial;
    if (advantage > 0 && (trivial === Trivial.Wordless || (trivial === Trivial.Short && groupCallsTools))) doNothingSibling = true;
  }
  const keyCount = metricKeys.length;
  const metricValues = store ? store.take(count * keyCount) : new Float64Array(count * keyCount);
  // A loop rather than `fill`: a builtin call costs more than the two dozen numbers of a group.
  for (let at = 0; at < metricValues.length; at++) metricValues[at] = NaN;
  for (let position = 0, entry = 0; position < count; position++) {
    for (; entry < work.ends[position]!; entry += 2) metricValues[position * keyCount + work.entries[entry]!] = work.entries[entry + 1]!;
  }

  releaseLargeWorkspace();

  const exceptionCount = Array.isArray(value.exceptions) ? value.exceptions.length : 0;
  // Bits in the order of `groupFlags`.
  const flags =
    (min === max ? 1 : 0) |
    (std > thresholds.highVarianceStd ? 2 : 0) |
    (exceptionCount > 0 ? 4 : 0) |
    (finishReasons.includes('length') ? 8 : 0) |
    (anyEmptyOrRepetitive ? 16 : 0) |
    (doNothingSibling ? 32 : 0);

  return {
    wellFormed,
    summary: {
      index: place.index,
      line: place.line,
      offset: place.offset,
      bytes: place.bytes,
      trajectoryCount: count,
      reward: { mean, std, min, max },
      columns,
      finishReasons: store ? store.sharedReasons(finishReasons) : finishReasons.slice(),
      metricKeys: store ? store.sharedKeys(metricKeys) : metricKeys.slice(),
      metricValues,
      booleanMetrics: work.booleanKeys & ~work.numericKeys,
      exceptionCount,
      metadata: smallMetadata(value.metadata),
      flags: flagLists[flags]!,
    },
  };
}

/** A trajectory the summary can use: an object with a finite numeric reward. */
function isReadable(value: unknown): value is Record<string, unknown> & { reward: number } {
  if (!isRecord(value)) return false;
  const reward = value.reward;
  return typeof reward === 'number' && Number.isFinite(reward);
}

// Read once: transpiled one module per file (as the tests and the benchmark run it), each call of an
// imported function goes through a getter, which the walk would pay per choice.
const ratioOf = repetitionRatio;

/** How little a trajectory's trained turns hold, for the do-nothing flag. */
const enum Trivial {
  No = 0,
  /** Under `trivialChars` of text and no tool call. */
  Short = 1,
  /** No tool call and no letter or digit at all. */
  Wordless = 2,
}

/** Relative size of a difference from the group's mean that is floating-point rounding, not an advantage. */
const advantageNoise = 1e-9;

/** A reward's difference from its group's mean, with rounding (`−3.5e-18` for rewards 0.1, 0.2, 0.3) taken as none. */
export function advantageOf(reward: number, mean: number): number {
  const raw = reward - mean;
  return Math.abs(raw) <= advantageNoise * Math.max(1, Math.abs(mean)) ? 0 : raw;
}

/** A letter or a digit in any script: text with none says nothing. */
export const wordCharacter = /[\p{L}\p{N}]/u;

interface TrajectoryFacts {
  /** A choice with no text and no tool call. */
  empty: boolean;
  /** No trained choice, or trained choices with no tool call and under `trivialChars` of text in all. */
  trivial: boolean;
  /** Trivial, and no letter or digit in its trained text. */
  wordless: boolean;
  /** A trained choice called a tool. */
  callsTools: boolean;
  /** Every value of the trajectory the shape check looks at passed it (metrics aside). */
  wellFormed: boolean;
}

/**
 * One pass over a trajectory's items, writing its numbers into `columns` at `at`, its finish
 * reasons onto `finishReasons`, and what else the group's flags and shape need into `facts`.
 *
 * The shape conditions mirror core/trajectoryShape.ts: a JSON value is never `undefined`, so a key
 * that is present reads as something else (`x.key !== undefined` is `'key' in x` for parsed JSON,
 * and cheaper).
 */
function summarizeTrajectory(trajectory: Record<string, unknown>, columns: Float64Array, at: number, finishReasons: string[], facts: TrajectoryFacts, thresholds: SummaryThresholds): void {
  let completionLength = 0;
  let choices = 0;
  let repetition = 0;
  let empty = false;
  let toolCalls = false;
  let trimmedChars = 0;
  let hasWord = false;
  let wellFormed = true;
  const items = trajectory.messages_and_choices;
  if (Array.isArray(items) && items.length > 0) {
    for (let index = 0; index < items.length; index++) {
      const item: unknown = items[index];
      if (!isRecord(item)) {
        wellFormed = false;
        continue;
      }
      const finishReason = item.finish_reason;
      const message = item.message;
      if (finishReason === undefined) {
        // A plain chat message (or, without "role", a choice that lacks its finish reason).
        if (wellFormed && !messageWellFormed(item)) wellFormed = false;
        continue;
      }
      // A choice with a message: the model's own tokens, the ones trained on.
      if (!isRecord(message)) {
        wellFormed = false;
        continue;
      }
      choices++;
      const reason = typeof finishReason === 'string' ? finishReason : 'unknown';
      finishReasons.push(reason);
      const content = typeof message.content === 'string' ? message.content : '';
      const calls = message.tool_calls;
      const callCount = Array.isArray(calls) ? calls.length : 0;
      completionLength += content.length + (callCount > 0 ? toolCallLength(calls as unknown[]) : 0);
      if (callCount > 0) toolCalls = true;
      const textChars = trimmedLength(content);
      if (textChars === 0 && callCount === 0) empty = true;
      // Only a text still short enough to be trivial is searched for a word: the rest cost nothing.
      if (!hasWord && textChars > 0 && trimmedChars < thresholds.trivialChars) hasWord = wordCharacter.test(content);
      trimmedChars += textChars;
      const ratio = content.length === 0 ? 0 : ratioOf(content);
      if (ratio > repetition) repetition = ratio;
      if (wellFormed && !choiceWellFormed(item, finishReason, message)) wellFormed = false;
    }
  } else {
    wellFormed = false;
  }
  if (choices === 0) wellFormed = false;
  if (wellFormed) wellFormed = trajectoryFieldsWellFormed(trajectory);
  columns[at + Column.CompletionLength] = completionLength;
  columns[at + Column.Choices] = choices;
  columns[at + Column.Repetition] = repetition;
  facts.empty = empty;
  facts.trivial = !toolCalls && trimmedChars < thresholds.trivialChars;
  facts.wordless = facts.trivial && !hasWord;
  facts.callsTools = toolCalls;
  facts.wellFormed = wellFormed;
}

/**
 * The length of `text` without white space at its ends, as `trim()` takes it: a text that starts
 * and ends with a visible ASCII character (nearly every one) is measured without a call.
 */
function trimmedLength(text: string): number {
  const length = text.length;
  if (length === 0) return 0;
  const first = text.charCodeAt(0);
  const last = text.charCodeAt(length - 1);
  return first > 0x20 && first < 0x7f && last > 0x20 && last < 0x7f ? length : text.trim().length;
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

/**
 * Adds a trajectory's numeric metrics to the workspace as (key index, value) pairs from `entries`,
 * growing the group's keys up to `maxMetricKeys` (booleans as 1 and 0), and returns the new end; −(end + 1) when the
 * metrics are not what the shape asks (an object of numbers and booleans).
 */
function collectMetrics(metrics: unknown, keys: string[], entries: number): number {
  if (!isRecord(metrics)) return -entries - 1;
  let wellFormed = true;
  for (const key in metrics) {
    const value = metrics[key];
    let metric: number;
    const isBoolean = typeof value === 'boolean';
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) {
        wellFormed = false;
        continue;
      }
      metric = value;
    } else if (isBoolean) {
      // A boolean metric (the official client's `correct: true`) counts as 1 or 0, so its mean is a rate.
      metric = value ? 1 : 0;
    } else {
      wellFormed = false;
      continue;
    }
    let index = keys.indexOf(key);
    if (index < 0) {
      if (keys.length >= maxMetricKeys) continue;
      index = keys.push(key) - 1;
    }
    // `maxMetricKeys` is 32: one bit per key.
    if (isBoolean) work.booleanKeys |= 1 << index;
    else work.numericKeys |= 1 << index;
    if (entries + 2 > work.entries.length) growEntries();
    work.entries[entries] = index;
    work.entries[entries + 1] = metric;
    entries += 2;
  }
  return wellFormed ? entries : -entries - 1;
}

/**
 * Scratch space of the summary's walk, reused from group to group (the walk is synchronous): the
 * metric pairs waiting for the group's keys to be known, where each trajectory's pairs end, and
 * which trajectories do nothing. Reusing it spares the collector several arrays per group.
 */
const work = {
  entries: new Float64Array(256),
  ends: new Int32Array(64),
  trivial: new Uint8Array(64),
  reasons: [] as string[],
  keys: [] as string[],
  facts: { empty: false, trivial: false, wordless: false, callsTools: false, wellFormed: true } as TrajectoryFacts,
  /** Bits of the metric keys that had a boolean value, and of those that had a number, in the group so far. */
  booleanKeys: 0,
  numericKeys: 0,
};

/**
 * The list of flags of each combination, by its bits in the order of `groupFlags`: groups with the
 * same flags share one frozen list (most groups have none or one), rather than keeping one each.
 */
const flagLists: readonly GroupFlag[][] = Array.from({ length: 1 << groupFlags.length }, (_, bits) => Object.freeze(groupFlags.filter((_flag, bit) => (bits & (1 << bit)) !== 0)) as GroupFlag[]);

function workspace(trajectories: number): typeof work {
  if (trajectories > work.ends.length) {
    work.ends = new Int32Array(trajectories);
    work.trivial = new Uint8Array(trajectories);
  }
  return work;
}

/** A huge group's scratch space is not kept for the next group. */
function releaseLargeWorkspace(): void {
  if (work.reasons.length > 1 << 12) work.reasons = [];
  if (work.keys.length > 1 << 12) work.keys = [];
  if (work.entries.length > 1 << 16) work.entries = new Float64Array(256);
  if (work.ends.length > 1 << 12) {
    work.ends = new Int32Array(64);
    work.trivial = new Uint8Array(64);
  }
}

function growEntries(): void {
  const larger = new Float64Array(work.entries.length * 2);
  larger.set(work.entries);
  work.entries = larger;
}

function smallMetadata(metadata: unknown): GroupSummary['metadata'] {
  const kept: GroupSummary['metadata'] = {};
  if (!isRecord(metadata)) return kept;
  let keys = 0;
  for (const key in metadata) {
    if (++keys > maxMetadataKeys) break;
    const value = metadata[key];
    const small =
      value === null || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))
        ? value
        : cutText(typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value)), maxMetadataValueChars);
    setOwn(kept, key, small);
  }
  return kept;
}
