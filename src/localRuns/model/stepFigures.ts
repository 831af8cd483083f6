/**
 * The figures of one step of a run: how many groups and trajectories its file holds, their mean
 * reward, and how many groups carry each of the rollout inspector's flags. Made from the
 * inspector's own group summaries (the host hands them over), so a flag means here what it means
 * there.
 */
import type { StepFigures } from '../protocol';

/** What a step's figures need of a group's summary (the rollout inspector's GroupSummary has it). */
export interface GroupFacts {
  trajectoryCount: number;
  reward: { mean: number };
  flags: readonly string[];
}

export class StepTally {
  private groups = 0;
  private trajectories = 0;
  private rewardSum = 0;
  private unreadable = 0;
  private readonly counts: number[];

  /** `flags`: the flags counted, in the order the page draws them. */
  constructor(private readonly flags: readonly string[]) {
    this.counts = flags.map(() => 0);
  }

  add(group: GroupFacts | undefined): void {
    if (!group || group.trajectoryCount === 0) {
      this.unreadable++;
      return;
    }
    this.groups++;
    this.trajectories += group.trajectoryCount;
    // The group's mean weighted by its size: the step's mean is the mean of all its trajectories.
    if (Number.isFinite(group.reward.mean)) this.rewardSum += group.reward.mean * group.trajectoryCount;
    for (const flag of group.flags) {
      const at = this.flags.indexOf(flag);
      if (at >= 0) this.counts[at]!++;
    }
  }

  figures(): StepFigures {
    const figures: StepFigures = { groups: this.groups, trajectories: this.trajectories, flagCounts: [...this.counts], unreadableGroups: this.unreadable };
    if (this.trajectories > 0) figures.meanReward = this.rewardSum / this.trajectories;
    return figures;
  }
}

/**
 * The order in which a run's steps are read: spread over the whole run first (the last step, the
 * first, the middle, then the quarters…), so the first batches already draw the run's shape and its
 * latest state, and later batches fill in between. Each position once.
 */
export function coarseToFine(count: number): number[] {
  if (count <= 0) return [];
  const order: number[] = [];
  const taken = new Uint8Array(count);
  const take = (position: number) => {
    if (position >= 0 && position < count && !taken[position]) {
      taken[position] = 1;
      order.push(position);
    }
  };
  take(count - 1);
  take(0);
  for (let parts = 2; order.length < count && parts < count * 2; parts *= 2) {
    for (let part = 1; part < parts; part += 2) take(Math.round((part * (count - 1)) / parts));
  }
  for (let position = 0; position < count; position++) take(position);
  return order;
}
