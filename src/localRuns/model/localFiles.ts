/**
 * What discovery and the run view need of a file system, so that the logic runs in plain Node
 * tests against real temporary folders and in the extension against the disk: the host gives
 * node:fs behind it (host/diskFiles.ts).
 */

export interface FolderEntry {
  name: string;
  /** What the entry is, a symbolic link followed: a link to a folder is a folder. */
  kind: 'file' | 'folder' | 'other';
  /** Whether the entry is a symbolic link (followed for `kind` and `bytes`). */
  link: boolean;
  /** A file's size in bytes when asked for (a linked file's always); 0 otherwise. */
  bytes: number;
}

export interface FolderListing {
  entries: FolderEntry[];
  /** True when the folder holds more entries than were read. */
  more: boolean;
}

export interface LocalFiles {
  /**
   * The folder's entries, at most `limit` of them, in no set order; undefined when it cannot be read.
   * A file's size is read only with `sizes` (a stat per file).
   */
  list(path: string, limit: number, sizes?: boolean): Promise<FolderListing | undefined>;
  /**
   * The file's first `maxBytes` bytes as UTF-8 text, and whether that was all of it; undefined when it
   * cannot be read.
   */
  readText(path: string, maxBytes: number): Promise<{ text: string; whole: boolean } | undefined>;
  /** The path with every symbolic link resolved; undefined when it does not resolve (a loop, a dangling link). */
  realPath(path: string): Promise<string | undefined>;
  join(...parts: string[]): string;
}
