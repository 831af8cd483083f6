/**
 * Source modules as the extension ships them: bundled and minified by esbuild with the host build's
 * options (esbuild.host.mjs), so a benchmark times the code users run. The one-file-per-module build
 * in out/ turns every call into another file into a property read of its exports, which a hot loop
 * pays for and a bundle does not.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { hostBuild, repoRoot } from './hostBuild';

/** Bundles the named exports of source modules (paths from the repository root) into one module and loads it. */
export async function loadAsShipped<T>(exportsByModule: Record<string, string[]>): Promise<T> {
  const host = await hostBuild();
  const folder = mkdtempSync(join(tmpdir(), 'rl-studio-bench-shipped-'));
  const entry = join(folder, 'entry.ts');
  writeFileSync(
    entry,
    Object.entries(exportsByModule)
      .map(([module, names]) => `export { ${names.join(', ')} } from ${JSON.stringify(join(repoRoot, module))};`)
      .join('\n'),
  );
  const outfile = join(folder, 'shipped.js');
  await esbuild.build({ ...host.hostOptions, absWorkingDir: repoRoot, minify: true, entryPoints: [entry], outfile, outdir: undefined });
  return require(outfile) as T;
}
