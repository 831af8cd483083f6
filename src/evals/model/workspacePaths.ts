/**
 * Paths read from a workspace file (a results file's eval set, anything a file names) stay in the
 * workspace: a file written by somebody else must not make RL Studio read, show or run a file
 * elsewhere on the machine. A written path is read as relative to its workspace folder (either
 * separator, so `..\x` climbs as `../x` does), and the file it reaches, links followed, must lie in
 * a workspace folder (platform/kit/workspacePaths). No `vscode`, no file system.
 */
import * as nodePath from 'node:path';
import { quoted } from '../../platform/kit/confirmationText';

/** Characters of a path a file may give. */
export const maxWrittenPathChars = 1_000;

export type WrittenPath = { ok: true; relative: string } | { ok: false; problem: string };

/**
 * A path as a workspace file wrote it, checked before anything is read: relative, within its folder
 * by its own words (no `..` that climbs out), no drive, no URL. `relative` uses `/`.
 */
export function readWrittenPath(written: string, what: string): WrittenPath {
  const shown = quoted(written, 200);
  if (written.length === 0 || written.length > maxWrittenPathChars) return { ok: false, problem: `the ${what} path must have 1 to ${maxWrittenPathChars} characters; nothing was read` };
  if (/[\u0000-\u001f]/.test(written)) return { ok: false, problem: `the ${what} path ${shown} holds control characters; nothing was read` };
  const slashed = written.replace(/\\/g, '/');
  if (slashed.startsWith('/') || /^[A-Za-z]:/.test(slashed) || /^[A-Za-z][A-Za-z0-9+.-]+:/.test(slashed)) return { ok: false, problem: outside(what, shown) };
  const relative = nodePath.posix.normalize(slashed);
  if (relative === '..' || relative.startsWith('../')) return { ok: false, problem: outside(what, shown) };
  if (relative === '.' || relative === './' || relative.endsWith('/')) return { ok: false, problem: `the ${what} path ${shown} names a folder, not a file; nothing was read` };
  return { ok: true, relative };
}

/** The words of a refusal: which path, and that nothing was read. */
export function outside(what: string, shown: string): string {
  return `the ${what} path ${shown} points outside the workspace folder; nothing was read`;
}
