/**
 * Which folders of `rlStudio.localRuns.folders` RL Studio looks in. The user's own settings may
 * point anywhere on the machine; a workspace's settings come with the repository, so a folder they
 * name counts only when it lies inside one of the workspace's folders (a repository must not make
 * RL Studio read the person's home). Paths only: no file is touched here.
 */
import { isAbsolute, join, normalize, relative, sep } from 'node:path';

/** The setting's values, by where they were set (VS Code's `inspect`). */
export interface FolderSettingLayers {
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

export interface IgnoredFolder {
  value: string;
  reason: string;
}

export interface ConfiguredFolder {
  path: string;
  /** Which settings named it: a workspace's folder must stay inside the workspace once links are resolved too. */
  from: 'user' | 'workspace';
}

export interface ConfiguredFolders {
  folders: ConfiguredFolder[];
  ignored: IgnoredFolder[];
}

/** Folders read from the setting at most; each layer's list is cut there. */
export const maxConfiguredFolders = 16;
const maxPathChars = 4096;

/**
 * The folders to look in: the user's first (a `~` is their home, a relative path is taken from the
 * first workspace folder), then the workspace's (relative to the first workspace folder), each once.
 */
export function configuredFolders(layers: FolderSettingLayers, workspaceFolders: readonly string[], home: string): ConfiguredFolders {
  const folders: ConfiguredFolder[] = [];
  const ignored: IgnoredFolder[] = [];
  const base = workspaceFolders[0];
  const add = (path: string, from: ConfiguredFolder['from']) => {
    if (!folders.some((folder) => folder.path === path)) folders.push({ path, from });
  };
  for (const value of valuesOf(layers.globalValue, ignored)) {
    const path = resolvePath(value, base, home);
    if (path) add(path, 'user');
    else ignored.push({ value, reason: 'a relative path needs a workspace folder to start from' });
  }
  for (const value of [...valuesOf(layers.workspaceValue, ignored), ...valuesOf(layers.workspaceFolderValue, ignored)]) {
    const path = value.startsWith('~') ? undefined : resolvePath(value, base, home);
    if (!path) {
      ignored.push({ value, reason: "a workspace's settings may name only folders inside the workspace" });
      continue;
    }
    if (!workspaceFolders.some((folder) => isInside(path, folder))) {
      ignored.push({ value, reason: "it is outside the workspace, and a workspace's settings may name only folders inside it (set it in your user settings to look there)" });
      continue;
    }
    add(path, 'workspace');
  }
  return { folders: folders.slice(0, maxConfiguredFolders), ignored };
}

function valuesOf(raw: unknown, ignored: IgnoredFolder[]): string[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    ignored.push({ value: String(raw).slice(0, 200), reason: 'the setting must be a list of folder paths' });
    return [];
  }
  const values: string[] = [];
  for (const item of raw.slice(0, maxConfiguredFolders)) {
    if (typeof item === 'string' && item.trim() !== '' && item.length <= maxPathChars && !item.includes('\0')) values.push(item.trim());
    else ignored.push({ value: String(item).slice(0, 200), reason: 'not a folder path' });
  }
  return values;
}

function resolvePath(value: string, base: string | undefined, home: string): string | undefined {
  if (value === '~' || value.startsWith('~/') || value.startsWith(`~${sep}`)) return normalize(join(home, value.slice(1)));
  if (isAbsolute(value)) return normalize(value);
  return base === undefined ? undefined : normalize(join(base, value));
}

/** Whether `path` is `folder` or lies under it (both already resolved). */
export function isInside(path: string, folder: string): boolean {
  const rest = relative(folder, path);
  return rest === '' || (rest !== '..' && !rest.startsWith(`..${sep}`) && !isAbsolute(rest));
}
