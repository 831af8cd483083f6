/**
 * A `.jsonl` or `.json` rollout file as the inspector reads it: groups from the byte stream, one
 * group again from its bytes, and an appended `.jsonl` file told from a rewritten one by the bytes
 * just before where reading stopped.
 */
import { readAhead } from './readAhead';
import type { ByteSource } from './fileSource';
import type { GroupFile, GroupSearchOptions, GroupValueRecord, GroupValuesOptions } from './groupFile';
import type { GroupSummary } from './groupSummaryShape';
import { readRolloutRecords, type RolloutReadOptions } from './rolloutReader';
import type { RolloutPosition, RolloutRecord } from './rolloutRecords';
import { searchGroups } from './textSearch';
import type { TrajectoryTextFormat } from '../../platform/kit/trajectoryFile';
import { defaultMaxLineBytes, LineSplitter } from '../../platform/kit/sourceLines';
import { JsonArraySplitter, type ArrayPiece } from '../../platform/kit/jsonArrayElements';
import { errorMessage } from '../../platform/client/errorMessage';
import { cutText } from '../../platform/kit/plainValues';

/** Bytes compared before the end of what was read, to tell an appended file from a rewritten one. */
const fingerprintBytes = 256;

export class TextGroupFile implements GroupFile {
  readonly unit = 'bytes';
  private fingerprint: { offset: number; bytes: Uint8Array } | undefined;

  constructor(
    private readonly source: ByteSource,
    private readonly format: TrajectoryTextFormat,
  ) {}

  extent(): Promise<number> {
    return this.source.size();
  }

  /** Whether the file only grew since it was read: the bytes before where reading stopped are the same. */
  async appendedOnly(size: number): Promise<boolean> {
    if (this.format !== 'jsonl' || !this.fingerprint) return false;
    const { offset, bytes } = this.fingerprint;
    if (size < offset + bytes.length) return false;
    const now = await this.source.read(offset, bytes.length);
    return now.length === bytes.length && now.every((byte, at) => byte === bytes[at]);
  }

  records(from: RolloutPosition, options: RolloutReadOptions): AsyncIterable<RolloutRecord> {
    return readRolloutRecords(this.source.chunks(from.offset), this.format, { ...options, from });
  }

  async readEnded(next: RolloutPosition): Promise<void> {
    const end = next.offset;
    const offset = Math.max(0, end - fingerprintBytes);
    try {
      this.fingerprint = { offset, bytes: await this.source.read(offset, end - offset) };
    } catch {
      this.fingerprint = undefined;
    }
  }

  async groupValue(summary: GroupSummary): Promise<unknown> {
    const bytes = await this.source.read(summary.offset, summary.bytes);
    try {
      return JSON.parse(new TextDecoder().decode(bytes)) as unknown;
    } catch {
      return undefined;
    }
  }

  async *groupTexts(summaries: readonly GroupSummary[]): AsyncGenerator<string> {
    const decoder = new TextDecoder();
    for (const summary of summaries) yield decoder.decode(await this.source.read(summary.offset, summary.bytes));
  }

  async *groupValues(options: GroupValuesOptions): AsyncGenerator<GroupValueRecord[]> {
    const maxBytes = options.maxGroupBytes ?? defaultMaxLineBytes;
    const splitter = this.format === 'jsonl' ? new LineSplitter(maxBytes) : new JsonArraySplitter(maxBytes);
    let read = 0;
    // The next chunk is read while this one's groups are parsed and scored.
    for await (const chunk of readAhead(this.source.chunks(0))) {
      options.signal?.throwIfAborted();
      read += chunk.length;
      yield valuesOf(splitter.push(chunk));
      options.onProgress?.(read);
    }
    const last = splitter.end();
    if (last) yield valuesOf([last]);
  }

  search(groups: readonly GroupSummary[], needle: string, options: GroupSearchOptions): Promise<Uint8Array> {
    return searchGroups(this.source.chunks(0), this.format, groups, needle, options);
  }
}

/** Characters of a parse error kept. */
const maxErrorChars = 200;

/** The groups of a chunk's pieces, parsed; blank lines skipped. */
function valuesOf(pieces: readonly ArrayPiece[]): GroupValueRecord[] {
  const records: GroupValueRecord[] = [];
  for (const piece of pieces) {
    if (piece.kind === 'problem') records.push({ kind: 'unreadable', line: piece.line, message: cutText(piece.message, maxErrorChars) });
    else if (piece.kind === 'tooLong') records.push({ kind: 'unreadable', line: piece.line, message: `this group is ${piece.bytes} bytes, more than are read` });
    else if (piece.text.trim() !== '') {
      try {
        records.push({ kind: 'group', value: JSON.parse(piece.text) as unknown, line: piece.line });
      } catch (error) {
        records.push({ kind: 'unreadable', line: piece.line, message: `not valid JSON (${cutText(errorMessage(error), maxErrorChars)})` });
      }
    }
  }
  return records;
}
