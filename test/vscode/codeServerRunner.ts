/**
 * Runs the extension tests inside code-server's extension host (a real VS Code, Node host), with
 * headless chromium as the window: the default runner, and the one CI uses since it needs nothing
 * but the npm registry and Debian packages.
 */
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { format } from 'node:util';
import type { Browser } from 'playwright-core';
import { launchBrowser } from './browser';
import { startCodeServer } from './codeServer';
import { ensureCodeServerInstalled } from './ensureInstalled';
import { extensionId, integrationEntry, repoRoot } from './paths';
import { parseCountsLine, testsStartLine, type TestCounts } from './testResult';

/** Workbench messages that say nothing about the tests (the marketplace is off on purpose). */
const workbenchNoise = /^Ignoring fetching additional builtin extensions from gallery|^Updating additional builtin extensions cache/;

export interface ExtensionTestRun {
  counts: TestCounts | undefined;
  /** Why the run did not produce counts, or how it ended badly. */
  problem?: string;
}

export async function runExtensionTestsInCodeServer(artifactsDir: string): Promise<ExtensionTestRun> {
  ensureCodeServerInstalled();
  rmSync(artifactsDir, { recursive: true, force: true });
  mkdirSync(artifactsDir, { recursive: true });
  const timeoutMs = Number(process.env.RL_STUDIO_TEST_TIMEOUT_MS) || 10 * 60_000;
  const server = await startCodeServer({ logFile: join(artifactsDir, 'code-server.log') });
  let browser: Browser | undefined;
  let counts: TestCounts | undefined;
  let problem: string | undefined;
  try {
    browser = await launchBrowser();
    const page = await browser.newPage();
    let finish: (exitCode: number | string) => void = () => undefined;
    const finished = new Promise<number | string>((resolve) => (finish = resolve));
    // The workbench's test driver hands its own log and the extension host's console output, and
    // then the exit code, to these two page functions; they must exist before the workbench loads.
    // Everything goes to a file; the console gets what comes after the tests start.
    const consoleLog = join(artifactsDir, 'workbench-console.log');
    writeFileSync(consoleLog, '');
    let testsStarted = false;
    await page.exposeFunction('codeAutomationLog', (level: unknown, args: unknown) => {
      const line = format(...(Array.isArray(args) ? args : [args]));
      appendFileSync(consoleLog, `[${String(level)}] ${line}\n`);
      const parsed = parseCountsLine(line);
      if (parsed) counts = parsed;
      else if (line === testsStartLine) testsStarted = true;
      else if (testsStarted && !workbenchNoise.test(line)) console.log(line);
    });
    await page.exposeFunction('codeAutomationExit', (code: number) => finish(code));
    page.on('pageerror', (error) => console.log(`[workbench error] ${String(error).slice(0, 300)}`));
    page.on('crash', () => finish('the browser page crashed'));
    const timer = setTimeout(() => finish('timeout'), timeoutMs);

    await page.goto(
      server.workbenchUrl([
        ['extensionDevelopmentPath', server.remotePath(repoRoot)],
        ['extensionTestsPath', server.remotePath(integrationEntry)],
      ]),
    );
    const exitCode = await finished;
    clearTimeout(timer);
    if (exitCode === 'timeout') problem = `the extension tests did not finish within ${timeoutMs / 1000}s`;
    else if (typeof exitCode === 'string') problem = exitCode;
    else if (exitCode !== 0 && !counts) problem = `the extension host ended with exit code ${exitCode} before reporting results`;
    if (problem || exitCode !== 0) {
      await page.screenshot({ path: join(artifactsDir, 'workbench-at-end.png') }).catch(() => undefined);
    }
  } catch (error) {
    problem = `the workbench could not run the tests: ${String(error)}`;
  } finally {
    await browser?.close().catch(() => undefined);
    if (problem || !counts || counts.failed > 0) {
      server.keepLogs(artifactsDir);
      for (const error of server.activationErrors(extensionId)) console.log(`RL Studio failed to activate:\n${error}`);
      console.log(`logs of the run: ${artifactsDir}`);
    }
    await server.stop();
  }
  return { counts, ...(problem ? { problem } : {}) };
}
