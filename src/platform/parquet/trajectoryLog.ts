/**
 * The official Python client's on-disk trajectory log, read back as the trajectory groups the JSON
 * files hold. `model.log()` writes one Parquet file per step (ZSTD), one row per trajectory:
 * `group_index`, `group_metadata`, `group_metrics` (JSON text or null), `group_logs`, `reward`,
 * `metrics`, `metadata`, `tools` (JSON text or null), `logs`, and `messages`, a list of
 * `{role, content, tool_calls (JSON text), tool_call_id, trainable}`. A trainable message is a
 * choice the model made; it comes back as a choice, so the inspector marks it as trained.
 *
 * The file is read with the Parquet library, never whole: rows arrive in batches (pages found
 * through the offset index when the writer kept one, else a row group at a time), and each group is
 * handed on once its rows are read. A group is the run of consecutive rows with one `group_index`,
 * as the client writes them.
 */
import { parquetMetadataAsync, parquetReadObjects, type FileMetaData } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import type { ParquetSource } from './parquetFile';
import { errorMessage } from '../client/errorMessage';

/** The columns a trajectory log has; `reward` and `messages` make a file one. */
export const trajectoryLogColumns = ['group_index', 'group_metadata', 'group_metrics', 'group_logs', 'reward', 'metrics', 'metadata', 'tools', 'logs', 'messages'] as const;

/** Fewest rows read at once from a row group whose pages can be found one by one. */
export const defaultBatchRows = 2048;
/**
 * The uncompressed bytes a batch of rows aims at. Each read of a part of a row group pays a cost
 * of its own (the library decodes a column chunk kept without an offset index whole each time,
 * as the official client's small `trainable` column is), so a large row group is read in a few
 * batches of this size rather than many small ones: memory held stays near this, time near one read.
 */
export const batchTargetBytes = 64 * 1024 * 1024;
/** Most rows read at once, however small they are: each row is an object of its own once read. */
export const maxBatchRows = 32_768;
/** Trajectories kept of one group; the rest of a larger group are skipped, with a problem. */
export const maxTrajectoriesPerGroup = 4096;
/** A column chunk this small is decoded whole for every batch rather than read with its row group at once. */
const smallChunkBytes = 1024 * 1024;
/** A footer larger than this is not read (the library would parse it whole). */
const maxFooterBytes = 64 * 1024 * 1024;

export interface TrajectoryLog {
  source: ParquetSource;
  metadata: FileMetaData;
  rowCount: number;
  /** Each row group: its first row, its rows, and whether it can be read a batch of rows at a time. */
  rowGroups: { start: number; rows: number; paged: boolean; uncompressedBytes: number }[];
  /** The trajectory-log columns this file has (a missing optional one reads as null). */
  columns: string[];
}

export interface LoggedGroup {
  /** The group as the JSON files hold it: `trajectories`, `exceptions`, `metadata`, `metrics`, `logs`. */
  group: Record<string, unknown>;
  /** Its `group_index`, as written. */
  groupIndex: number | undefined;
  /** Its first row, and how many rows it spans (skipped rows of an oversized group included). */
  rowStart: number;
  rowCount: number;
  /** What was wrong with its rows (a group too large, a group split apart). */
  problems: string[];
}

/** A file that is not a trajectory log, or cannot be read as Parquet: the message says which. */
export class TrajectoryLogError extends Error {}

/** Reads the footer and checks the file is a trajectory log. */
export async function openTrajectoryLog(source: ParquetSource): Promise<TrajectoryLog> {
  if (source.byteLength < 12) throw new TrajectoryLogError('this file is too short to be Parquet');
  const tail = new DataView(await source.slice(source.byteLength - 8, source.byteLength));
  const footerBytes = tail.getUint32(0, true);
  if (tail.getUint32(4, true) !== 0x31524150) throw new TrajectoryLogError('this file is not Parquet (it does not end with "PAR1")');
  if (footerBytes > maxFooterBytes || footerBytes + 8 > source.byteLength)
    throw new TrajectoryLogError(`its Parquet footer claims ${footerBytes.toLocaleString('en-US')} bytes, which this file cannot hold or RL Studio does not read`);
  let metadata: FileMetaData;
  try {
    metadata = await parquetMetadataAsync(source, { initialFetchSize: Math.min(source.byteLength, footerBytes + 8) });
  } catch (error) {
    throw new TrajectoryLogError(`its Parquet footer could not be read (${errorMessage(error)})`);
  }
  const topLevel = topLevelColumns(metadata);
  const columns = trajectoryLogColumns.filter((name) => topLevel.has(name));
  const missing = ['reward', 'messages'].filter((name) => !topLevel.has(name));
  if (missing.length > 0) {
    throw new TrajectoryLogError(
      `it has no ${missing.map((name) => `"${name}"`).join(' or ')} column, so it is not a trajectory log as the official client writes one (its columns: ${[...topLevel].slice(0, 12).join(', ') || 'none'})`,
    );
  }
  let start = 0;
  const rowGroups = metadata.row_groups.map((rowGroup) => {
    const rows = Number(rowGroup.num_rows);
    // A chunk with an offset index is read a few pages at a time; a small one is decoded again for
    // each batch, which costs little; a large one without an index is read once, with its row group.
    const paged = rowGroup.columns.every((chunk) => chunk.offset_index_offset !== undefined || Number(chunk.meta_data?.total_uncompressed_size ?? Infinity) <= smallChunkBytes);
    const uncompressedBytes = rowGroup.columns.reduce((sum, chunk) => sum + Number(chunk.meta_data?.total_uncompressed_size ?? 0), 0);
    const group = { start, rows, paged, uncompressedBytes };
    start += rows;
    return group;
  });
  return { source, metadata, rowCount: start, rowGroups, columns };
}

