/** Files of the repository found by walking a folder: test modules to run, sources to read. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The repository's root, from this module's place in out/test/support/. */
const repositoryRoot = join(__dirname, '..', '..', '..');

/** Every file below `folder` whose name ends with `ending`, folder by folder in name order. */
export function filesEndingWith(folder: string, ending: string): string[] {
  return readdirSync(folder)
    .sort()
    .flatMap((name) => {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) return filesEndingWith(path, ending);
      return name.endsWith(ending) ? [path] : [];
    });
}

/** Every .ts file below `folder` and its text, by its path from the repository root (with forward slashes). */
export function sourcesUnder(folder: string): Map<string, string> {
  return new Map(filesEndingWith(folder, '.ts').map((path) => [relative(repositoryRoot, path).replace(/\\/g, '/'), readFileSync(path, 'utf8')]));
}
