/**
 * Just enough of the `vscode` module for the webhook store, its commands, the tree and the log to
 * run in Node, with dialogs answered by a script and every dialog recorded. Requiring this file
 * makes `require('vscode')` return it (nothing else in the unit stage loads `vscode`).
 */
import Module from 'node:module';

export interface Dialog {
  kind: 'input' | 'quickPick' | 'warning' | 'information';
  /** The options or message the dialog was opened with. */
  shown: unknown;
}

/** Answers the next dialogs in order; an unanswered dialog is cancelled (undefined). */
type Answer = (dialog: Dialog) => unknown;

export const dialogs = {
  shown: [] as Dialog[],
  answers: [] as Answer[],
  reset(): void {
    this.shown.length = 0;
    this.answers.length = 0;
  },
  answer(dialog: Dialog): unknown {
    this.shown.push(dialog);
    const next = this.answers.shift();
    return next ? next(dialog) : undefined;
  },
};

export const clipboard = { text: '' };
export const executed: Array<{ id: string; args: unknown[] }> = [];
export const outputLines: string[] = [];

class EventEmitter<T> {
  private listeners = new Set<(value: T) => void>();
  readonly event = (listener: (value: T) => void) => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };
  fire(value: T): void {
    for (const listener of [...this.listeners]) listener(value);
  }
  dispose(): void {
    this.listeners.clear();
  }
}

class TreeItem {
  id?: string;
  description?: string;
  tooltip?: unknown;
  contextValue?: string;
  iconPath?: unknown;
  command?: unknown;
  constructor(
    readonly label: string,
    readonly collapsibleState?: number,
  ) {}
}

class MarkdownString {
  isTrusted?: boolean;
  supportHtml?: boolean;
  constructor(public value = '') {}
  appendMarkdown(text: string): this {
    this.value += text;
    return this;
  }
}

class ThemeIcon {
  constructor(
    readonly id: string,
    readonly color?: ThemeColor,
  ) {}
}

class ThemeColor {
  constructor(readonly id: string) {}
}

/** Enough of Uri for documents keyed by their string form. */
const Uri = {
  from: (parts: { scheme: string; path: string }) => ({ ...parts, toString: () => `${parts.scheme}:${parts.path}` }),
};

const fake = {
  version: '1.104.0',
  Uri,
  ViewColumn: { Active: -1, Beside: -2, One: 1 },
  EventEmitter,
  TreeItem,
  MarkdownString,
  ThemeIcon,
  ThemeColor,
  TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 },
  ExtensionMode: { Production: 1, Development: 2, Test: 3 },
  window: {
    showInputBox: async (options: unknown) => dialogs.answer({ kind: 'input', shown: options }),
    showQuickPick: async (items: unknown, options: unknown) => dialogs.answer({ kind: 'quickPick', shown: { items, options } }),
    showWarningMessage: async (message: string, ...rest: unknown[]) => dialogs.answer({ kind: 'warning', shown: { message, rest } }),
    showInformationMessage: async (message: string, ...rest: unknown[]) => dialogs.answer({ kind: 'information', shown: { message, rest } }),
    setStatusBarMessage: () => ({ dispose: () => undefined }),
    withProgress: async <T>(_options: unknown, task: () => Promise<T>) => task(),
    showTextDocument: async (document: unknown) => document,
    createOutputChannel: () => {
      const write = (level: string) => (line: string) => void outputLines.push(`${level} ${line}`);
      return { trace: write('trace'), debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error'), show: () => undefined, dispose: () => undefined };
    },
  },
  commands: {
    executeCommand: async (id: string, ...args: unknown[]) => {
      executed.push({ id, args });
      return undefined;
    },
  },
  env: {
    clipboard: {
      writeText: async (text: string) => {
        clipboard.text = text;
      },
      readText: async () => clipboard.text,
    },
  },
  workspace: {
    getConfiguration: () => ({ get: (_key: string, fallback?: unknown) => fallback }),
    openTextDocument: async (uri: unknown) => ({ uri }),
  },
};

const resolving = Module as unknown as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
const originalResolve = resolving._resolveFilename;
const fakeId = 'vscode (fake for unit tests)';
if (!require.cache[fakeId]) {
  resolving._resolveFilename = function resolve(this: unknown, request: string, ...rest: unknown[]): string {
    return request === 'vscode' ? fakeId : originalResolve.call(this, request, ...rest);
  };
  require.cache[fakeId] = { id: fakeId, filename: fakeId, loaded: true, exports: fake } as unknown as NodeJS.Module;
}

/** A memento in memory. */
export function memento(initial: Record<string, unknown> = {}): {
  get<T>(key: string, fallback?: T): T;
  update(key: string, value: unknown): Promise<void>;
  keys(): string[];
  values: Map<string, unknown>;
} {
  const values = new Map<string, unknown>(Object.entries(initial));
  return {
    values,
    get: <T>(key: string, fallback?: T) => (values.has(key) ? (structuredClone(values.get(key)) as T) : (fallback as T)),
    update: async (key: string, value: unknown) => {
      values.set(key, structuredClone(value));
    },
    keys: () => [...values.keys()],
  };
}

/** Secret storage in memory; `failing` makes every store throw (no keyring). */
export function secretStorage(failing = false): {
  get(key: string): Promise<string | undefined>;
  store(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
  onDidChange: () => { dispose(): void };
  values: Map<string, string>;
} {
  const values = new Map<string, string>();
  return {
    values,
    get: async (key) => values.get(key),
    store: async (key, value) => {
      if (failing) throw new Error('no keyring');
      values.set(key, value);
    },
    delete: async (key) => void values.delete(key),
    onDidChange: () => ({ dispose: () => undefined }),
  };
}
