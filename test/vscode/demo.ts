/**
 * `npm start` (through run-demo.sh, after a build): the emulator with demo data, and a real VS Code
 * with RL Studio already pointed at it, signed in, and listing the demo models and training jobs,
 * with a workspace that has a file for every feature. Desktop VS Code when a `code` command exists,
 * otherwise code-server in the browser. Ctrl-C stops everything.
 *   RL_STUDIO_DEMO=web|desktop      choose instead of detecting
 *   RL_STUDIO_EMULATOR_PORT         the emulator's port, default 8787
 *   RL_STUDIO_DEMO_PORT             code-server's port, default 8788
 * A port that is taken is not an error: the emulator or code-server takes a free one instead, says
 * so, and the printed addresses (and the settings the demo writes) use it.
 *
 * How nothing is typed, without giving an installed extension a way to sign itself in:
 * - The API addresses go into the USER settings of a VS Code profile of the demo's own (code-server's
 *   user data folder, or a separate --user-data-dir for desktop VS Code), never into the workspace:
 *   RL Studio asks before it sends the key to addresses that came from a workspace, and the
 *   person's own VS Code settings are never touched.
 * - The key and the ids travel in a seed file named by RL_STUDIO_DEVELOPMENT_SEED. RL Studio reads it
 *   only when VS Code runs it as an extension under development (src/platform/host/developmentSeed.ts),
 *   stores the key in SecretStorage as Sign In does, and remembers the models and jobs. So the
 *   demo loads RL Studio with --extensionDevelopmentPath: directly for desktop VS Code, and through
 *   the workbench's development payload for code-server, which honours that payload only with its
 *   automation driver on. The driver also keeps notifications from popping up, so the browser opens
 *   code-server through a small proxy (toastingProxy.ts) that gives them back. The seed file is
 *   readable by this user only and removed when the demo stops.
 */
import { randomUUID } from 'node:crypto';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { applyEdits, modify } from 'jsonc-parser';
import { errorMessage } from '../../src/platform/client/errorMessage';
import type { DevelopmentSeed } from '../../src/platform/host/developmentSeed';
import type { SeededIds } from '../emulator/contract';
import { onCleanup } from './cleanup';
import { startCodeServer } from './codeServer';
import { startToastingProxy, type ToastingProxy } from './toastingProxy';
import { ensureCodeServerInstalled } from './ensureInstalled';
import { preferredPort } from './freePort';
import { cacheDir, repoRoot, resultsDir } from './paths';
import { startInProcessGroup, type GroupProcess } from './processGroup';

const apiKey = 'emulator-key';
const wantedEmulatorPort = Number(process.env.RL_STUDIO_EMULATOR_PORT) || 8787;
const wantedCodeServerPort = Number(process.env.RL_STUDIO_DEMO_PORT) || 8788;
const logDir = join(resultsDir, 'demo');
/** What the demo keeps between runs: its desktop VS Code profile; the seed file while it runs. */
const demoStateDir = join(cacheDir, 'demo');
/** The workspace the demo opens: a fresh copy of demoWorkspaceSource at every start. */
const demoWorkspaceDir = join(cacheDir, 'demo-workspace');
const demoWorkspaceSource = join(repoRoot, 'test', 'vscode', 'demo-workspace');
const seedVariable = 'RL_STUDIO_DEVELOPMENT_SEED';

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
  const emulator = startInProcessGroup(process.execPath, [join(repoRoot, 'out', 'test', 'emulator', 'main.js'), '--port', String(emulatorPort), '--key', apiKey, '--seconds-per-step', '2'], {
    logFile,
  });
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

interface EmulatorState {
  seeded: SeededIds | null;
  models: Array<{ id: string; entity: string; project: string; name: string }>;
  jobs: Array<{ id: string; model_id: string }>;
}

/**
 * The seed for RL Studio, from what the emulator seeded (test/emulator/seed.ts): its two models, with
 * their names so that their checkpoints can be chatted with, and its three jobs, the live one first.
 */
async function developmentSeed(emulator: DemoEmulator): Promise<{ seed: DevelopmentSeed; modelNames: string[] }> {
  const state = (await (await fetch(`${emulator.base}/_emulator/state`, { signal: AbortSignal.timeout(10_000) })).json()) as EmulatorState;
  const seeded = state.seeded;
  if (!seeded) throw new Error('the emulator started without its demo data');
  const modelOf = (id: string | undefined) => state.models.find((model) => model.id === id);
  const trained = modelOf(seeded.trainedModelId);
  const failedOn = modelOf(state.jobs.find((job) => job.id === seeded.failedJobId)?.model_id);
  if (!trained || !failedOn) throw new Error("the emulator's state does not list the seeded models");
  // The seed creates its models from the first base model.
  const asRemembered = (model: EmulatorState['models'][number]) => ({ id: model.id, entity: model.entity, project: model.project, name: model.name, base_model: seeded.baseModels[0] ?? '' });
  const seed: DevelopmentSeed = {
    version: 1,
    runId: randomUUID(),
    trainingApiUrl: emulator.trainingUrl,
    inferenceApiUrl: emulator.inferenceUrl,
    apiKey,
    models: [asRemembered(trained), asRemembered(failedOn)],
    jobs: [
      { id: seeded.runningJobId, modelId: trained.id, kind: 'rl', label: `long run → ${trained.name}` },
      { id: seeded.failedJobId, modelId: failedOn.id, kind: 'rl', label: `out-of-memory run → ${failedOn.name}` },
      { id: seeded.succeededJobId, modelId: trained.id, kind: 'rl', label: `finished run → ${trained.name}` },
    ],
  };
  return { seed, modelNames: [trained.name, failedOn.name] };
}

