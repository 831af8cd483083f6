/**
 * Whether a file lies in a workspace folder: the one rule behind every check that a path given by a
 * model or written in a workspace file stays home. Both paths are absolute with links already
 * resolved (the caller runs fs.realpath); no `vscode`, no file system.
 */
import * as nodePath from 'node:path';

/**
 * Whose path rules apply: Windows (either separator, any case, drives), macOS (`/`, and its volumes
 * ignore case), or other POSIX systems (`/`, case matters).
 */
export type PathRules = 'posix' | 'darwin' | 'win32';

/** The rules of the machine RL Studio runs on. */
export function hostPathRules(): PathRules {
  return process.platform === 'win32' ? 'win32' : process.platform === 'darwin' ? 'darwin' : 'posix';
}

/**
 * The folder of `folders` that holds `target`, or undefined when none does. Comparison is by whole
 * path segments after normalizing, so `/work/a-b` is not inside `/work/a` and `/work/a/../b` is
 * not inside `/work/a`. A relative path is in no folder. The folder itself holds a file only when
 * `folderItself` says so (a caller that goes on to ask whether it is a file).
 */
export function containingFolder(target: string, folders: readonly string[], rules: PathRules = hostPathRules(), options: { folderItself?: boolean } = {}): string | undefined {
  const paths = rules === 'win32' ? nodePath.win32 : nodePath.posix;
  // Windows' own relative() ignores case; macOS volumes do too, so both sides are folded there.
  const fold = (path: string) => (rules === 'darwin' ? path.toLowerCase() : path);
  if (!paths.isAbsolute(target)) return undefined;
  for (const folder of folders) {
    if (!paths.isAbsolute(folder)) continue;
    const relative = paths.relative(fold(folder), fold(target));
    if (relative === '') {
      if (options.folderItself) return folder;
      continue;
    }
    if (paths.isAbsolute(relative)) continue;
    if (relative.split(rules === 'win32' ? /[\\/]/ : /\//)[0] !== '..') return folder;
  }
  return undefined;
}
