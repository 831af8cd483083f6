// How the lint rules and the build's layout (esbuild.host.mjs) find the file a relative import
// names, as the compiler and esbuild do: `./x` is x.ts, or x/index.ts.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** The .ts file `specifier` names from the file `from`, or undefined when there is none. */
export function resolveImport(from, specifier) {
  const base = resolve(dirname(from), specifier);
  for (const candidate of [`${base}.ts`, join(base, 'index.ts'), base]) {
    if (candidate.endsWith('.ts') && existsSync(candidate)) return candidate;
  }
  return undefined;
}
