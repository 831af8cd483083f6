/**
 * One rollout file as the inspector holds it: its groups' summaries, statistics and problems, read
 * as a stream and followed as the file grows, and the answers the page asks for (pages of rows of
 * a query, a group whole, the groups an action applies to). No `vscode` here: the editor wires a
 * file watcher and the page to it, and tests drive it against real files.
 *
 * Reading is announced early (the first screen needs a few dozen groups, not the file) and then at
 * most every `announceEveryMs`; each announcement is a new version, after which the page asks its
 * rows again. One read runs at a time: a change seen while reading is read after it.
 */
import { openGroupFile } from './openGroupFile';
import { validateTrajectoryGroup, type JsonPath } from '../../platform/kit/trajectoryShape';
import type { ByteSource } from './fileSource';
import { buildGroupDetail } from './groupDetail';
import type { GroupFile } from './groupFile';
import type { GroupSummary, SummaryThresholds } from './groupSummaryShape';
import { GroupQueryCache, metadataChoices } from './groupQuery';
import type { GroupDetail, GroupQuery, MetadataChoices, RolloutFileState, RowsPage } from './inspectorModel';
import { RolloutCollection } from './rolloutCollection';
import type { TrajectoryFileFormat } from '../../platform/kit/trajectoryFile';
import { errorMessage } from '../../platform/client/errorMessage';
import type { ParquetSource } from '../../platform/parquet/parquetFile';
import { TrajectoryLogError } from '../../platform/parquet/trajectoryLog';

export interface InspectedFileOptions {
  fileName: string;
  format: TrajectoryFileFormat;
  source: ByteSource;
  /** How a Parquet log is opened for reading (a file on disk, read slice by slice); else through `source`. */
  openParquet?: () => Promise<ParquetSource>;
  thresholds?: SummaryThresholds;
  /** Milliseconds between announcements while reading (default 250). */
  announceEveryMs?: number;
  /** Groups that make a first screen: announced as soon as they are read (default 60). */
  firstScreenGroups?: number;
  now?: () => number;
}

/** The groups an action applies to, checked: positions among the file's groups, in file order. */
export type ScopeIndices = readonly number[];

export class InspectedFile {
  private collection = new RolloutCollection();
  private version = 0;
  /** Bumps on every full read: searches and places of an older generation are void. */
  private generation = 0;
  private reading: { bytesRead: number; totalBytes: number; unit?: 'rows' } | undefined;
  private error: string | undefined;
  private unreadable = false;
  private notTrajectoryLog = false;
  private running: Promise<void> | undefined;
  private changedWhileReading = false;
  private readonly file: GroupFile;
  private readonly listeners = new Set<(state: RolloutFileState) => void>();
  private readonly searchListeners = new Set<(text: string, bytesRead: number, totalBytes: number) => void>();
  private readonly queries = new GroupQueryCache();
  private search: { key: string; generation: number; groups: number; result: Promise<Uint8Array>; abort: AbortController } | undefined;
  private metadata: { version: number; choices: MetadataChoices[] } | undefined;
  private disposed = false;
  private readonly now: () => number;
  private thresholds: SummaryThresholds | undefined;

  constructor(private readonly options: InspectedFileOptions) {
    this.now = options.now ?? (() => performance.now());
    this.thresholds = options.thresholds;
    this.file = openGroupFile(options.source, options.format, options.openParquet);
  }

  /** Reads the file from the start; resolves when the whole file is read (or could not be). */
  open(): Promise<void> {
    return this.schedule(true);
  }

  /** The file changed on disk: reads what was appended, or the whole file again when it was rewritten. */
  changed(): Promise<void> {
    if (this.running) {
      this.changedWhileReading = true;
      return this.running;
    }
    return this.schedule(false);
  }

  /** Reads the whole file again with other thresholds for the flags (after the read running now). */
  async reread(thresholds: SummaryThresholds): Promise<void> {
    await this.settled();
    this.thresholds = thresholds;
    await this.schedule(true);
  }

