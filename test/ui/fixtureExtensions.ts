/**
 * Extensions the UI tests install next to RL Studio, to act on it as other extensions do (the Tool
 * Caller calls its language-model tools outside any chat). They live in test/ui/fixtures/ as plain
 * JavaScript and are packaged at test time, so they never ship in rl-studio.vsix.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '../vscode/paths';

const execFileAsync = promisify(execFile);

/** Packages test/ui/fixtures/<name> into `<outDir>/<name>.vsix` offline and returns its path. */
export async function packageFixtureExtension(name: string, outDir: string): Promise<string> {
  const vsix = join(outDir, `${name}.vsix`);
  const vsce = join(repoRoot, 'node_modules', '.bin', 'vsce');
  try {
    await execFileAsync(vsce, ['package', '--no-dependencies', '--skip-license', '--allow-missing-repository', '--out', vsix], {
      cwd: join(repoRoot, 'test', 'ui', 'fixtures', name),
      timeout: 60_000,
    });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`packaging the ${name} test extension failed:\n${stdout}${stderr}`);
  }
  return vsix;
}
