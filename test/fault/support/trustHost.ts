/**
 * Just enough of VS Code, in Node, to run the built extension (dist/extension.js) the way a user's
 * editor does, and to watch it from outside: settings in layers (user and workspace, read back by
 * inspect()), notifications that a case answers or leaves open, commands, context keys, status bar
 * items and tree views. Everything not listed here is the permissive stand-in of the activation
 * benchmark, which accepts any call.
 *
 * The module `vscode` is one object for the whole process (bundles copy its getters when they load);
 * its members read the host made current by `useHost`, so each case starts with a fresh editor.
 */
import Module from 'node:module';
import { join } from 'node:path';
import { createVscodeStandIn, standInContext, vscodeTopLevelNames } from '../../bench/vscodeStandIn';

const repoRoot = join(__dirname, '..', '..', '..', '..');
export const distExtension = join(repoRoot, 'dist', 'extension.js');

export const ExtensionMode = { Production: 1, Development: 2, Test: 3 } as const;

type Listener<T> = (value: T) => void;

class EventEmitter<T> {
  private listeners = new Set<Listener<T>>();
  private disposed = false;
  readonly event = (listener: Listener<T>) => {
    if (!this.disposed) this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };

  fire(value: T): void {
    for (const listener of [...this.listeners]) listener(value);
  }

  dispose(): void {
    this.disposed = true;
    this.listeners.clear();
  }
}

