/**
 * A path a rules file gives (a payload template's) read as a path inside the workspace folder that
 * holds the file: relative, with no `..` that climbs out and no absolute or drive path. A team's
 * file must not make RL Studio read, and send, a file from elsewhere on the person's disk.
 */
export function workspaceRelativePath(path: string): { segments: string[] } | { problem: string } {
  if (path.includes('\0')) return { problem: 'the path holds a NUL character' };
  const slashed = path.replace(/\\/g, '/');
  if (slashed.startsWith('/') || /^[A-Za-z]:/.test(slashed) || /^[A-Za-z][\w+.-]*:\/\//.test(slashed)) {
    return { problem: 'the path must be relative to the workspace folder that holds .rlstudio/alerts.json, not absolute' };
  }
  const segments: string[] = [];
  for (const segment of slashed.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.length === 0) return { problem: 'the path leads out of the workspace folder ("..")' };
      segments.pop();
    } else segments.push(segment);
  }
  if (segments.length === 0) return { problem: 'the path names no file' };
  return { segments };
}

/** True when `candidate` (an absolute path as the file system resolves it) lies inside `folder`. */
export function isInsideFolder(folder: string, candidate: string, separator = '/'): boolean {
  const normalize = (value: string) => value.replace(/[\\/]+$/, '');
  const base = normalize(folder);
  return candidate === base || candidate.startsWith(base + separator);
}
