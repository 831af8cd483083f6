/**
 * The summary of a trajectory group as the rollout inspector keeps it (a few numbers per trajectory
 * and the flags that point at groups worth a look), and its trajectories read back as objects.
 * groupSummary.ts makes summaries; the list, statistics and queries read them.
 */
import { setOwn } from '../../platform/kit/plainValues';

export type GroupFlag = 'noSignal' | 'highVariance' | 'exceptions' | 'truncated' | 'emptyOrRepetitive' | 'doNothingSibling';

export const groupFlags: readonly GroupFlag[] = ['noSignal', 'highVariance', 'exceptions', 'truncated', 'emptyOrRepetitive', 'doNothingSibling'];

/**
 * What each flag means, in the words every surface uses: the page's badges, toggles and tooltips,
 * and the report the agent's tool writes (a short badge, a name, and what it says about a group).
 */
export const groupFlagMeanings: Readonly<Record<GroupFlag, { badge: string; label: string; meaning: string }>> = {
  noSignal: { badge: 'NS', label: 'no signal', meaning: 'every trajectory got the same reward, so the group teaches nothing' },
  highVariance: { badge: 'HV', label: 'high variance', meaning: 'rewards within the group spread widely' },
  exceptions: { badge: 'EX', label: 'exceptions', meaning: 'the rollout recorded exceptions' },
  truncated: { badge: 'TR', label: 'truncated', meaning: 'a trained turn stopped at its length limit' },
  emptyOrRepetitive: { badge: 'ER', label: 'empty or repetitive', meaning: 'a trained turn is empty or repeats itself' },
  doNothingSibling: { badge: 'DN', label: 'do-nothing sibling', meaning: 'a trajectory that does almost nothing has a positive advantage' },
};

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
   * space) and no tool call is "doing nothing" when its siblings call tools (the task is work, and it
   * did none), or whatever its siblings do when its text holds no letter or digit at all (empty,
   * "..."). A short answer such as `42` to a question is an answer, not nothing. With a positive
   * advantage it is `doNothingSibling`.
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
  /** Numeric metrics, booleans as 1 and 0 (other values are left out). */
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
  /**
   * Zero-based line where the group starts, and its byte offset. In a Parquet trajectory log both
   * are the group's first row (zero-based): the log has no lines or byte places of groups.
   */
  line: number;
  offset: number;
  /**
   * The group's length in bytes from `offset`: its .jsonl line without the line ending, or its
   * element of a .json array, so one positioned read gives its text back. In a Parquet log: the
   * rows the group spans from its first.
   */
  bytes: number;
  /** Trajectories summarised: those that are objects with a numeric reward (all of them in a well-formed group). */
  trajectoryCount: number;
  reward: { mean: number; std: number; min: number; max: number };
  /** `columnCount` numbers per trajectory, in the order of `Column`. */
  columns: Float64Array;
  /**
   * Finish reasons of every trajectory's trained choices, one after the other (the `Choices` column
   * says how many each). Read only: groups with the same reasons may share one array, as may
   * groups with the same `metricKeys` (fewer objects for the collector to keep walking).
   */
  finishReasons: string[];
  /** Numeric and boolean metric keys of the group's trajectories, and their values (a boolean as 1 or 0): `metricKeys.length` per trajectory, NaN where one lacks a key. */
  metricKeys: string[];
  metricValues: Float64Array;
  /**
   * The metric keys (bit `i` for `metricKeys[i]`) whose every value in this group was a boolean
   * (the official client's `correct: true`): their means are rates.
   */
  booleanMetrics: number;
  exceptionCount: number;
  /** The group's metadata, small: at most `maxMetadataKeys` keys, each value cut to a short text. */
  metadata: Record<string, string | number | boolean | null>;
  /** In the order of `groupFlags`. Read only: every group with the same flags shares one frozen array. */
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

/** Where a group is in its file: its position among the groups, its first line, and its bytes from `offset`. */
export interface GroupPlace {
  index: number;
  line: number;
  offset: number;
  bytes: number;
}
