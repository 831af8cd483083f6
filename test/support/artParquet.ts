/**
 * Writes trajectory groups as the official Python client's `model.log()` does: one row per
 * trajectory, the pyarrow schema it declares (nullable columns, `list<string>` logs, `messages` as a
 * `list<struct<role, content, tool_calls, tool_call_id, trainable>>`), JSON-valued columns as the
 * text Python's `json.dumps` gives (`", "` and `": "` separators, non-ASCII escaped), an empty
 * value as null, exceptions left out (the client writes trajectories only), ZSTD pages.
 *
 * The Parquet is written with hyparquet-writer and the ZSTD frames with @bokuweb/zstd-wasm, at test
 * time: no binary fixture is kept in the repository.
 */
import { compress, init } from '@bokuweb/zstd-wasm';
import { writeFile } from 'node:fs/promises';
import { parquetWriteBuffer } from 'hyparquet-writer';

/** The writer's own schema element type (it carries its own copy of the reader's types). */
type SchemaElement = NonNullable<Parameters<typeof parquetWriteBuffer>[0]['schema']>[number];

export interface ArtParquetOptions {
  /** Rows per row group (pyarrow writes files this size as one group; hyparquet-writer's default splits them). */
  rowGroupSize?: number | number[];
  /** Whether each column keeps an offset index (pyarrow does not by default). */
  offsetIndex?: boolean;
  /** ZSTD level (pyarrow's default is 1). */
  level?: number;
}

