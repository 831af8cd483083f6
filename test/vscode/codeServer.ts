/**
 * One code-server for one test run: its own user data, extensions and config in a fresh temporary
 * folder, bound to a free port on 127.0.0.1, without authentication, telemetry or update checks.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { onCleanup } from './cleanup';
import { activationErrors } from './extensionHostLog';
import { freePort } from './freePort';
import { codeServerBin, node24Bin } from './paths';
import { startInProcessGroup, type GroupProcess } from './processGroup';

export interface CodeServerOptions {
  /** The folder the workbench opens; an empty temporary one when absent. */
  workspace?: string;
  /** Written to User/settings.json before the server starts. */
  userSettings?: Record<string, unknown>;
  /** .vsix files installed into this server's extensions folder before it starts. */
  installExtensions?: string[];
  /**
   * Extension folders linked into the extensions folder, so the server loads them as installed while
   * they stay live: a rebuild shows after "Developer: Reload Window". Without the test driver this is
   * the way to load an extension from source, since `?payload=` then has no effect.
   */
  linkExtensions?: string[];
  /**
   * Lets the workbench honour `?payload=` (extension development and test paths) and drive
   * automation; it also hides toast notifications. Default true.
   */
  testDriver?: boolean;
  /** Extra environment for the server and so for its extension hosts. */
  env?: NodeJS.ProcessEnv;
  /** Where the server's log is kept (a file in the temporary folder when absent). */
  logFile?: string;
  /** A fixed port on 127.0.0.1 (a free one when absent). */
  port?: number;
  /**
   * The port of a proxy in front of the server, on 127.0.0.1: the addresses this returns (`url`,
   * `authority`, `workbenchUrl`, `remotePath`) are then the proxy's, as the browser sees them.
   */
  publicPort?: number;
}

export interface CodeServer {
  readonly url: string;
  /** The port the server itself listens on (the proxy's target when there is one). */
  readonly port: number;
  /** host:port, the authority of `vscode-remote://` addresses that the workbench resolves on this server. */
  readonly authority: string;
  readonly workspace: string;
  readonly userDataDir: string;
  readonly logFile: string;
  /** Address of the workbench with the folder open and, optionally, a payload for the test driver. */
  workbenchUrl(payload?: Array<[string, string]>): string;
  /** A `vscode-remote://` address of a path on this machine, for payload entries. */
  remotePath(path: string): string;
  /** Copies the server log and the extension host logs into a folder, to read after a failed run. */
  keepLogs(destination: string): void;
  /** Errors the extension hosts logged while activating an extension, each with its first stack lines. */
  activationErrors(extensionId: string): string[];
  stop(): Promise<void>;
}

const execFileAsync = promisify(execFile);

function serverEnv(extra: NodeJS.ProcessEnv | undefined): NodeJS.ProcessEnv {
  return {
    ...process.env,
    // An empty gallery turns off the extension marketplace, so the workbench makes no calls outside
    // 127.0.0.1 (update checks of built-in extensions, recommendations).
    EXTENSIONS_GALLERY: '{}',
    ...extra,
    // code-server requires Node 24; put it first so it and everything it starts use it.
    PATH: `${node24Bin}:${process.env.PATH ?? ''}`,
  };
}

function commonArgs(dir: string): string[] {
  // Always pass --config: without it code-server writes one into the home folder.
  return ['--config', join(dir, 'config.yaml'), '--user-data-dir', join(dir, 'user'), '--extensions-dir', join(dir, 'extensions')];
}

