/**
 * Runs the extension tests in desktop VS Code through @vscode/test-electron, which downloads VS Code
 * the first time: for developer machines with internet access. Selected by `npm test -- --desktop`
 * or RL_STUDIO_TEST_RUNNER=electron.
 */
import { runTests } from '@vscode/test-electron';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onCleanup } from './cleanup';
import { integrationEntry, repoRoot } from './paths';
import type { ExtensionTestRun } from './codeServerRunner';
import { parseCountsLine, type TestCounts } from './testResult';

export async function runExtensionTestsInDesktopVsCode(): Promise<ExtensionTestRun> {
  const dir = mkdtempSync(join(tmpdir(), 'rl-studio-desktop-'));
  const removeDir = onCleanup(() => rmSync(dir, { recursive: true, force: true }));
  const workspace = join(dir, 'workspace');
  mkdirSync(workspace);
  // Desktop VS Code prints the host's output to our stdout among its own; the counts come back in a file.
  const countsFile = join(dir, 'counts.txt');
  let problem: string | undefined;
  try {
    await runTests({
      ...(process.env.RL_STUDIO_VSCODE_VERSION ? { version: process.env.RL_STUDIO_VSCODE_VERSION } : {}),
      extensionDevelopmentPath: repoRoot,
      extensionTestsPath: integrationEntry,
      extensionTestsEnv: { RL_STUDIO_TEST_COUNTS_FILE: countsFile },
      launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust', `--user-data-dir=${join(dir, 'user')}`],
    });
  } catch (error) {
    // Failing tests end here too (VS Code exits with 1); only a run without counts is a problem.
    problem = `desktop VS Code could not run the tests: ${String(error)}`;
  }
  const counts = readCounts(countsFile);
  removeDir();
  return { counts, ...(counts || !problem ? {} : { problem }) };
}

function readCounts(file: string): TestCounts | undefined {
  try {
    return parseCountsLine(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}
