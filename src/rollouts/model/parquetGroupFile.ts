/**
 * The official client's Parquet trajectory log as the inspector reads it (platform/parquet does the
 * reading): a group's place is its rows (`offset` its first row, `bytes` how many rows), progress
 * counts rows, and a changed file is read again whole (the client writes a step's file anew, never
 * appends to it). The file is opened for each reading and let go after it; the footer of the last
 * reading is kept, to read a group again without parsing it anew while the file's size holds.
 */
import { ColumnStore } from './columnStore';
import type { ByteSource } from './fileSource';
import type { GroupFile, GroupSearchOptions, GroupValueRecord, GroupValuesOptions } from './groupFile';
import { defaultThresholds, type GroupSummary } from './groupSummaryShape';
import { defaultMaxProblemsPerGroup, readGroupValue, type RolloutReadOptions } from './rolloutReader';
import type { RolloutPosition, RolloutProblem, RolloutRecord } from './rolloutRecords';
import { groupValueMessagesContain, plainPattern } from './textSearch';
import { exactBuffer, type ParquetSource } from '../../platform/parquet/parquetFile';
import { openTrajectoryLog, readLoggedGroupAt, readLoggedGroups, type LoggedGroup, type TrajectoryLog } from '../../platform/parquet/trajectoryLog';

/** Groups read again one by one (a few pages each); more than this are read in one pass over their rows. */
const groupsReadOneByOne = 32;

export class ParquetGroupFile implements GroupFile {
  readonly unit = 'rows';
  /** The footer of the file as last opened, and the file's size then. */
  private footer: { log: TrajectoryLog; byteLength: number } | undefined;

  constructor(private readonly open: () => Promise<ParquetSource>) {}

  /** Opens the file, reads its footer and checks it is a trajectory log; its rows are the extent. */
  async extent(): Promise<number> {
    const log = await this.withSource(async (source) => openTrajectoryLog(source));
    this.footer = { log, byteLength: log.source.byteLength };
    return log.rowCount;
  }

  async appendedOnly(): Promise<boolean> {
    return false;
  }

  async *records(from: RolloutPosition, options: RolloutReadOptions): AsyncGenerator<RolloutRecord> {
    const thresholds = options.thresholds ?? defaultThresholds;
    const maxProblems = options.maxProblemsPerGroup ?? defaultMaxProblemsPerGroup;
    const store = new ColumnStore();
    let index = from.index;
    const source = await this.open();
    try {
      const log = await this.logOn(source);
      for await (const logged of readLoggedGroups(log, { rowStart: from.offset })) {
        const place = { index, line: logged.rowStart, offset: logged.rowStart, bytes: logged.rowCount };
        const end = logged.rowStart + logged.rowCount;
        const { summary, issues } = readGroupValue(logged.group, place, thresholds, maxProblems, store);
        if (summary) index++;
        const next = { line: end, offset: end, index };
        const problem = (message: string, severity: RolloutProblem['severity']): RolloutRecord => ({
          kind: 'problem',
          problem: { line: logged.rowStart, offset: logged.rowStart, bytes: logged.rowCount, message, severity },
          next,
        });
        // What the log's rows do not say right (a group split apart, too large) is a warning: the rows are still shown.
        for (const message of logged.problems) yield problem(message, 'warning');
        for (const issue of issues) yield problem(issue.message, issue.severity);
        if (summary) yield { kind: 'group', summary, next };
      }
    } finally {
      await source.close();
    }
  }

  async readEnded(): Promise<void> {}

  async groupValue(summary: GroupSummary): Promise<unknown> {
    return this.withSource(async (source) => {
      const logged = await readLoggedGroupAt(await this.logOn(source), summary.offset, summary.bytes);
      return logged && sameRows(logged, summary) ? logged.group : undefined;
    });
  }

