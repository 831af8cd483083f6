/**
 * `node out/test/ui/runner.js [--stage ui] [--vsix rl-studio.vsix]`: the UI tests. Starts the
 * emulator, a code-server whose user settings point RL Studio at it, and headless chromium; then
 * runs every out/test/ui/**\/*.ui.js module (see context.ts) and ends with `<stage>: N passed, N failed`.
 * Without --vsix the extension is loaded from the repository as in development; with it, the
 * packaged extension is installed into code-server first, as users get it. Either way the test
 * extensions of test/ui/fixtures/ are packaged and installed beside it (see fixtureExtensions.ts).
 */
import { mkdirSync, rmSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import type { Browser } from 'playwright-core';
import { errorMessage } from '../../src/platform/client/errorMessage';
import { startEmulator } from '../emulator/index';
import type { Emulator } from '../emulator/contract';
import { launchBrowser } from '../vscode/browser';
import { startCodeServer, type CodeServer } from '../vscode/codeServer';
import { ensureCodeServerInstalled } from '../vscode/ensureInstalled';
import { extensionId, repoRoot, resultsDir, uiTestsDir } from '../vscode/paths';
import { summaryLine } from '../vscode/testResult';
import type { UiTestContext } from './context';
import { testsInOrder, uiModules } from './discovery';
import { packageFixtureExtension } from './fixtureExtensions';
import { waitForWorkbench } from './workbench';

interface Options {
  stage: string;
  vsix: string | undefined;
}

const testTimeoutMs = Number(process.env.RL_STUDIO_UI_TEST_TIMEOUT_MS) || 120_000;

function parseOptions(argv: string[]): Options {
  const value = (flag: string) => {
    const index = argv.indexOf(flag);
    return index >= 0 ? argv[index + 1] : undefined;
  };
  return { stage: value('--stage') ?? 'ui', vsix: value('--vsix') };
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms / 1000}s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function runModule(file: string, browser: Browser, server: CodeServer, workbenchUrl: string, emulator: Emulator, artifactsDir: string): Promise<{ passed: number; failed: number }> {
  const moduleName = relative(uiTestsDir, file).replace(/\.ui\.js$/, '');
  const shotsDir = join(artifactsDir, moduleName);
  mkdirSync(shotsDir, { recursive: true });
  let shotNumber = 0;
  const counts = { passed: 0, failed: 0 };
  console.log(`\n  ${moduleName}`);

  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  page.on('pageerror', (error) => console.log(`      [workbench error] ${String(error).slice(0, 300)}`));
  const testContext: UiTestContext = {
    page,
    emulator,
    workspace: server.workspace,
    async screenshot(name) {
      shotNumber += 1;
      const path = join(shotsDir, `${String(shotNumber).padStart(2, '0')}-${name.replace(/[^\w.-]+/g, '-')}.png`);
      await page.screenshot({ path });
      return path;
    },
  };
  try {
    await page.goto(workbenchUrl);
    await waitForWorkbench(page);
    // Later steps still run after a failure: what they show helps to understand the first one.
    for (const test of testsInOrder(file)) {
      const started = Date.now();
      try {
        await withTimeout(test.run(testContext), testTimeoutMs, test.title);
        counts.passed += 1;
        console.log(`    ✔ ${test.title} (${Date.now() - started} ms)`);
      } catch (error) {
        counts.failed += 1;
        const shot = await testContext.screenshot(`failed-${test.title}`).catch(() => 'none');
        console.log(`    ✘ ${test.title}\n      ${String(error instanceof Error ? (error.stack ?? error.message) : error).replace(/\n/g, '\n      ')}`);
        console.log(`      screenshot: ${relative(repoRoot, shot)}`);
      }
    }
  } catch (error) {
    counts.failed += 1;
    console.log(`    ✘ the workbench did not load: ${String(error)}`);
    await page.screenshot({ path: join(shotsDir, 'failed-workbench.png') }).catch(() => undefined);
    server.keepLogs(artifactsDir);
  } finally {
    await context.close();
  }
  return counts;
}

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  const artifactsDir = join(resultsDir, options.stage);
  rmSync(artifactsDir, { recursive: true, force: true });
  mkdirSync(artifactsDir, { recursive: true });
  const total = { passed: 0, failed: 0 };
  let emulator: Emulator | undefined;
  let server: CodeServer | undefined;
  let browser: Browser | undefined;
  try {
    // RL_STUDIO_UI_MODULES=walkthrough,chat runs only those modules, for a quicker look at one part.
    const wanted = (process.env.RL_STUDIO_UI_MODULES ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean);
    const modules = uiModules(uiTestsDir).filter((file) => wanted.length === 0 || wanted.includes(relative(uiTestsDir, file).replace(/\.ui\.js$/, '')));
    if (modules.length === 0) throw new Error(`no UI test modules (*.ui.js) under ${uiTestsDir}${wanted.length ? ` named ${wanted.join(', ')}` : ''}`);
    ensureCodeServerInstalled();
    emulator = await startEmulator();
    // The Tool Caller stands for any other extension or agent that calls RL Studio's tools.
    const toolCaller = await packageFixtureExtension('tool-caller', artifactsDir);
    server = await startCodeServer({
      userSettings: {
        'rlStudio.trainingApiUrl': emulator.trainingUrl,
        'rlStudio.inferenceApiUrl': emulator.inferenceUrl,
      },
      installExtensions: [...(options.vsix ? [options.vsix] : []), toolCaller],
      logFile: join(artifactsDir, 'code-server.log'),
    });
    const workbenchUrl = options.vsix ? server.workbenchUrl() : server.workbenchUrl([['extensionDevelopmentPath', server.remotePath(repoRoot)]]);
    console.log(`${options.stage}: RL Studio ${options.vsix ? `installed from ${basename(options.vsix)}` : 'from the repository'}, emulator at ${emulator.url}`);
    browser = await launchBrowser();
    for (const file of modules) {
      const counts = await runModule(file, browser, server, workbenchUrl, emulator, artifactsDir);
      total.passed += counts.passed;
      total.failed += counts.failed;
    }
    if (total.failed > 0) {
      server.keepLogs(artifactsDir);
      for (const error of server.activationErrors(extensionId)) console.log(`RL Studio failed to activate:\n${error}`);
    }
  } catch (error) {
    total.failed += 1;
    console.log(`${options.stage}: ${errorMessage(error)}`);
  } finally {
    await browser?.close().catch(() => undefined);
    await server?.stop();
    await emulator?.close();
  }
  console.log(`screenshots and logs: ${relative(repoRoot, artifactsDir)}/`);
  console.log(summaryLine(options.stage, total));
  return total.failed === 0 && total.passed > 0 ? 0 : 1;
}

void main().then((code) => process.exit(code));
