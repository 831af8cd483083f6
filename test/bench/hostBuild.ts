/** The extension host build's options and plugins, as esbuild.mjs uses them, for benchmarks that build a variant of it. */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as esbuild from 'esbuild';

/** The repository's root, from this module's place in out/test/bench/. */
export const repoRoot = join(__dirname, '..', '..', '..');

/** What esbuild.host.mjs exports (an untyped ES module, loaded at run time from the repository root). */
export interface HostBuild {
  shareVscodeNamespace: esbuild.Plugin;
  bundleBoundary(root: string, sharedModules: ReadonlyMap<string, string>, self: string, entries?: Record<string, string>): esbuild.Plugin;
  hostOptions: esbuild.BuildOptions;
}

export async function hostBuild(): Promise<HostBuild> {
  return (await import(pathToFileURL(join(repoRoot, 'esbuild.host.mjs')).href)) as HostBuild;
}
