/**
 * What the inspector holds of one rollout file, record by record as it is read: the groups'
 * summaries (the first `maxGroups`), the file's statistics over every group, the problems (the
 * first `maxProblems`, then a count), and where reading stopped. A file that grows is followed by
 * reading on from `next` into the same collection.
 */
import type { GroupSummary } from './groupSummaryShape';
import { startOfFile, type IncompleteLine, type RolloutPosition, type RolloutProblem, type RolloutRecord } from './rolloutRecords';
import { RolloutStatisticsBuilder, type RolloutStatistics } from './rolloutStatistics';

export interface RolloutCollectionOptions {
  maxGroups?: number;
  maxProblems?: number;
}

export const defaultMaxProblems = 200;
/**
 * Summaries kept. The benchmark's 12,500 groups of 8 (a 196 MB file) grow the heap by about 45 MB
 * while read, under 4 KB a group at the peak, so the cap keeps a file of any size under about 400 MB.
 */
export const defaultMaxGroups = 100_000;

export interface RolloutSnapshot {
  statistics: RolloutStatistics;
  /** Groups read (summarised), kept or not. */
  groupsRead: number;
  problems: RolloutProblem[];
  /** Problems beyond those listed. */
  problemsNotListed: number;
  /** Groups beyond `maxGroups`: counted in the statistics, their summaries not kept. */
  groupsNotKept: number;
  next: RolloutPosition;
  /** The unfinished last line of the latest reading, read again from `next` when the file grows. */
  incomplete: IncompleteLine | undefined;
}

export class RolloutCollection {
  private readonly kept: GroupSummary[] = [];
  private readonly listed: RolloutProblem[] = [];
  private readonly statistics = new RolloutStatisticsBuilder();
  private readonly maxGroups: number;
  private readonly maxProblems: number;
  private notListed = 0;
  private notKept = 0;
  private read = 0;
  private position: RolloutPosition = startOfFile;
  private unfinished: IncompleteLine | undefined;

  constructor(options: RolloutCollectionOptions = {}) {
    this.maxGroups = options.maxGroups ?? defaultMaxGroups;
    this.maxProblems = options.maxProblems ?? defaultMaxProblems;
  }

  add(record: RolloutRecord): void {
    if (record.kind === 'incomplete') {
      this.unfinished = { line: record.line, offset: record.offset, bytes: record.bytes };
      return;
    }
    // Reading went on past the line that was unfinished (it is read again from `next`).
    this.unfinished = undefined;
    this.position = record.next;
    if (record.kind === 'problem') {
      if (this.listed.length < this.maxProblems) this.listed.push(record.problem);
      else this.notListed++;
      return;
    }
    this.read++;
    this.statistics.add(record.summary);
    if (this.kept.length < this.maxGroups) this.kept.push(record.summary);
    else this.notKept++;
  }

  /** The summaries kept, in file order. */
  get groups(): readonly GroupSummary[] {
    return this.kept;
  }

  get groupsRead(): number {
    return this.read;
  }

  /** Line, byte offset and group index of the next unread group: where reading goes on when the file grows. */
  get next(): RolloutPosition {
    return this.position;
  }

  snapshot(): RolloutSnapshot {
    return {
      statistics: this.statistics.snapshot(),
      groupsRead: this.read,
      problems: this.listed.slice(),
      problemsNotListed: this.notListed,
      groupsNotKept: this.notKept,
      next: this.position,
      incomplete: this.unfinished,
    };
  }
}
