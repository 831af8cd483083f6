/** Reads the repository's TypeScript sources, for tests that check how the code is laid out. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export const repositoryRoot = join(__dirname, '..', '..', '..', '..');

/** Every .ts file below `folder`, by its path from the repository root (with forward slashes). */
export function sourcesUnder(folder: string): Map<string, string> {
  const sources = new Map<string, string>();
  const visit = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) visit(path);
      else if (name.endsWith('.ts')) sources.set(relative(repositoryRoot, path).replace(/\\/g, '/'), readFileSync(path, 'utf8'));
    }
  };
  visit(folder);
  return sources;
}
