/**
 * The comparison of a file's old rewards with a new reward, group by group: whether each group has
 * a signal to learn from before and after (its rewards are not all equal), its advantages under
 * each reward, and how far they moved; over the file, the share of groups with signal, the mean
 * rewards and the correlation of old and new. Built one group at a time and bounded: the figures
 * over the whole file are running sums, and only the groups that disagree most are kept whole.
 */

/** The bounds of a comparison, whatever the file holds. */
export const comparisonLimits = {
  /** Groups kept for the page (the ones that disagree most). */
  keptGroups: 200,
  /** Trajectories of a kept group shown in its detail (all of them count in its figures). */
  keptTrajectories: 32,
  /** Characters of a kept answer. */
  answerChars: 1_000,
  /** Distinct reasons a new score could not be given, kept with their counts. */
  scoreErrors: 10,
  errorChars: 300,
} as const;

/** Two rewards closer than this are equal: a float written and read back is not always bit-identical. */
const equalRewards = 1e-9;

/** One trajectory as compared: its answer (cut), old reward, new score, or why it got none. */
export interface ComparedTrajectory {
  answer: string;
  /** Characters of the answer left out of `answer`. */
  omittedChars: number;
  before: number | null;
  after: number | null;
  /** Why the new reward gave no score (e.g. no reference), when it did not. */
  error?: string;
}

/** Advantages as a trainer computes them from a group's rewards. */
export interface Advantages {
  /** reward − the group's mean. */
  centered: number[];
  /** (reward − mean) / the group's standard deviation, as GRPO does; 0 everywhere when the rewards are all equal. */
  normalized: number[];
}

export interface GroupComparison {
  /** Zero-based index among the groups read, and where the group is in the file (line or first row). */
  index: number;
  line: number;
  trajectories: number;
  /** Trajectories with both an old reward and a new score: the figures below are over these. */
  compared: number;
  meanBefore: number;
  meanAfter: number;
  /** Highest minus lowest reward in the group. */
  spreadBefore: number;
  spreadAfter: number;
  signalBefore: boolean;
  signalAfter: boolean;
  /** Mean over the compared trajectories of |normalized advantage after − before|: how much the reward changes what the group teaches. */
  disagreement: number;
  /** Spearman's rank correlation of old and new within the group, or null when either side has no spread. */
  rankCorrelation: number | null;
  /** The first trajectories, with their advantages (null for one not compared). */
  kept: (ComparedTrajectory & { advantageBefore: number | null; advantageAfter: number | null })[];
}

export interface ComparisonTotals {
  groups: number;
  trajectories: number;
  /** Trajectories with both rewards. */
  compared: number;
  /** Groups with at least two compared trajectories (the only ones a signal can be told for). */
  groupsCompared: number;
  signalBefore: number;
  signalAfter: number;
  gainedSignal: number;
  lostSignal: number;
  meanBefore: number | null;
  meanAfter: number | null;
  /** Pearson's correlation of old and new rewards over every compared trajectory, or null without spread. */
  correlation: number | null;
  /** Trajectories with no old reward (not a number). */
  withoutOldReward: number;
  /** Trajectories the new reward could not score, and its reasons with how often each came. */
  notScored: number;
  scoreErrors: { message: string; count: number }[];
}

export interface Comparison {
  totals: ComparisonTotals;
  /** The groups that disagree most, most first (ties: file order). */
  groups: GroupComparison[];
  /** Groups read but not kept for the page. */
  groupsNotKept: number;
}

/** The advantages of a group's rewards; `normalized` uses the population standard deviation. */
export function advantagesOf(rewards: readonly number[]): Advantages {
  if (rewards.length === 0) return { centered: [], normalized: [] };
  const mean = rewards.reduce((sum, reward) => sum + reward, 0) / rewards.length;
  const centered = rewards.map((reward) => reward - mean);
  const std = Math.sqrt(centered.reduce((sum, value) => sum + value * value, 0) / rewards.length);
  const normalized = std <= equalRewards ? centered.map(() => 0) : centered.map((value) => value / std);
  return { centered, normalized };
}

/** Whether rewards teach anything to a group-relative trainer: at least two that differ. */
export function hasSignal(rewards: readonly number[]): boolean {
  return spreadOf(rewards) > equalRewards;
}

function spreadOf(rewards: readonly number[]): number {
  if (rewards.length === 0) return 0;
  let low = rewards[0]!;
  let high = low;
  for (const reward of rewards) {
    if (reward < low) low = reward;
    if (reward > high) high = reward;
  }
  return high - low;
}