async function waitForHealth(url: string, server: GroupProcess, logFile: string, timeoutMs: number): Promise<void> {
  let exitedWith: number | string | undefined;
  void server.exited.then((code) => (exitedWith = code));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (exitedWith !== undefined) break;
    try {
      const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const log = readFileSync(logFile, 'utf8').split('\n').slice(-30).join('\n');
  const reason = exitedWith !== undefined ? `exited (${exitedWith})` : `did not answer ${url}/healthz in ${timeoutMs / 1000}s`;
  throw new Error(`code-server ${reason}; last lines of its log:\n${log}`);
}

export async function startCodeServer(options: CodeServerOptions = {}): Promise<CodeServer> {
  const dir = mkdtempSync(join(tmpdir(), 'rl-studio-code-server-'));
  // rmSync removes symbolic links themselves, never what they point to (linked extensions stay).
  const removeDir = onCleanup(() => {
    if (!process.env.RL_STUDIO_KEEP_TEMP) rmSync(dir, { recursive: true, force: true });
  });
  const workspace = options.workspace ?? join(dir, 'workspace');
  mkdirSync(workspace, { recursive: true });
  mkdirSync(join(dir, 'user', 'User'), { recursive: true });
  mkdirSync(join(dir, 'extensions'), { recursive: true });
  writeFileSync(join(dir, 'config.yaml'), 'auth: none\ncert: false\n');
  writeFileSync(join(dir, 'user', 'User', 'settings.json'), JSON.stringify(defaultSettings(options.userSettings), null, 2));
  const logFile = options.logFile ?? join(dir, 'code-server.log');
  const env = serverEnv(options.env);

  for (const vsix of options.installExtensions ?? []) {
    try {
      await execFileAsync(codeServerBin, [...commonArgs(dir), '--force', '--install-extension', vsix], { env, timeout: 120_000 });
    } catch (error) {
      removeDir();
      const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
      throw new Error(`installing ${vsix} into code-server failed:\n${stdout}${stderr}`);
    }
  }

  for (const folder of options.linkExtensions ?? []) {
    const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { publisher: string; name: string; version: string };
    symlinkSync(folder, join(dir, 'extensions', `${manifest.publisher}.${manifest.name}-${manifest.version}`), 'dir');
  }

  const port = options.port ?? (await freePort());
  const ownUrl = `http://127.0.0.1:${port}`;
  const authority = `127.0.0.1:${options.publicPort ?? port}`;
  const url = `http://${authority}`;
  const args = [
    ...commonArgs(dir),
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--auth',
    'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    ...(options.testDriver === false ? [] : ['--vscode-option', 'enable-smoke-test-driver']),
    workspace,
  ];
  const server = startInProcessGroup(codeServerBin, args, { env, logFile });
  try {
    await waitForHealth(ownUrl, server, logFile, 60_000);
  } catch (error) {
    await server.stop();
    removeDir();
    throw error;
  }

  const remotePath = (path: string): string => `vscode-remote://${authority}${path}`;
  return {
    url,
    port,
    authority,
    workspace,
    userDataDir: join(dir, 'user'),
    logFile,
    remotePath,
    workbenchUrl(payload) {
      const query = new URLSearchParams({ folder: workspace });
      if (payload) query.set('payload', JSON.stringify(payload));
      return `${url}/?${query}`;
    },
    keepLogs(destination) {
      mkdirSync(destination, { recursive: true });
      const copies: Array<[string, string]> = [
        [logFile, join(destination, 'code-server.log')],
        [join(dir, 'user', 'logs'), join(destination, 'logs')],
      ];
      for (const [from, to] of copies) {
        if (existsSync(from) && resolve(from) !== resolve(to)) cpSync(from, to, { recursive: true, force: true });
      }
    },
    activationErrors(extensionId) {
      return activationErrors(join(dir, 'user', 'logs'), extensionId);
    },
    async stop() {
      await server.stop();
      removeDir();
    },
  };
}

/** Quiet defaults so that nothing but the extension under test asks for attention. */
function defaultSettings(extra: Record<string, unknown> | undefined): Record<string, unknown> {
  return {
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
    'workbench.enableExperiments': false,
    'telemetry.telemetryLevel': 'off',
    'update.mode': 'none',
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'security.workspace.trust.enabled': false,
    'chat.disableAIFeatures': true,
    'window.restoreWindows': 'none',
    'workbench.secondarySideBar.defaultVisibility': 'hidden',
    ...extra,
  };
}