  async *groupTexts(summaries: readonly GroupSummary[]): AsyncGenerator<string> {
    if (summaries.length === 0) return;
    const source = await this.open();
    try {
      const log = await this.logOn(source);
      if (summaries.length <= groupsReadOneByOne) {
        for (const summary of summaries) {
          const logged = await readLoggedGroupAt(log, summary.offset, summary.bytes);
          if (!logged || !sameRows(logged, summary)) throw new Error(`group ${summary.index + 1} is no longer in the file`);
          yield JSON.stringify(logged.group);
        }
        return;
      }
      // Many groups: one pass over the rows from the first to the last, keeping the ones asked for.
      let at = 0;
      const last = summaries[summaries.length - 1]!;
      for await (const logged of readLoggedGroups(log, { rowStart: summaries[0]!.offset, rowEnd: last.offset + last.bytes })) {
        const wanted = summaries[at];
        if (!wanted) break;
        if (logged.rowStart < wanted.offset) continue;
        if (!sameRows(logged, wanted)) throw new Error(`group ${wanted.index + 1} is no longer in the file`);
        yield JSON.stringify(logged.group);
        at++;
      }
      if (at < summaries.length) throw new Error(`group ${summaries[at]!.index + 1} is no longer in the file`);
    } finally {
      await source.close();
    }
  }

  async *groupValues(options: GroupValuesOptions): AsyncGenerator<GroupValueRecord[]> {
    const source = await this.open();
    try {
      const log = await this.logOn(source);
      // What re-scoring reads: rewards, metadata (where a reference is) and messages.
      const columns = ['reward', 'metadata', 'group_metadata', 'messages'].filter((column) => log.columns.includes(column));
      for await (const logged of readLoggedGroups(log, { columns, signal: options.signal })) {
        yield [{ kind: 'group', value: logged.group, line: logged.rowStart }];
        options.onProgress?.(logged.rowStart + logged.rowCount);
      }
    } finally {
      await source.close();
    }
  }

  async search(groups: readonly GroupSummary[], needle: string, options: GroupSearchOptions): Promise<Uint8Array> {
    const mask = new Uint8Array(groups.length);
    if (needle === '') return mask.fill(1);
    options.signal.throwIfAborted();
    const pattern = plainPattern(needle);
    await this.withSource(async (source) => {
      const log = await this.logOn(source);
      let position = 0;
      // The messages are all a search reads: the other columns are not decoded.
      for await (const logged of readLoggedGroups(log, { columns: ['messages'], signal: options.signal })) {
        while (position < groups.length && groups[position]!.offset < logged.rowStart) position++;
        if (position >= groups.length) break;
        options.onProgress(logged.rowStart + logged.rowCount);
        if (groups[position]!.offset !== logged.rowStart) continue;
        if (groupValueMessagesContain(logged.group, pattern)) mask[position] = 1;
        position++;
      }
    });
    options.signal.throwIfAborted();
    return mask;
  }

  private async withSource<T>(use: (source: ParquetSource) => Promise<T>): Promise<T> {
    const source = await this.open();
    try {
      return await use(source);
    } finally {
      await source.close();
    }
  }

  /** The log on a source just opened: the footer read before while the file's size is the same, else read anew. */
  private async logOn(source: ParquetSource): Promise<TrajectoryLog> {
    if (this.footer && this.footer.byteLength === source.byteLength) return { ...this.footer.log, source };
    const log = await openTrajectoryLog(source);
    this.footer = { log, byteLength: source.byteLength };
    return log;
  }
}

/** Whether rows read again are the group a summary was made of: the same rows, as many trajectories with a reward. */
function sameRows(logged: LoggedGroup, summary: GroupSummary): boolean {
  if (logged.rowStart !== summary.offset || logged.rowCount !== summary.bytes) return false;
  const trajectories = logged.group.trajectories as { reward?: unknown }[];
  return trajectories.filter((trajectory) => typeof trajectory.reward === 'number' && Number.isFinite(trajectory.reward)).length === summary.trajectoryCount;
}

/**
 * A Parquet source over a byte source (a file of another scheme, read whole within a cap; tests):
 * each slice is one positioned read.
 */
export function parquetSourceOf(bytes: ByteSource): () => Promise<ParquetSource> {
  return async () => {
    const byteLength = await bytes.size();
    return {
      byteLength,
      slice: async (start, end) => {
        const from = Math.max(0, start);
        const part = await bytes.read(from, Math.max(0, Math.min(byteLength, end ?? byteLength) - from));
        return exactBuffer(part);
      },
      close: async () => undefined,
    };
  };
}