function topLevelColumns(metadata: FileMetaData): Set<string> {
  const names = new Set<string>();
  const root = metadata.schema[0];
  let index = 1;
  for (let child = 0; child < (root?.num_children ?? 0) && index < metadata.schema.length; child++) {
    names.add(metadata.schema[index]!.name);
    index = afterSubtree(metadata, index);
  }
  return names;
}

/** The schema index after the element at `index` and all its descendants. */
function afterSubtree(metadata: FileMetaData, index: number): number {
  let pending = 1;
  let at = index;
  while (pending > 0 && at < metadata.schema.length) {
    pending += (metadata.schema[at]!.num_children ?? 0) - 1;
    at++;
  }
  return at;
}

export interface ReadLoggedGroupsOptions {
  rowStart?: number;
  rowEnd?: number;
  batchRows?: number;
  signal?: AbortSignal;
  /**
   * The columns read (of `log.columns`; `group_index` is always read): a search needs the messages
   * only. A column not read reads as null, so its part of the group is the client's default.
   */
  columns?: readonly string[];
}

/** The groups of rows `rowStart` to `rowEnd`, in file order, each once all its rows are read. */
export async function* readLoggedGroups(log: TrajectoryLog, options: ReadLoggedGroupsOptions = {}): AsyncGenerator<LoggedGroup> {
  const rowEnd = Math.min(options.rowEnd ?? log.rowCount, log.rowCount);
  // Rows of a batch: as asked, else as many as make about `batchTargetBytes` in that row group.
  const batchRowsOf = (rowGroup: TrajectoryLog['rowGroups'][number]): number =>
    Math.max(1, options.batchRows ?? Math.min(maxBatchRows, Math.max(defaultBatchRows, Math.floor((rowGroup.rows * batchTargetBytes) / Math.max(1, rowGroup.uncompressedBytes)))));
  const builder = new GroupBuilder();
  const seen = new Set<number>();
  const wanted = options.columns;
  const columns = wanted ? log.columns.filter((name) => name === 'group_index' || wanted.includes(name)) : log.columns;
  for (const rowGroup of log.rowGroups) {
    const groupEnd = rowGroup.start + rowGroup.rows;
    let at = Math.max(rowGroup.start, options.rowStart ?? 0);
    while (at < Math.min(groupEnd, rowEnd)) {
      options.signal?.throwIfAborted();
      const until = rowGroup.paged ? Math.min(groupEnd, rowEnd, at + batchRowsOf(rowGroup)) : Math.min(groupEnd, rowEnd);
      // A group that holds all the trajectories it keeps needs only its rows' group index, to find
      // where it ends; the rows from there on are read again whole.
      const skipping = builder.full;
      const rows = await readRows(log, skipping ? ['group_index'] : columns, at, until);
      let next = until;
      for (let offset = 0; offset < rows.length; offset++) {
        if (skipping && !builder.continues(rows[offset]!)) {
          next = at + offset;
          break;
        }
        const done = builder.add(rows[offset]!, at + offset, seen);
        if (done) yield done;
      }
      at = next;
    }
  }
  const last = builder.finish(seen);
  if (last) yield last;
}

/** One group again, from the rows it was read from (e.g. to show it whole). */
export async function readLoggedGroupAt(log: TrajectoryLog, rowStart: number, rowCount: number): Promise<LoggedGroup | undefined> {
  for await (const logged of readLoggedGroups(log, { rowStart, rowEnd: rowStart + rowCount, batchRows: Math.max(1, Math.min(rowCount, maxTrajectoriesPerGroup)) })) return logged;
  return undefined;
}

async function readRows(log: TrajectoryLog, columns: string[], rowStart: number, rowEnd: number): Promise<Record<string, unknown>[]> {
  return (await parquetReadObjects({
    file: log.source,
    metadata: log.metadata,
    columns,
    rowStart,
    rowEnd,
    compressors,
    useOffsetIndex: true,
  })) as Record<string, unknown>[];
}

