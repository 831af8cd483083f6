/**
 * A workspace folder on disk as the evaluation code sees it through VS Code, in Node: file URIs,
 * `workspace.fs` on the real disk, the folder as the one workspace folder, workspace trust, and the
 * services the retry needs (the real dialogs, scriptable and recording every question; the real
 * client against the emulator; remembered models; an in-memory workspaceState). Built on the fault
 * stage's FakeHost.
 */
import { promises as fs } from 'node:fs';
import * as nodePath from 'node:path';
import { describeFailure } from '../../../src/platform/client/describeFailure';
import type { TrainingModel } from '../../../src/platform/client/types';
import type { Emulator } from '../../emulator';
import { clientFor } from '../../unit/platform/client/support/harness';
import { FakeHost, manifestDefaults, useHost } from './trustHost';

/** A file URI with what the evaluation code reads of one. */
export class FileUri {
  readonly scheme = 'file';
  constructor(readonly path: string) {}
  static file(fsPath: string): FileUri {
    return new FileUri(nodePath.resolve(fsPath));
  }
  static joinPath(base: FileUri, ...parts: string[]): FileUri {
    return new FileUri(nodePath.posix.join(base.path, ...parts));
  }
  get fsPath(): string {
    return this.path;
  }
  toString(): string {
    return `file://${this.path}`;
  }
}

export interface EvalTrustHost {
  host: FakeHost;
  folder: FileUri;
}

/** A FakeHost whose one workspace folder is `folderPath`, made current. */
export function evalHost(folderPath: string): EvalTrustHost {
  const host = new FakeHost(manifestDefaults());
  const folder = FileUri.file(folderPath);
  const workspaceFolder = { uri: folder, name: nodePath.basename(folderPath), index: 0 };
  const api = host.api as Record<string, unknown>;
  const inside = (uri: FileUri): boolean => uri.path === folder.path || uri.path.startsWith(`${folder.path}/`);
  const fileSystem = {
    stat: async (uri: FileUri) => ({ size: (await fs.stat(uri.fsPath)).size, type: 1 }),
    readFile: async (uri: FileUri) => new Uint8Array(await fs.readFile(uri.fsPath)),
    writeFile: async (uri: FileUri, bytes: Uint8Array) => fs.writeFile(uri.fsPath, bytes),
    createDirectory: async (uri: FileUri) => void (await fs.mkdir(uri.fsPath, { recursive: true })),
  };
  const workspace = api.workspace as object;
  api.Uri = FileUri;
  api.workspace = new Proxy(workspace, {
    get: (target, property) => {
      switch (property) {
        case 'fs':
          return fileSystem;
        case 'workspaceFolders':
          return [workspaceFolder];
        case 'getWorkspaceFolder':
          return (uri: FileUri) => (inside(uri) ? workspaceFolder : undefined);
        case 'asRelativePath':
          return (uri: FileUri) => (inside(uri) ? nodePath.posix.relative(folder.path, uri.path) : uri.path);
        default:
          return Reflect.get(target, property);
      }
    },
  });
  useHost(host);
  return { host, folder };
}

/** A Memento in memory. */
function memento() {
  const values = new Map<string, unknown>();
  return {
    get: <T>(key: string, fallback?: T) => (values.has(key) ? values.get(key) : fallback),
    update: async (key: string, value: unknown) => void values.set(key, value),
    keys: () => [...values.keys()],
  };
}

/** A question asked, as the retry put it. */
export interface AskedQuestion {
  kind: 'confirm' | 'choose';
  message: string;
  detail?: string;
  choices: string[];
}

/**
 * The dialogs service as the retry uses it: every question recorded and answered from a queue (true
 * or a label says yes; an empty queue says no, as a person closing the dialog), every message kept.
 * (A fake rather than the real class: another suite of this stage loads the real one against its
 * own stand-in of `vscode`.)
 */
export class RecordingDialogs {
  readonly asked: AskedQuestion[] = [];
  readonly shown: string[] = [];
  private readonly queued: Array<boolean | string | undefined> = [];

  answerNext(...answers: Array<boolean | string | undefined>): void {
    this.queued.push(...answers);
  }

  async confirm(message: string, detail: string, action: string): Promise<boolean> {
    this.asked.push({ kind: 'confirm', message, detail, choices: [action] });
    const answer = this.queued.shift();
    return answer === true || answer === action;
  }

  async choose<T extends string>(message: string, options: { detail?: string }, ...answers: T[]): Promise<T | undefined> {
    this.asked.push({ kind: 'choose', message, ...(options.detail !== undefined ? { detail: options.detail } : {}), choices: answers });
    const answer = this.queued.shift();
    return answers.find((candidate) => candidate === answer);
  }

  info(message: string): void {
    this.shown.push(message);
  }

  warn(message: string): void {
    this.shown.push(message);
  }

  error(message: string): void {
    this.shown.push(message);
  }
}

/** The services the evaluation's retry uses: recording dialogs the test answers, the real client against the emulator. */
export async function evalServices(emulator: Emulator, remembered: TrainingModel[]) {
  const dialogs = new RecordingDialogs();
  const client = clientFor(emulator, { timeoutMs: 10_000 });
  const shownErrors: unknown[] = [];
  const services = {
    context: { workspaceState: memento(), globalState: memento(), subscriptions: [] },
    testMode: true,
    dialogs,
    log: { redact: (text: string) => text, info: () => undefined, warn: () => undefined, error: () => undefined },
    remembered: { models: { list: () => remembered }, pinned: { list: () => [] }, jobs: { list: () => [] } },
    client: async () => client,
    describeFailure: (error: unknown) => describeFailure(error),
    showError: (error: unknown) => void shownErrors.push(error),
  };
  return { services: services as unknown as import('../../../src/platform/host/services').Services, dialogs, client, shownErrors };
}
