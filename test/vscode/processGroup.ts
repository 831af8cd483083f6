/**
 * Starts a program in a session and process group of its own (what `setsid` does), so that stopping
 * it also stops every child it started: code-server leaves its extension hosts, file watchers and
 * other children running when only its main process is killed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, closeSync } from 'node:fs';
import { onCleanup } from './cleanup';

export interface GroupProcess {
  readonly pid: number;
  readonly child: ChildProcess;
  /** Resolves with the exit code (or the signal name) when the main process ends. */
  readonly exited: Promise<number | string>;
  /** Stops the whole group: SIGTERM, then SIGKILL for whatever is still there after a grace period. */
  stop(): Promise<void>;
}

export interface StartOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** stdout and stderr go to this file. */
  logFile: string;
}

/** Signal 0 only checks whether any process of the group is left. */
function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false; // the group is already gone
  }
}

function groupAlive(pid: number): boolean {
  return signalGroup(pid, 0);
}

export function startInProcessGroup(command: string, args: string[], options: StartOptions): GroupProcess {
  const log = openSync(options.logFile, 'w');
  // detached: the child calls setsid(), so it leads a new process group whose id is its pid.
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    detached: true,
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  if (child.pid === undefined) throw new Error(`could not start ${command}`);
  const pid = child.pid;
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
    child.once('error', (error) => resolve(String(error)));
  });
  // If the runner dies before stop() is called, the group must not outlive it.
  const killOnExit = onCleanup(() => signalGroup(pid, 'SIGKILL'));

  const stop = async (): Promise<void> => {
    if (signalGroup(pid, 'SIGTERM')) {
      const deadline = Date.now() + 5000;
      while (groupAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    }
    killOnExit(); // SIGKILL to anything that ignored SIGTERM
  };
  return { pid, child, exited, stop };
}