const text = (name: string): SchemaElement => ({ name, type: 'BYTE_ARRAY', converted_type: 'UTF8', logical_type: { type: 'STRING' }, repetition_type: 'OPTIONAL' });
const listOf = (name: string, element: SchemaElement[]): SchemaElement[] => [
  { name, repetition_type: 'OPTIONAL', num_children: 1, converted_type: 'LIST', logical_type: { type: 'LIST' } },
  { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
  ...element,
];

/** The schema `write_trajectory_groups_parquet` declares, as pyarrow lays it out. */
export const artSchema: SchemaElement[] = [
  { name: 'schema', num_children: 10 },
  { name: 'group_index', type: 'INT64', repetition_type: 'OPTIONAL' },
  text('group_metadata'),
  text('group_metrics'),
  ...listOf('group_logs', [text('element')]),
  { name: 'reward', type: 'DOUBLE', repetition_type: 'OPTIONAL' },
  text('metrics'),
  text('metadata'),
  text('tools'),
  ...listOf('logs', [text('element')]),
  ...listOf('messages', [
    { name: 'element', repetition_type: 'OPTIONAL', num_children: 5 },
    text('role'),
    text('content'),
    text('tool_calls'),
    text('tool_call_id'),
    { name: 'trainable', type: 'BOOLEAN', repetition_type: 'OPTIONAL' },
  ]),
];

const columnNames = ['group_index', 'group_metadata', 'group_metrics', 'group_logs', 'reward', 'metrics', 'metadata', 'tools', 'logs', 'messages'] as const;
type ArtRow = Record<(typeof columnNames)[number], unknown>;

let ready: Promise<unknown> | undefined;

/** The Parquet bytes of `groups` (TrajectoryGroup-shaped objects, as the JSON fixtures hold them). */
export async function artParquetBytes(groups: readonly unknown[], options: ArtParquetOptions = {}): Promise<Uint8Array> {
  return artParquetBytesOfRows(artRows(groups), options);
}

/** The Parquet bytes of rows already in the log's shape (large benchmark files build them directly). */
export async function artParquetBytesOfRows(rows: readonly ArtRow[], options: ArtParquetOptions = {}): Promise<Uint8Array> {
  ready ??= init();
  await ready;
  const level = options.level ?? 1;
  const buffer = parquetWriteBuffer({
    schema: artSchema,
    codec: 'ZSTD',
    compressors: { ZSTD: (input: Uint8Array) => compress(input, level) },
    ...(options.rowGroupSize !== undefined ? { rowGroupSize: options.rowGroupSize } : {}),
    columnData: columnNames.map((name) => ({ name, data: rows.map((row) => row[name]), offsetIndex: options.offsetIndex ?? true })),
  });
  return new Uint8Array(buffer);
}

export async function writeArtParquet(path: string, groups: readonly unknown[], options: ArtParquetOptions = {}): Promise<void> {
  await writeFile(path, await artParquetBytes(groups, options));
}

/** The rows the client writes for `groups`. */
export function artRows(groups: readonly unknown[]): ArtRow[] {
  const rows: ArtRow[] = [];
  groups.forEach((value, groupIndex) => {
    const group = value as Record<string, unknown>;
    for (const trajectory of (group.trajectories as Record<string, unknown>[] | undefined) ?? []) {
      rows.push({
        group_index: BigInt(groupIndex),
        group_metadata: dumpsIfTruthy(group.metadata),
        group_metrics: dumpsIfTruthy(group.metrics),
        group_logs: nonEmptyList(group.logs),
        reward: trajectory.reward,
        metrics: dumpsIfTruthy(trajectory.metrics),
        metadata: dumpsIfTruthy(trajectory.metadata),
        tools: dumpsIfTruthy(trajectory.tools),
        logs: nonEmptyList(trajectory.logs),
        messages: ((trajectory.messages_and_choices as Record<string, unknown>[] | undefined) ?? []).map(flattenMessage),
      });
    }
  });
  return rows;
}

function flattenMessage(value: Record<string, unknown>): Record<string, unknown> {
  if ('finish_reason' in value) {
    const inner = (value.message as Record<string, unknown> | undefined) ?? {};
    return { role: inner.role ?? null, content: textContent(inner.content), tool_calls: dumpsIfTruthy(inner.tool_calls), tool_call_id: null, trainable: true };
  }
  return { role: value.role ?? null, content: textContent(value.content), tool_calls: dumpsIfTruthy(value.tool_calls), tool_call_id: value.tool_call_id ?? null, trainable: false };
}

/**
 * The `content` column is a string: pyarrow refuses to write a list of parts there, so the client
 * cannot log such a message (`loggable` turns one into its text first, as a person would).
 */
function textContent(content: unknown): string | null {
  if (content === null || content === undefined) return null;
  if (typeof content !== 'string') throw new TypeError('pyarrow cannot write a message content that is not a string (a list of parts) into the log');
  return content;
}

/** The groups with every list-of-parts content joined into its text, so the client can log them. */
export function loggable(groups: readonly unknown[]): unknown[] {
  const joined = (content: unknown): unknown =>
    Array.isArray(content)
      ? content.map((part) => (typeof part === 'object' && part !== null && typeof (part as { text?: unknown }).text === 'string' ? (part as { text: string }).text : '')).join('')
      : content;
  return (JSON.parse(JSON.stringify(groups)) as Record<string, any>[]).map((group) => {
    for (const trajectory of group.trajectories ?? []) {
      for (const item of trajectory.messages_and_choices ?? []) {
        if ('content' in item) item.content = joined(item.content);
        if (item.message && 'content' in item.message) item.message.content = joined(item.message.content);
      }
    }
    return group;
  });
}

/** Python truthiness of a JSON value: null, false, 0, "", [] and {} are false. */
function truthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === 0 || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}

function dumpsIfTruthy(value: unknown): string | null {
  return truthy(value) ? pythonJsonDumps(value) : null;
}

function nonEmptyList(value: unknown): unknown[] | null {
  return Array.isArray(value) && value.length > 0 ? value : null;
}

/** `json.dumps(value)` with Python's defaults: `", "` and `": "` separators, non-ASCII as \u escapes. */
export function pythonJsonDumps(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : pythonFloat(value);
  if (typeof value === 'string') return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (Array.isArray(value)) return `[${value.map(pythonJsonDumps).join(', ')}]`;
  return `{${Object.entries(value as Record<string, unknown>)
    .map(([key, item]) => `${pythonJsonDumps(key)}: ${pythonJsonDumps(item)}`)
    .join(', ')}}`;
}

/** A float as Python's repr writes it (`1.0`, not `1`; `1e-05`, not `0.00001`). */
function pythonFloat(value: number): string {
  if (!Number.isFinite(value)) return Number.isNaN(value) ? 'NaN' : value > 0 ? 'Infinity' : '-Infinity';
  const written = String(value);
  return written.replace(/e([+-])(\d)$/, 'e$10$2');
}
