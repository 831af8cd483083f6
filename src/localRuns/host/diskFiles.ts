/**
 * The local file system as discovery reads it (model/localFiles.ts): node:fs, a folder read entry by
 * entry up to its bound (a folder of a million files is never read whole), a link followed for what
 * it points at, a file read only as far as asked.
 */
import { opendir, open, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FolderEntry, FolderListing, LocalFiles } from '../model/localFiles';

export const diskFiles: LocalFiles = {
  async list(path: string, limit: number, sizes = false): Promise<FolderListing | undefined> {
    let dir;
    try {
      dir = await opendir(path, { bufferSize: 256 });
    } catch {
      return undefined;
    }
    const entries: FolderEntry[] = [];
    let more = false;
    try {
      for await (const entry of dir) {
        if (entries.length >= limit) {
          more = true;
          break;
        }
        if (entry.isSymbolicLink()) {
          // What the link points at; a dangling link or a loop is neither a file nor a folder.
          const target = await stat(join(path, entry.name)).catch(() => undefined);
          entries.push({ name: entry.name, link: true, kind: target?.isDirectory() ? 'folder' : target?.isFile() ? 'file' : 'other', bytes: target?.isFile() ? target.size : 0 });
        } else if (entry.isDirectory()) entries.push({ name: entry.name, link: false, kind: 'folder', bytes: 0 });
        else if (entry.isFile()) entries.push({ name: entry.name, link: false, kind: 'file', bytes: sizes ? ((await stat(join(path, entry.name)).catch(() => undefined))?.size ?? 0) : 0 });
        else entries.push({ name: entry.name, link: false, kind: 'other', bytes: 0 });
      }
    } catch {
      // A folder that went away while it was read: what was read stands.
    } finally {
      // Breaking out of the loop closes the folder; closing it again is refused, and harmless.
      await dir.close().catch(() => undefined);
    }
    return { entries, more };
  },

  async readText(path: string, maxBytes: number): Promise<{ text: string; whole: boolean } | undefined> {
    let handle;
    try {
      handle = await open(path, 'r');
      const buffer = Buffer.alloc(maxBytes + 1);
      let filled = 0;
      while (filled < buffer.length) {
        const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      return { text: buffer.subarray(0, Math.min(filled, maxBytes)).toString('utf8'), whole: filled <= maxBytes };
    } catch {
      return undefined;
    } finally {
      await handle?.close().catch(() => undefined);
    }
  },

  async realPath(path: string): Promise<string | undefined> {
    return realpath(path).catch(() => undefined);
  },

  join,
};
