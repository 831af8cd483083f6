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
import { validateTrajectoryGroup, type JsonPath } from '../../platform/kit/trajectoryShape';
import type { ByteSource } from './fileSource';
import { buildGroupDetail } from './groupDetail';
import type { GroupSummary, SummaryThresholds } from './groupSummaryShape';
import { GroupQueryCache, metadataChoices } from './groupQuery';
import type { GroupDetail, GroupQuery, MetadataChoices, RolloutFileState, RowsPage } from './inspectorModel';
import { RolloutCollection } from './rolloutCollection';
import { readRolloutRecords } from './rolloutReader';
import type { TrajectoryFileFormat } from '../../platform/kit/trajectoryFile';
import { searchGroups } from './textSearch';
import { errorMessage } from '../../platform/client/errorMessage';

export interface InspectedFileOptions {
  fileName: string;
  format: TrajectoryFileFormat;
  source: ByteSource;
  thresholds?: SummaryThresholds;
  /** Milliseconds between announcements while reading (default 250). */
  announceEveryMs?: number;
  /** Groups that make a first screen: announced as soon as they are read (default 60). */
  firstScreenGroups?: number;
  now?: () => number;
}

/** The groups an action applies to, checked: positions among the file's groups, in file order. */
export type ScopeIndices = readonly number[];

/** Bytes compared before the end of what was read, to tell an appended file from a rewritten one. */
const fingerprintBytes = 256;

export class InspectedFile {
  private collection = new RolloutCollection();
  private version = 0;
  /** Bumps on every full read: searches and places of an older generation are void. */
  private generation = 0;
  private reading: { bytesRead: number; totalBytes: number } | undefined;
  private error: string | undefined;
  private unreadable = false;
  private running: Promise<void> | undefined;
  private changedWhileReading = false;
  private fingerprint: { offset: number; bytes: Uint8Array } | undefined;
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
    const decoder = new TextDecoder();
    for (const index of indices) {
      const summary = this.collection.groups[index];
      if (!summary) throw new Error(`group ${index + 1} is no longer in the file`);
      const text = decoder.decode(await this.options.source.read(summary.offset, summary.bytes));
      yield { index, text };
    }
  }

  /** A group parsed again from its text, checked against what was read before. */
  async groupValue(index: number): Promise<{ summary: GroupSummary; value: Record<string, unknown> } | undefined> {
    const summary = this.collection.groups[index];
    if (!summary) return undefined;
    const bytes = await this.options.source.read(summary.offset, summary.bytes);
    let value: unknown;
    try {
      value = JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      value = undefined;
    }
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
    const { source, format } = this.options;
    let size: number;
    try {
      size = await source.size();
    } catch (error) {
      this.fail(isMissing(error) ? 'This file is no longer there: it was moved or deleted. Close this tab, or open the file where it is now.' : `The file could not be read: ${errorMessage(error)}`);
      return;
    }
    const full = requestedFull || !(await this.appendedOnly(size));
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
    const from = this.collection.next;
    this.reading = { bytesRead: from.offset, totalBytes: size };
    const everyMs = this.options.announceEveryMs ?? 250;
    const firstScreen = this.options.firstScreenGroups ?? 60;
    const started = this.now();
    let announced = full ? -1 : this.now();
    this.announce();
    try {
      for await (const record of readRolloutRecords(source.chunks(from.offset), format, { from, ...(this.thresholds ? { thresholds: this.thresholds } : {}) })) {
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
      this.error = `Reading stopped at byte ${this.reading.bytesRead.toLocaleString('en-US')}: ${errorMessage(error)}`;
    }
    this.reading = undefined;
    await this.keepFingerprint();
    this.announce();
  }

  /** Whether the file only grew since it was read: the bytes before where reading stopped are the same. */
  private async appendedOnly(size: number): Promise<boolean> {
    if (this.options.format !== 'jsonl' || !this.fingerprint) return false;
    const { offset, bytes } = this.fingerprint;
    if (size < offset + bytes.length) return false;
    const now = await this.options.source.read(offset, bytes.length);
    return now.length === bytes.length && now.every((byte, at) => byte === bytes[at]);
  }

  private async keepFingerprint(): Promise<void> {
    const end = this.collection.next.offset;
    const offset = Math.max(0, end - fingerprintBytes);
    try {
      this.fingerprint = { offset, bytes: await this.options.source.read(offset, end - offset) };
    } catch {
      this.fingerprint = undefined;
    }
  }

  private fail(message: string): void {
    this.error = message;
    this.unreadable = true;
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
    const result = searchGroups(this.options.source.chunks(0), this.options.format, groups, needle, {
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

/** A file that is not there, as VS Code's file system (FileNotFound) or Node's (ENOENT) says it. */
function isMissing(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return code === 'FileNotFound' || code === 'ENOENT' || code === 'EntryNotFound';
}