/** Writes the seed where only this user can read it, and removes it when the demo ends. */
function writeSeedFile(seed: DevelopmentSeed): string {
  mkdirSync(demoStateDir, { recursive: true, mode: 0o700 });
  const file = join(demoStateDir, `seed-${process.pid}.json`);
  writeFileSync(file, `${JSON.stringify(seed, null, 2)}\n`, { mode: 0o600 });
  onCleanup(() => rmSync(file, { force: true }));
  return file;
}

/** A fresh copy of the demo workspace: what a previous run left there is replaced. */
function prepareWorkspace(): string {
  rmSync(demoWorkspaceDir, { recursive: true, force: true });
  cpSync(demoWorkspaceSource, demoWorkspaceDir, { recursive: true });
  return demoWorkspaceDir;
}

/** User settings of the demo's VS Code profile: the emulator's addresses, and the README on start. */
function demoUserSettings(emulator: DemoEmulator): Record<string, unknown> {
  return {
    'rlStudio.trainingApiUrl': emulator.trainingUrl,
    'rlStudio.inferenceApiUrl': emulator.inferenceUrl,
    'workbench.startupEditor': 'readme',
  };
}

/**
 * Sets the demo's keys in a profile's User/settings.json, keeping anything else (and its comments)
 * someone put there in an earlier run.
 */
function writeUserSettings(userDataDir: string, settings: Record<string, unknown>): void {
  const file = join(userDataDir, 'User', 'settings.json');
  mkdirSync(dirname(file), { recursive: true });
  let text = existsSync(file) ? readFileSync(file, 'utf8') : '{}';
  if (text.trim() === '') text = '{}';
  for (const [key, value] of Object.entries(settings)) {
    text = applyEdits(text, modify(text, [key], value, { formattingOptions: { insertSpaces: true, tabSize: 2 } }));
  }
  writeFileSync(file, text.endsWith('\n') ? text : `${text}\n`);
}

function desktopCodeAvailable(): boolean {
  if (process.env.RL_STUDIO_DEMO === 'web') return false;
  if (process.env.RL_STUDIO_DEMO === 'desktop') return true;
  return spawnSync('sh', ['-c', 'command -v code'], { stdio: 'ignore' }).status === 0;
}

/**
 * Says once, when the browser first loads the workbench, if this code-server's workbench no longer
 * has the code the proxy patches: its notifications then collect in the Notifications list (the
 * bell in the status bar) without popping up.
 */
async function whenWorkbenchScriptServed(proxy: ToastingProxy): Promise<void> {
  if (!(await proxy.scriptServed)) console.log('Note: notifications will not pop up in this code-server; they collect in the Notifications list (the bell at the bottom right).');
}

function waitForever(): Promise<never> {
  return new Promise(() => setInterval(() => undefined, 1 << 30));
}

async function main(): Promise<void> {
  mkdirSync(logDir, { recursive: true });
  const emulator = await startDemoEmulator(await portFor('the emulator', wantedEmulatorPort));
  const workspace = prepareWorkspace();
  const { seed, modelNames } = await developmentSeed(emulator);
  const seedFile = writeSeedFile(seed);
  const banner = (where: string) =>
    [
      '',
      'RL Studio demo',
      `  emulator:   ${emulator.trainingUrl} and ${emulator.inferenceUrl} (log: ${join(logDir, 'emulator.log')})`,
      "  ready:      signed in to the emulator (the key is in VS Code's secret storage only);",
      `              Models lists the catalogue and ${modelNames.join(' and ')} with their checkpoints;`,
      '              Training Jobs lists a running, a failed and a succeeded job',
      `  workspace:  ${workspace} (its README.md says what to try; it is copied fresh at every start)`,
      `  VS Code:    ${where}`,
      '  Ctrl-C stops everything.',
      '',
    ].join('\n');

  if (desktopCodeAvailable()) {
    // A profile of the demo's own, so the person's VS Code settings, state and extensions stay as
    // they are, and so that `code` starts a new VS Code (which gets this environment) rather than
    // handing the folder to one already running.
    const profile = join(demoStateDir, 'desktop-profile');
    writeUserSettings(join(profile, 'user-data'), demoUserSettings(emulator));
    console.log(banner(`desktop, profile ${profile}`));
    const code = spawn(
      'code',
      ['--new-window', '--wait', '--user-data-dir', join(profile, 'user-data'), '--extensions-dir', join(profile, 'extensions'), `--extensionDevelopmentPath=${repoRoot}`, workspace],
      { stdio: 'inherit', env: { ...process.env, [seedVariable]: seedFile } },
    );
    await new Promise((resolve) => code.once('exit', resolve));
    await emulator.process.stop();
    return;
  }

  ensureCodeServerInstalled();
  const port = await portFor('code-server', wantedCodeServerPort);
  const server = await startCodeServer({
    workspace,
    publicPort: port,
    userSettings: demoUserSettings(emulator),
    // The automation driver is what makes the workbench honour the development payload below.
    testDriver: true,
    env: { [seedVariable]: seedFile },
    logFile: join(logDir, 'code-server.log'),
  });
  // The person opens the proxy: it gives back the toasts that the automation driver hides.
  const proxy = await startToastingProxy(port, server.port);
  const workbenchUrl = server.workbenchUrl([['extensionDevelopmentPath', server.remotePath(repoRoot)]]);
  console.log(banner(`open ${workbenchUrl} in a browser`));
  await whenWorkbenchScriptServed(proxy);
  await waitForever();
}

main().catch((error: unknown) => {
  console.error(errorMessage(error));
  process.exit(1);
});
