/**
 * The extension tests entry (extensionTestsPath): VS Code loads this module inside the extension host
 * and calls run(). Both runners use it: code-server in a browser, and the desktop VS Code of
 * @vscode/test-electron. It runs every out/test/integration/**\/*.test.js with mocha.
 */
import Mocha from 'mocha';
import { writeFileSync } from 'node:fs';
import { filesEndingWith } from '../support/files';
import { countsLine, testsStartLine, type TestCounts } from '../vscode/testResult';

export async function run(): Promise<void> {
  const mocha = new Mocha({
    ui: 'bdd',
    reporter: 'spec',
    color: false, // the output is read as plain text in a browser console or a CI log
    timeout: 60_000,
    ...(process.env.RL_STUDIO_TEST_GREP ? { grep: process.env.RL_STUDIO_TEST_GREP } : {}),
  });
  // The pass and fail marks are coloured once, when mocha loads, whatever `color` says.
  Mocha.reporters.Base.symbols.ok = '✔';
  Mocha.reporters.Base.symbols.err = '✖';
  for (const file of filesEndingWith(__dirname, '.test.js')) mocha.addFile(file);

  const counts: TestCounts = { passed: 0, failed: 0, pending: 0 };
  console.log(testsStartLine);
  await new Promise<void>((resolve) => {
    const runner = mocha.run(() => resolve());
    runner.on('pass', () => counts.passed++);
    runner.on('fail', () => counts.failed++);
    runner.on('pending', () => counts.pending++);
  });
  console.log(countsLine(counts));
  // Desktop VS Code mixes the host's output with its own; the desktop runner reads the counts from a file.
  if (process.env.RL_STUDIO_TEST_COUNTS_FILE) writeFileSync(process.env.RL_STUDIO_TEST_COUNTS_FILE, countsLine(counts));
  if (counts.failed > 0 || counts.passed === 0) {
    throw new Error(counts.failed > 0 ? `${counts.failed} extension tests failed` : 'no extension test ran');
  }
}
