/**
 * Where the rollout inspector reads a file's bytes: as a stream from some offset (reading the
 * groups, following appends, searching) and as one range (a group opened again). A file on disk is
 * read with Node's fs, never whole; the editor supplies another source for files of other schemes.
 */
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';

export interface ByteSource {
  /** The file's size now, in bytes. */
  size(): Promise<number>;
  /** The bytes from `start` to the end, in chunks. */
  chunks(start: number): AsyncIterable<Uint8Array>;
  /** `length` bytes from `offset` (fewer when the file ends first). */
  read(offset: number, length: number): Promise<Uint8Array>;
}

/** 256 KiB chunks: few enough calls for a 200 MB file, small enough to keep the host responsive between them. */
const chunkBytes = 256 * 1024;

export function fileSource(path: string): ByteSource {
  return {
    size: async () => (await stat(path)).size,
    chunks: (start) => createReadStream(path, { start, highWaterMark: chunkBytes }),
    read: async (offset, length) => {
      const handle = await open(path, 'r');
      try {
        const buffer = Buffer.alloc(length);
        let filled = 0;
        while (filled < length) {
          const { bytesRead } = await handle.read(buffer, filled, length - filled, offset + filled);
          if (bytesRead === 0) break;
          filled += bytesRead;
        }
        return buffer.subarray(0, filled);
      } finally {
        await handle.close();
      }
    },
  };
}

/** A source over bytes already in memory (a file of another scheme, read whole within a cap; tests). */
export function memorySource(bytes: () => Uint8Array): ByteSource {
  return {
    size: async () => bytes().length,
    chunks: (start) => sliced(bytes().subarray(start)),
    read: async (offset, length) => bytes().slice(offset, offset + length),
  };
}

async function* sliced(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += chunkBytes) yield bytes.subarray(at, at + chunkBytes);
}
