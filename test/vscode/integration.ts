/**
 * `node out/test/vscode/integration.js [--desktop]`: runs the extension tests in a real VS Code and
 * ends with `integration: N passed, N failed`. code-server (offline) by default; desktop VS Code
 * through @vscode/test-electron with --desktop or RL_STUDIO_TEST_RUNNER=electron.
 */
import { join } from 'node:path';
import { errorMessage } from '../../src/platform/client/errorMessage';
import { runExtensionTestsInCodeServer, type ExtensionTestRun } from './codeServerRunner';
import { runExtensionTestsInDesktopVsCode } from './electronRunner';
import { resultsDir } from './paths';
import { summaryLine } from './testResult';

async function main(): Promise<number> {
  const desktop = process.argv.includes('--desktop') || process.env.RL_STUDIO_TEST_RUNNER === 'electron';
  let run: ExtensionTestRun;
  try {
    run = desktop ? await runExtensionTestsInDesktopVsCode() : await runExtensionTestsInCodeServer(join(resultsDir, 'integration'));
  } catch (error) {
    run = { counts: undefined, problem: errorMessage(error) };
  }
  if (run.counts && run.counts.passed + run.counts.failed === 0 && !run.problem) run.problem = 'no extension test ran';
  if (run.problem) console.log(`integration: ${run.problem}`);
  if (run.counts?.pending) console.log(`integration: ${run.counts.pending} pending`);
  // A run that could not start, or ended without a result, counts as a failure, never as a quiet success.
  const passed = run.counts?.passed ?? 0;
  const failed = (run.counts?.failed ?? 0) + (run.problem ? 1 : 0);
  console.log(summaryLine('integration', { passed, failed }));
  return failed === 0 ? 0 : 1;
}

void main().then((code) => process.exit(code));