/** The ranks of values, ties given their mean rank. */
function ranks(values: readonly number[]): number[] {
  const order = values.map((value, at) => ({ value, at })).sort((a, b) => a.value - b.value);
  const result = new Array<number>(values.length);
  for (let start = 0; start < order.length;) {
    let end = start;
    while (end + 1 < order.length && Math.abs(order[end + 1]!.value - order[start]!.value) <= equalRewards) end++;
    for (let at = start; at <= end; at++) result[order[at]!.at] = (start + end) / 2;
    start = end + 1;
  }
  return result;
}

function pearson(xs: readonly number[], ys: readonly number[]): number | null {
  const sums = new CorrelationSums();
  for (let at = 0; at < xs.length; at++) sums.add(xs[at]!, ys[at]!);
  return sums.correlation();
}

/** Running sums for Pearson's correlation, so a file of any size needs no list of its rewards. */
class CorrelationSums {
  n = 0;
  private sx = 0;
  private sy = 0;
  private sxx = 0;
  private syy = 0;
  private sxy = 0;

  add(x: number, y: number): void {
    this.n++;
    this.sx += x;
    this.sy += y;
    this.sxx += x * x;
    this.syy += y * y;
    this.sxy += x * y;
  }

  mean(side: 'x' | 'y'): number | null {
    return this.n === 0 ? null : (side === 'x' ? this.sx : this.sy) / this.n;
  }

  correlation(): number | null {
    const varianceX = this.n * this.sxx - this.sx * this.sx;
    const varianceY = this.n * this.syy - this.sy * this.sy;
    if (this.n < 2 || varianceX <= equalRewards || varianceY <= equalRewards) return null;
    return Math.max(-1, Math.min(1, (this.n * this.sxy - this.sx * this.sy) / Math.sqrt(varianceX * varianceY)));
  }
}

/** A group's figures, and the advantages of its compared trajectories (by position in the group). */
interface GroupFigures extends Omit<GroupComparison, 'index' | 'line' | 'rankCorrelation' | 'kept'> {
  both: number[];
  before: number[];
  after: number[];
  advantagesBefore: number[];
  advantagesAfter: number[];
}

function groupFigures(trajectories: readonly ComparedTrajectory[]): GroupFigures {
  const both: number[] = [];
  const before: number[] = [];
  const after: number[] = [];
  for (let at = 0; at < trajectories.length; at++) {
    const trajectory = trajectories[at]!;
    if (trajectory.before === null || trajectory.after === null) continue;
    both.push(at);
    before.push(trajectory.before);
    after.push(trajectory.after);
  }
  const advantagesBefore = advantagesOf(before).normalized;
  const advantagesAfter = advantagesOf(after).normalized;
  // The disagreement is the mean move of the normalized advantages (rather than a rank correlation):
  // it is what the trainer's gradient sees, it is defined when a side has no spread (a group that
  // gains or loses its signal moves by about 1 per trajectory, the most there is), and, being
  // normalized, it compares an old reward in [0, 1] with a new one of another scale.
  let moved = 0;
  for (let at = 0; at < both.length; at++) moved += Math.abs(advantagesAfter[at]! - advantagesBefore[at]!);
  const spreadBefore = spreadOf(before);
  const spreadAfter = spreadOf(after);
  return {
    trajectories: trajectories.length,
    compared: both.length,
    meanBefore: meanOf(before),
    meanAfter: meanOf(after),
    spreadBefore,
    spreadAfter,
    signalBefore: spreadBefore > equalRewards,
    signalAfter: spreadAfter > equalRewards,
    disagreement: both.length === 0 ? 0 : moved / both.length,
    both,
    before,
    after,
    advantagesBefore,
    advantagesAfter,
  };
}

function meanOf(values: readonly number[]): number {
  let sum = 0;
  for (const value of values) sum += value;
  return values.length === 0 ? 0 : sum / values.length;
}

/** A group's comparison whole, with its first trajectories for the page. */
function keptGroup(index: number, line: number, trajectories: readonly ComparedTrajectory[], figures: GroupFigures): GroupComparison {
  const { both, before, after, advantagesBefore, advantagesAfter, ...shown } = figures;
  const position = new Map(both.map((at, place) => [at, place]));
  return {
    index,
    line,
    ...shown,
    rankCorrelation: figures.signalBefore && figures.signalAfter ? pearson(ranks(before), ranks(after)) : null,
    kept: trajectories.slice(0, comparisonLimits.keptTrajectories).map((trajectory, at) => {
      const place = position.get(at);
      const answer = trajectory.answer.slice(0, comparisonLimits.answerChars);
      return {
        answer,
        omittedChars: trajectory.omittedChars + trajectory.answer.length - answer.length,
        before: trajectory.before,
        after: trajectory.after,
        ...(trajectory.error === undefined ? {} : { error: trajectory.error }),
        advantageBefore: place === undefined ? null : advantagesBefore[place]!,
        advantageAfter: place === undefined ? null : advantagesAfter[place]!,
      };
    }),
  };
}