class MarkdownString {
  isTrusted: boolean | undefined;
  supportHtml = false;
  constructor(
    public value = '',
    public supportThemeIcons = false,
  ) {}
  appendMarkdown(text: string): this {
    this.value += text;
    return this;
  }
  appendText(text: string): this {
    this.value += text.replace(/[\\`*_{}[\]()#+\-.!<>]/g, '\\$&');
    return this;
  }
  appendCodeblock(code: string, language = ''): this {
    this.value += `\n\`\`\`${language}\n${code}\n\`\`\`\n`;
    return this;
  }
}

class TreeItem {
  id?: string;
  description?: string;
  tooltip?: string | MarkdownString;
  contextValue?: string;
  iconPath?: unknown;
  command?: unknown;
  accessibilityInformation?: unknown;
  constructor(
    public label: string,
    public collapsibleState = 0,
  ) {}
}

export interface ShownMessage {
  level: 'info' | 'warning' | 'error';
  message: string;
  modal: boolean;
  items: string[];
  /** What was answered: an item, undefined for dismissed, or 'open' while nobody answered. */
  answer: string | undefined | 'open';
}

export interface StatusItem {
  text: string;
  tooltip: unknown;
  shown: number;
  hidden: number;
  disposed: boolean;
}

interface Rule {
  pattern: RegExp;
  answer: string | undefined;
}

/** One editor window: its settings, its dialogs and what the extension registered in it. */
export class FakeHost {
  readonly messages: ShownMessage[] = [];
  readonly inputBoxes: Array<{ title: string; password: boolean }> = [];
  readonly quickPicks: Array<{ title: string; labels: string[] }> = [];
  readonly commands = new Map<string, (...args: unknown[]) => unknown>();
  readonly contextKeys = new Map<string, unknown>();
  readonly statusItems: StatusItem[] = [];
  readonly treeViews = new Map<string, { treeDataProvider: { getChildren(element?: unknown): unknown } }>();
  readonly settings = { user: {} as Record<string, unknown>, workspace: {} as Record<string, unknown> };
  /** Workspace trust (Restricted Mode when false). */
  trusted = true;
  readonly api: Record<string, unknown>;
  private readonly rules: Rule[] = [];
  private readonly pending = new Map<ShownMessage, (value: string | undefined) => void>();
  private readonly configurationChanged = new EventEmitter<{ affectsConfiguration(section: string): boolean }>();
  private readonly defaults: Record<string, unknown>;

  constructor(defaults: Record<string, unknown>) {
    this.defaults = defaults;
    this.api = this.buildApi();
  }

  /**
   * Answers dialogs whose message (or input box title) matches: the ones open now and later ones.
   * `undefined` dismisses.
   */
  answer(pattern: RegExp, answer: string | undefined): void {
    this.rules.push({ pattern, answer });
    for (const [message, resolve] of [...this.pending]) {
      if (!pattern.test(message.message)) continue;
      this.pending.delete(message);
      message.answer = answer;
      resolve(answer);
    }
  }

  /** Changes a setting in one layer, as editing settings.json would, and tells the extension. */
  setSetting(layer: 'user' | 'workspace', key: string, value: unknown): void {
    if (value === undefined) delete this.settings[layer][key];
    else this.settings[layer][key] = value;
    this.configurationChanged.fire({ affectsConfiguration: (section) => key === section || key.startsWith(`${section}.`) });
  }

  async executeCommand(id: string, ...args: unknown[]): Promise<unknown> {
    if (id === 'setContext') {
      this.contextKeys.set(String(args[0]), args[1]);
      return undefined;
    }
    const handler = this.commands.get(id);
    return handler ? handler(...args) : undefined;
  }

  /** Polls until `accept` holds, for state the extension reaches on its own (timers, events). */
  async waitFor(what: string, accept: () => boolean, timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!accept()) {
      if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; messages: ${JSON.stringify(this.messages.map((message) => message.message))}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  private show(level: ShownMessage['level'], message: string, rest: unknown[]): Promise<string | undefined> {
    const options = rest[0] !== null && typeof rest[0] === 'object' ? (rest[0] as { modal?: boolean }) : undefined;
    const items = (options ? rest.slice(1) : rest).map((item) => (typeof item === 'string' ? item : String((item as { title?: string }).title)));
    const shown: ShownMessage = { level, message, modal: options?.modal === true, items, answer: 'open' };
    this.messages.push(shown);
    const rule = this.rules.find((candidate) => candidate.pattern.test(message));
    if (rule) {
      shown.answer = rule.answer;
      return Promise.resolve(rule.answer);
    }
    // Nobody answers: the promise stays open, as a notification nobody clicks.
    return new Promise((resolve) => this.pending.set(shown, resolve));
  }

  private configuration(section: string) {
    const full = (name: string) => (section ? `${section}.${name}` : name);
    const layer = (values: Record<string, unknown>, name: string) => values[full(name)];
    return {
      get: (name: string, fallback?: unknown) => layer(this.settings.workspace, name) ?? layer(this.settings.user, name) ?? this.defaults[full(name)] ?? fallback,
      has: (name: string) => full(name) in this.defaults,
      inspect: (name: string) => ({
        key: full(name),
        defaultValue: this.defaults[full(name)],
        globalValue: layer(this.settings.user, name),
        workspaceValue: layer(this.settings.workspace, name),
        workspaceFolderValue: undefined,
      }),
      update: async (name: string, value: unknown, target?: number) => this.setSetting(target === 2 ? 'workspace' : 'user', full(name), value),
    };
  }

  private buildApi(): Record<string, unknown> {
    const host = this;
    const base = createVscodeStandIn(vscodeTopLevelNames()) as Record<string, unknown>;
    const overlay = (target: unknown, members: Record<string, unknown>) =>
      new Proxy(target as object, { get: (object, property) => (typeof property === 'string' && property in members ? members[property] : Reflect.get(object, property)) });
    const statusItem = () => {
      const item: StatusItem & Record<string, unknown> = {
        text: '',
        tooltip: undefined,
        shown: 0,
        hidden: 0,
        disposed: false,
        show: () => void item.shown++,
        hide: () => void item.hidden++,
        dispose: () => void (item.disposed = true),
      };
      this.statusItems.push(item);
      return item;
    };
    const outputChannel = () => {
      const ignore = () => undefined;
      return { trace: ignore, debug: ignore, info: ignore, warn: ignore, error: ignore, appendLine: ignore, append: ignore, show: ignore, clear: ignore, dispose: ignore };
    };
    const windowState = new EventEmitter<{ focused: boolean }>();
    return {
      ...base,
      version: '1.104.0',
      ExtensionMode,
      EventEmitter,
      MarkdownString,
      TreeItem,
      ThemeIcon: class {
        constructor(
          public id: string,
          public color?: unknown,
        ) {}
      },
      ThemeColor: class {
        constructor(public id: string) {}
      },
      TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 },
      StatusBarAlignment: { Left: 1, Right: 2 },
      ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
      ConfigurationTarget: { Global: 1, Workspace: 2, WorkspaceFolder: 3 },
      commands: {
        registerCommand: (id: string, handler: (...args: unknown[]) => unknown) => {
          if (this.commands.has(id)) throw new Error(`command '${id}' already exists`);
          this.commands.set(id, handler);
          return { dispose: () => this.commands.delete(id) };
        },
        executeCommand: (id: string, ...args: unknown[]) => this.executeCommand(id, ...args),
        getCommands: async () => [...this.commands.keys()],
      },
      workspace: overlay(base.workspace, {
        getConfiguration: (section = '') => this.configuration(section),
        onDidChangeConfiguration: this.configurationChanged.event,
        textDocuments: [],
        workspaceFolders: undefined,
        get isTrusted() {
          return host.trusted;
        },
      }),
      window: overlay(base.window, {
        showInformationMessage: (message: string, ...rest: unknown[]) => this.show('info', message, rest),
        showWarningMessage: (message: string, ...rest: unknown[]) => this.show('warning', message, rest),
        showErrorMessage: (message: string, ...rest: unknown[]) => this.show('error', message, rest),
        showInputBox: async (options: { title?: string; password?: boolean } = {}) => {
          this.inputBoxes.push({ title: options.title ?? '', password: options.password === true });
          const rule = this.rules.find((candidate) => candidate.pattern.test(options.title ?? ''));
          return rule?.answer;
        },
        // An input box that checks its answer while open (Sign In): the rule's answer is typed and
        // accepted; an answer the box refuses is given up on, as a person pressing Escape.
        createInputBox: () => {
          const accepted = new EventEmitter<void>();
          const hidden = new EventEmitter<void>();
          const box = {
            title: '',
            prompt: '',
            placeholder: '',
            value: '',
            password: false,
            ignoreFocusOut: false,
            busy: false,
            enabled: true,
            validationMessage: undefined as unknown,
            closed: false,
            onDidAccept: accepted.event,
            onDidHide: hidden.event,
            onDidChangeValue: new EventEmitter<string>().event,
            show: () => {
              this.inputBoxes.push({ title: box.title, password: box.password });
              const answer = this.rules.find((candidate) => candidate.pattern.test(box.title))?.answer;
              setImmediate(() => {
                if (answer === undefined) return box.hide();
                box.value = answer;
                accepted.fire();
                const giveUpOnceChecked = (): void => {
                  if (box.closed) return;
                  if (box.busy) setTimeout(giveUpOnceChecked, 5);
                  else box.hide();
                };
                setTimeout(giveUpOnceChecked, 5);
              });
            },
            hide: () => {
              if (box.closed) return;
              box.closed = true;
              hidden.fire();
            },
            dispose: () => undefined,
          };
          return box;
        },
        showQuickPick: async (items: Array<{ label: string }> | PromiseLike<Array<{ label: string }>>, options: { title?: string } = {}) => {
          const labels = (await items).map((item) => item.label);
          this.quickPicks.push({ title: options.title ?? '', labels });
          const rule = this.rules.find((candidate) => candidate.pattern.test(options.title ?? ''));
          return rule?.answer === undefined ? undefined : (await items).find((item) => item.label.includes(rule.answer!));
        },
        withProgress: (_options: unknown, task: (progress: unknown, token: unknown) => unknown) =>
          Promise.resolve(task({ report: () => undefined }, { isCancellationRequested: false, onCancellationRequested: () => ({ dispose: () => undefined }) })),
        createStatusBarItem: statusItem,
        createOutputChannel: outputChannel,
        createTreeView: (id: string, options: { treeDataProvider: { getChildren(element?: unknown): unknown } }) => {
          this.treeViews.set(id, options);
          return {
            visible: true,
            message: undefined,
            onDidChangeVisibility: new EventEmitter<unknown>().event,
            onDidChangeSelection: new EventEmitter<unknown>().event,
            reveal: async () => undefined,
            dispose: () => undefined,
          };
        },
        setStatusBarMessage: () => ({ dispose: () => undefined }),
        state: { focused: true },
        onDidChangeWindowState: windowState.event,
        activeTextEditor: undefined,
      }),
    };
  }
}

let current: FakeHost | undefined;
let installed = false;

/** Makes `host` the editor the extension talks to, installing the `vscode` module on first use. */
export function useHost(host: FakeHost): void {
  current = host;
  if (installed) return;
  installed = true;
  const moduleObject: Record<string, unknown> = {};
  for (const name of new Set([...vscodeTopLevelNames(), ...Object.keys(host.api)])) {
    Object.defineProperty(moduleObject, name, { enumerable: true, get: () => current?.api[name] });
  }
  const internals = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
  const originalLoad = internals._load;
  internals._load = function load(request: string, ...rest: unknown[]) {
    return request === 'vscode' ? moduleObject : originalLoad.call(this, request, ...rest);
  };
}

/** The defaults of every rlStudio setting, from package.json. */
export function manifestDefaults(): Record<string, unknown> {
  const manifest = require(join(repoRoot, 'package.json')) as { contributes: { configuration: { properties: Record<string, { default?: unknown }> } } };
  return Object.fromEntries(Object.entries(manifest.contributes.configuration.properties).map(([key, schema]) => [key, schema.default]));
}

export interface ExtensionContextLike {
  subscriptions: Array<{ dispose(): unknown }>;
  extensionMode: number;
  secrets: { store(key: string, value: string): Promise<void>; get(key: string): Promise<string | undefined> };
  globalState: { get(key: string): unknown; keys(): readonly string[] };
  workspaceState: { get(key: string): unknown; keys(): readonly string[] };
}

/** A context like VS Code's, for the given mode, with the API key already in its secret storage when given. */
export async function extensionContext(mode: number, apiKey?: string): Promise<ExtensionContextLike> {
  const context = standInContext(join(repoRoot)) as ExtensionContextLike & Record<string, unknown>;
  context.extensionMode = mode;
  if (apiKey) await context.secrets.store('rlStudio.apiKey', apiKey);
  return context;
}

/** Disposes what the extension registered, in the order VS Code does when it turns the extension off. */
export function turnOff(context: ExtensionContextLike): void {
  for (const subscription of context.subscriptions.splice(0)) subscription.dispose();
}

/** dist/extension.js, loaded against the current host. */
export function loadExtension(): { activate(context: unknown): unknown } {
  return require(distExtension) as { activate(context: unknown): unknown };
}