/** Gathers consecutive rows with one group index into a group. */
class GroupBuilder {
  /**
   * The tools of the row before, parsed: an agent's rows carry the same tools text one after the
   * other, so it is parsed once (the groups read are only read, never changed, so sharing is safe).
   */
  private lastTools: { text: unknown; value: unknown } = { text: undefined, value: undefined };
  readonly toolsOf = (text: unknown): unknown => {
    if (text !== this.lastTools.text) this.lastTools = { text, value: jsonColumn(text, undefined) };
    return this.lastTools.value;
  };
  private current: { index: number | undefined; rowStart: number; rows: number; first: Record<string, unknown>; trajectories: Record<string, unknown>[]; problems: string[] } | undefined;

  /** Whether the group being gathered holds as many trajectories as are kept: its other rows are only counted. */
  get full(): boolean {
    return this.current !== undefined && this.current.trajectories.length >= maxTrajectoriesPerGroup;
  }

  /** Whether a row belongs to the group being gathered. */
  continues(row: Record<string, unknown>): boolean {
    return this.current !== undefined && this.current.index === groupIndexOf(row.group_index);
  }

  /** Adds a row; gives back the group before it when this row starts another. */
  add(row: Record<string, unknown>, rowNumber: number, seen: Set<number>): LoggedGroup | undefined {
    const index = groupIndexOf(row.group_index);
    let finished: LoggedGroup | undefined;
    if (this.current && this.current.index !== index) finished = this.finish(seen);
    if (!this.current) {
      const problems: string[] = [];
      if (index !== undefined && seen.has(index)) problems.push(`the rows of group_index ${index} are not all together: these rows are shown as a group of their own`);
      this.current = { index, rowStart: rowNumber, rows: 0, first: row, trajectories: [], problems };
    }
    const current = this.current;
    current.rows++;
    // A row the client would skip: neither reward nor messages.
    if ((row.reward ?? null) === null && (row.messages ?? null) === null) return finished;
    if (current.trajectories.length < maxTrajectoriesPerGroup) current.trajectories.push(trajectoryOf(row, this.toolsOf));
    else if (current.trajectories.length === maxTrajectoriesPerGroup && !current.problems.some((problem) => problem.startsWith('this group has more'))) {
      current.problems.push(`this group has more than ${maxTrajectoriesPerGroup.toLocaleString('en-US')} trajectories: the rest were skipped`);
    }
    return finished;
  }

  finish(seen: Set<number>): LoggedGroup | undefined {
    const current = this.current;
    if (!current) return undefined;
    this.current = undefined;
    if (current.index !== undefined) seen.add(current.index);
    const group: Record<string, unknown> = {
      trajectories: current.trajectories,
      // The log keeps no exceptions: the client writes trajectories only.
      exceptions: [],
      metadata: jsonColumn(current.first.group_metadata, {}),
      metrics: jsonColumn(current.first.group_metrics, {}),
      logs: current.first.group_logs ?? [],
    };
    return { group, groupIndex: current.index, rowStart: current.rowStart, rowCount: current.rows, problems: current.problems };
  }
}

function groupIndexOf(value: unknown): number | undefined {
  if (typeof value === 'bigint') return Number(value);
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** A trajectory as the JSON files hold it; absent fields as the client's defaults. */
function trajectoryOf(row: Record<string, unknown>, toolsOf: (text: unknown) => unknown): Record<string, unknown> {
  const trajectory: Record<string, unknown> = {
    messages_and_choices: Array.isArray(row.messages) ? row.messages.map(messageOrChoice) : [],
    reward: row.reward ?? null,
    metrics: jsonColumn(row.metrics, {}),
    metadata: jsonColumn(row.metadata, {}),
    logs: row.logs ?? [],
  };
  const tools = toolsOf(row.tools);
  if (tools !== undefined) trajectory.tools = tools;
  return trajectory;
}

/**
 * A message of the log: a trainable one as the choice it was (the log keeps no finish reason, so a
 * choice with tool calls finished with `tool_calls` and any other with `stop`), the rest as messages.
 */
function messageOrChoice(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const flat = value as Record<string, unknown>;
  const message: Record<string, unknown> = { role: flat.role, content: flat.content };
  const toolCalls = jsonColumn(flat.tool_calls, undefined);
  if (toolCalls !== undefined) message.tool_calls = toolCalls;
  if (flat.trainable === true) return { finish_reason: toolCalls !== undefined ? 'tool_calls' : 'stop', index: 0, message };
  if (typeof flat.tool_call_id === 'string' && flat.tool_call_id !== '') message.tool_call_id = flat.tool_call_id;
  return message;
}

/**
 * A column of JSON text: null (or empty) reads as the client's default; text that is not JSON is
 * kept as the text, so the shape check names it where it is.
 */
function jsonColumn(value: unknown, absent: unknown): unknown {
  if (value === null || value === undefined || value === '') return absent;
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}
