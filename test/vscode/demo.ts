/**
 * `npm start` (through run-demo.sh, after a build): the emulator with demo data, and a real VS Code
 * with RL Studio pointed at it. Desktop VS Code when a `code` command exists, otherwise code-server
 * in the browser. Ctrl-C stops everything.
 *   RL_STUDIO_DEMO=web|desktop      choose instead of detecting
 *   RL_STUDIO_EMULATOR_PORT         the emulator's port, default 8787
 *   RL_STUDIO_DEMO_PORT             code-server's port, default 8788
 * A port that is taken is not an error: the emulator or code-server takes a free one instead, says
 * so, and the printed addresses (and the demo workspace's settings) use it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startCodeServer } from './codeServer';
import { ensureCodeServerInstalled } from './ensureInstalled';
import { preferredPort } from './freePort';
import { cacheDir, repoRoot, resultsDir } from './paths';
import { startInProcessGroup, type GroupProcess } from './processGroup';

const apiKey = 'emulator-key';
const wantedEmulatorPort = Number(process.env.RL_STUDIO_EMULATOR_PORT) || 8787;
const wantedCodeServerPort = Number(process.env.RL_STUDIO_DEMO_PORT) || 8788;
const logDir = join(resultsDir, 'demo');

/** A port for one of the demo's servers: the wanted one, or a free one with a line saying why. */
async function portFor(what: string, wanted: number): Promise<number> {
  const { port, wantedWasBusy } = await preferredPort(wanted);
  if (wantedWasBusy) console.log(`Port ${wanted} is in use, so ${what} uses port ${port} instead.`);
  return port;
}

interface DemoEmulator {
  process: GroupProcess;
  base: string;
  trainingUrl: string;
  inferenceUrl: string;
}

async function startDemoEmulator(emulatorPort: number): Promise<DemoEmulator> {
  const logFile = join(logDir, 'emulator.log');
  const emulator = startInProcessGroup(
    process.execPath,
    [join(repoRoot, 'out', 'test', 'emulator', 'main.js'), '--port', String(emulatorPort), '--key', apiKey, '--seconds-per-step', '2'],
    { logFile },
  );
  const base = `http://127.0.0.1:${emulatorPort}`;
  let exited = false;
  void emulator.exited.then(() => (exited = true));
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline && !exited) {
    try {
      if ((await fetch(`${base}/training/v1/health`, { signal: AbortSignal.timeout(1000) })).ok) {
        return { process: emulator, base, trainingUrl: `${base}/training/v1`, inferenceUrl: `${base}/inference/v1` };
      }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await emulator.stop();
  throw new Error(`the emulator did not start on port ${emulatorPort}:\n${readFileSync(logFile, 'utf8').slice(-2000)}`);
}

/** A folder whose workspace settings point RL Studio at the emulator. */
function demoWorkspace(trainingUrl: string, inferenceUrl: string): string {
  const folder = join(cacheDir, 'demo-workspace');
  mkdirSync(join(folder, '.vscode'), { recursive: true });
  const settings = { 'rlStudio.trainingApiUrl': trainingUrl, 'rlStudio.inferenceApiUrl': inferenceUrl };
  writeFileSync(join(folder, '.vscode', 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
  return folder;
}

/** The seeded ids a person pastes into "Add Model by ID" and "Add Training Job by ID". */
async function seededIdLines(emulatorBase: string): Promise<string[]> {
  try {
    const state = (await (await fetch(`${emulatorBase}/_emulator/state`)).json()) as {
      seeded?: { trainedModelId: string; trainedModelName: string; runningJobId: string; failedJobId: string; succeededJobId: string };
    };
    const seeded = state.seeded;
    if (!seeded) return [];
    return [
      `  add model:  ${seeded.trainedModelId}   (${seeded.trainedModelName}: Models view, Add Model by ID)`,
      `  add jobs:   ${seeded.runningJobId} (running), ${seeded.failedJobId} (failed),`,
      `              ${seeded.succeededJobId} (succeeded)   (Training Jobs view, Add Job by ID)`,
    ];
  } catch {
    return [];
  }
}

function desktopCodeAvailable(): boolean {
  if (process.env.RL_STUDIO_DEMO === 'web') return false;
  if (process.env.RL_STUDIO_DEMO === 'desktop') return true;
  return spawnSync('sh', ['-c', 'command -v code'], { stdio: 'ignore' }).status === 0;
}

function waitForever(): Promise<never> {
  return new Promise(() => setInterval(() => undefined, 1 << 30));
}

async function main(): Promise<void> {
  mkdirSync(logDir, { recursive: true });
  const emulator = await startDemoEmulator(await portFor('the emulator', wantedEmulatorPort));
  const workspace = demoWorkspace(emulator.trainingUrl, emulator.inferenceUrl);
  const seeded = await seededIdLines(emulator.base);
  const banner = (where: string) =>
    [
      '',
      'RL Studio demo',
      `  emulator:   ${emulator.trainingUrl} and ${emulator.inferenceUrl} (log: ${join(logDir, 'emulator.log')})`,
      `  API key:    ${apiKey}   (RL Studio: Sign In, or the Sign In button of the RL Studio view)`,
      ...seeded,
      `  VS Code:    ${where}`,
      '  Ctrl-C stops everything.',
      '',
    ].join('\n');

  if (desktopCodeAvailable()) {
    console.log(banner(`desktop, workspace ${workspace}`));
    const code = spawn('code', ['--new-window', '--wait', `--extensionDevelopmentPath=${repoRoot}`, workspace], { stdio: 'inherit' });
    await new Promise((resolve) => code.once('exit', resolve));
    await emulator.process.stop();
    return;
  }

  ensureCodeServerInstalled();
  const port = await portFor('code-server', wantedCodeServerPort);
  const server = await startCodeServer({
    workspace,
    port,
    testDriver: false, // notifications show as they do for users
    linkExtensions: [repoRoot],
    logFile: join(logDir, 'code-server.log'),
  });
  console.log(banner(`open ${server.workbenchUrl()} in a browser`));
  await waitForever();
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
