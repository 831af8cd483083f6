/**
 * A Parquet file as the Parquet library reads it: an `AsyncBuffer` whose slices are read from disk
 * when asked (never the whole file), or bytes already in memory. The library reads the footer and
 * then only the column chunks (or, with an offset index, the pages) a read needs.
 */
import { open, type FileHandle } from 'node:fs/promises';
import type { AsyncBuffer } from 'hyparquet';

export interface ParquetSource extends AsyncBuffer {
  /** Lets go of the file (a handle is kept open while a file is read). */
  close(): Promise<void>;
}

/**
 * The longest slice read at once. A column chunk bigger than this (a row group of many hundred
 * megabytes) is not read: the library would hold it whole.
 */
export const maxSliceBytes = 512 * 1024 * 1024;

/** A file on disk, opened once and read slice by slice. */
export async function parquetFileSource(path: string): Promise<ParquetSource> {
  const handle: FileHandle = await open(path, 'r');
  let byteLength: number;
  try {
    byteLength = (await handle.stat()).size;
  } catch (error) {
    await handle.close();
    throw error;
  }
  let closed = false;
  return {
    byteLength,
    slice: async (start, end) => {
      if (closed) throw new Error('the file was closed');
      const from = Math.max(0, start);
      const to = Math.min(byteLength, end ?? byteLength);
      const length = Math.max(0, to - from);
      if (length > maxSliceBytes) throw new Error(`a part of this file is ${Math.round(length / 2 ** 20)} MiB, more than the ${maxSliceBytes / 2 ** 20} MiB RL Studio reads at once`);
      const buffer = new Uint8Array(length);
      let filled = 0;
      while (filled < length) {
        const { bytesRead } = await handle.read(buffer, filled, length - filled, from + filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      // An ArrayBuffer of exactly the slice: the library reads it through a DataView from offset 0.
      return filled === length ? buffer.buffer : buffer.slice(0, filled).buffer;
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await handle.close();
    },
  };
}

/** Bytes already in memory (a file of another scheme read whole within a cap; tests). */
export function parquetBytesSource(bytes: Uint8Array): ParquetSource {
  return {
    byteLength: bytes.byteLength,
    slice: (start, end) => exactBuffer(bytes.subarray(start, end ?? bytes.byteLength)),
    close: async () => undefined,
  };
}

/**
 * An ArrayBuffer of exactly these bytes (the library reads a slice through a DataView from offset 0).
 * A Node Buffer's `slice` is a view into a shared pool, so the copy is made from the ArrayBuffer.
 */
export function exactBuffer(bytes: Uint8Array): ArrayBuffer {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer) return bytes.buffer;
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}