  onDidChange(listener: (state: RolloutFileState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onSearchProgress(listener: (text: string, bytesRead: number, totalBytes: number) => void): () => void {
    this.searchListeners.add(listener);
    return () => this.searchListeners.delete(listener);
  }

  get format(): TrajectoryFileFormat {
    return this.options.format;
  }

  get groups(): readonly GroupSummary[] {
    return this.collection.groups;
  }

  /** Resolves when no read is running. */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  state(): RolloutFileState {
    const snapshot = this.collection.snapshot();
    return {
      fileName: this.options.fileName,
      format: this.options.format,
      ...(this.reading ? { reading: { ...this.reading } } : {}),
      version: this.version,
      statistics: snapshot.statistics,
      problems: snapshot.problems,
      problemsNotListed: snapshot.problemsNotListed,
      groupsNotKept: snapshot.groupsNotKept,
      metadata: this.metadataChoices(),
      ...(this.error ? { error: this.error } : {}),
      ...(this.unreadable ? { unreadable: true } : {}),
      ...(this.notTrajectoryLog ? { notTrajectoryLog: true } : {}),
    };
  }

  async rows(query: GroupQuery, start: number, count: number): Promise<RowsPage> {
    const matches = await this.textMatches(query.filter.text);
    return this.queries.page(this.collection.groups, query, start, count, this.version, matches);
  }

  /** Positions of the groups that match a query, in its order. */
  async matching(query: GroupQuery): Promise<Uint32Array> {
    const matches = await this.textMatches(query.filter.text);
    return this.queries.positions(this.collection.groups, query, this.version, matches);
  }

  /** One group whole, or null when the file no longer holds it where it was read (it is then read again). */
  async group(index: number): Promise<GroupDetail | null> {
    const read = await this.groupValue(index);
    if (!read) return null;
    const problems = validateTrajectoryGroup(read.value).map((issue) => (issue.path.length > 0 ? `${formatPath(issue.path)}: ${issue.message}` : issue.message));
    return buildGroupDetail(read.value, read.summary, problems);
  }

  /** The text of each group, in the order given; stops at the first that is no longer where it was read. */
  async *groupTexts(indices: ScopeIndices): AsyncGenerator<{ index: number; text: string }> {
    const summaries = indices.map((index) => {
      const summary = this.collection.groups[index];
      if (!summary) throw new Error(`group ${index + 1} is no longer in the file`);
      return summary;
    });
    let at = 0;
    for await (const text of this.file.groupTexts(summaries)) {
      yield { index: indices[at]!, text };
      at++;
    }
  }

  /** A group parsed again from its text, checked against what was read before. */
  async groupValue(index: number): Promise<{ summary: GroupSummary; value: Record<string, unknown> } | undefined> {
    const summary = this.collection.groups[index];
    if (!summary) return undefined;
    const value = await this.file.groupValue(summary);
    const trajectories = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>).trajectories : undefined;
    // The summary counts the trajectories that have a numeric reward: another count is another group.
    if (!Array.isArray(trajectories) || trajectories.filter(hasNumericReward).length !== summary.trajectoryCount) {
      // The file changed since it was read: what is at that place is another text now.
      void this.changed();
      return undefined;
    }
    return { summary, value: value as Record<string, unknown> };
  }

  dispose(): void {
    this.disposed = true;
    this.search?.abort.abort();
    this.listeners.clear();
    this.searchListeners.clear();
  }

  private schedule(full: boolean): Promise<void> {
    const run = async (): Promise<void> => {
      let wholeFile = full;
      do {
        this.changedWhileReading = false;
        await this.read(wholeFile);
        wholeFile = false;
      } while (this.changedWhileReading && !this.disposed);
    };
    const running = run().finally(() => {
      if (this.running === running) this.running = undefined;
    });
    this.running = running;
    return running;
  }

  private async read(requestedFull: boolean): Promise<void> {
    let size: number;
    try {
      size = await this.file.extent();
    } catch (error) {
      this.fail(cannotRead(error), error instanceof TrajectoryLogError);
      return;
    }
    const full = requestedFull || !(await this.file.appendedOnly(size, this.collection.next));
    if (full) {
      this.collection = new RolloutCollection();
      this.generation++;
      this.search?.abort.abort();
      this.search = undefined;
    } else if (size === this.collection.next.offset) {
      return;
    }
    this.error = undefined;
    this.unreadable = false;
    this.notTrajectoryLog = false;
    const from = this.collection.next;
    this.reading = { bytesRead: from.offset, totalBytes: size, ...(this.file.unit === 'rows' ? { unit: 'rows' as const } : {}) };
    const everyMs = this.options.announceEveryMs ?? 250;
    const firstScreen = this.options.firstScreenGroups ?? 60;
    const started = this.now();
    let announced = full ? -1 : this.now();
    this.announce();
    try {
      for await (const record of this.file.records(from, this.thresholds ? { thresholds: this.thresholds } : {})) {
        if (this.disposed) return;
        this.collection.add(record);
        this.reading.bytesRead = record.kind === 'group' ? record.summary.offset + record.summary.bytes : record.kind === 'problem' ? record.problem.offset : record.offset;
        const now = this.now();
        const due = announced < 0 ? this.collection.groups.length >= firstScreen || now - started >= everyMs / 2 : now - announced >= everyMs;
        if (due) {
          announced = now;
          this.announce();
        }
      }
    } catch (error) {
      // A Parquet log counts rows (a group's first row is its place); a text file counts bytes.
      const place = this.file.unit === 'rows' ? `row ${(this.reading.bytesRead + 1).toLocaleString('en-US')}` : `byte ${this.reading.bytesRead.toLocaleString('en-US')}`;
      this.error = `Reading stopped at ${place}: ${errorMessage(error)}`;
    }
    this.reading = undefined;
    await this.file.readEnded(this.collection.next);
    this.announce();
  }

  private fail(message: string, notTrajectoryLog = false): void {
    this.error = message;
    this.unreadable = true;
    this.notTrajectoryLog = notTrajectoryLog;
    this.reading = undefined;
    this.announce();
  }

  private announce(): void {
    this.version++;
    if (this.listeners.size === 0) return;
    const state = this.state();
    for (const listener of this.listeners) listener(state);
  }

  private metadataChoices(): MetadataChoices[] {
    if (this.metadata?.version !== this.version) this.metadata = { version: this.version, choices: metadataChoices(this.collection.groups) };
    return this.metadata.choices;
  }

  /**
   * Which groups contain the text, by a search through the file (one at a time: a new text stops
   * the search before it). A search waits for a running read, so it covers every group read.
   */
  private async textMatches(text: string): Promise<Uint8Array | undefined> {
    const needle = text.trim();
    if (needle === '') return undefined;
    await this.settled();
    const key = needle.toLowerCase();
    const groups = this.collection.groups;
    if (this.search && this.search.key === key && this.search.generation === this.generation && this.search.groups === groups.length) return this.search.result;
    this.search?.abort.abort();
    const abort = new AbortController();
    const totalBytes = this.collection.next.offset;
    const result = this.file.search(groups, needle, {
      signal: abort.signal,
      onProgress: (bytesRead) => {
        for (const listener of this.searchListeners) listener(needle, bytesRead, totalBytes);
      },
    });
    this.search = { key, generation: this.generation, groups: groups.length, result, abort };
    return result;
  }
}

/** `trajectories[2].messages_and_choices[0].role`: where in a group a shape problem is. */
function formatPath(path: JsonPath): string {
  return path.map((part, at) => (typeof part === 'number' ? `[${part}]` : at === 0 ? part : `.${part}`)).join('');
}

function hasNumericReward(value: unknown): boolean {
  const reward = typeof value === 'object' && value !== null ? (value as { reward?: unknown }).reward : undefined;
  return typeof reward === 'number' && Number.isFinite(reward);
}

/** Why nothing of the file could be read, in words. */
function cannotRead(error: unknown): string {
  if (isMissing(error)) return 'This file is no longer there: it was moved or deleted. Close this tab, or open the file where it is now.';
  if (error instanceof TrajectoryLogError) return `This Parquet file is not a trajectory log RL Studio can show: ${error.message}.`;
  return `The file could not be read: ${errorMessage(error)}`;
}

/** A file that is not there, as VS Code's file system (FileNotFound) or Node's (ENOENT) says it. */
function isMissing(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return code === 'FileNotFound' || code === 'ENOENT' || code === 'EntryNotFound';
}