/** Compares one group's old and new rewards. */
export function compareGroup(index: number, line: number, trajectories: readonly ComparedTrajectory[]): GroupComparison {
  return keptGroup(index, line, trajectories, groupFigures(trajectories));
}

/** Most disagreement first; equal ones in file order. */
function byDisagreement(a: GroupComparison, b: GroupComparison): number {
  return b.disagreement - a.disagreement || a.index - b.index;
}

/** The comparison built group by group. */
export class ComparisonBuilder {
  private readonly sums = new CorrelationSums();
  private readonly totals: Omit<ComparisonTotals, 'meanBefore' | 'meanAfter' | 'correlation' | 'scoreErrors'> = {
    groups: 0,
    trajectories: 0,
    compared: 0,
    groupsCompared: 0,
    signalBefore: 0,
    signalAfter: 0,
    gainedSignal: 0,
    lostSignal: 0,
    withoutOldReward: 0,
    notScored: 0,
  };
  private readonly errors = new Map<string, number>();
  private kept: GroupComparison[] = [];
  /** The least of the kept groups after the last trim, when as many as are kept were: a group that does not beat it is not kept. */
  private least: GroupComparison | undefined;

  constructor(private readonly keep: number = comparisonLimits.keptGroups) {}

  add(index: number, line: number, trajectories: readonly ComparedTrajectory[]): void {
    const totals = this.totals;
    totals.groups++;
    totals.trajectories += trajectories.length;
    for (const trajectory of trajectories) {
      if (trajectory.before === null) totals.withoutOldReward++;
      if (trajectory.after === null) {
        totals.notScored++;
        this.countError(trajectory.error ?? 'no score');
      }
      if (trajectory.before !== null && trajectory.after !== null) this.sums.add(trajectory.before, trajectory.after);
    }
    const group = groupFigures(trajectories);
    totals.compared += group.compared;
    if (group.compared >= 2) {
      totals.groupsCompared++;
      if (group.signalBefore) totals.signalBefore++;
      if (group.signalAfter) totals.signalAfter++;
      if (!group.signalBefore && group.signalAfter) totals.gainedSignal++;
      if (group.signalBefore && !group.signalAfter) totals.lostSignal++;
    }
    // Only a group that would be kept is copied whole (its answers cut): most of a large file's are not.
    if (this.kept.length >= this.keep && this.beaten(group.disagreement, index)) return;
    this.kept.push(keptGroup(index, line, trajectories, group));
    // Trimmed in batches: a sort per group would cost more than the scoring.
    if (this.kept.length >= 2 * this.keep) this.trim();
  }

  result(): Comparison {
    this.trim();
    return {
      totals: {
        ...this.totals,
        meanBefore: this.sums.mean('x'),
        meanAfter: this.sums.mean('y'),
        correlation: this.sums.correlation(),
        scoreErrors: [...this.errors].map(([message, count]) => ({ message, count })).sort((a, b) => b.count - a.count),
      },
      groups: this.kept,
      groupsNotKept: this.totals.groups - this.kept.length,
    };
  }

  private trim(): void {
    this.kept.sort(byDisagreement);
    if (this.kept.length > this.keep) this.kept.length = this.keep;
    this.least = this.kept.length >= this.keep ? this.kept[this.kept.length - 1] : undefined;
  }

  /** Whether a group would fall off the kept ones: it disagrees no more than the least of them (which comes first in the file). */
  private beaten(disagreement: number, index: number): boolean {
    return this.least !== undefined && byDisagreement(this.least, { disagreement, index } as GroupComparison) <= 0;
  }

  private countError(message: string): void {
    const text = message.slice(0, comparisonLimits.errorChars);
    const count = this.errors.get(text);
    if (count !== undefined) this.errors.set(text, count + 1);
    else if (this.errors.size < comparisonLimits.scoreErrors) this.errors.set(text, 1);
  }
}

export interface RescoringResult extends Comparison {
  /** Groups that could not be read (not JSON, too long, no trajectories), the first few with their lines. */
  unreadable: number;
  problems: { line: number; message: string }[];
  /** Why reading stopped before the end of the file, when it did. */
  stoppedEarly?: string;
}
