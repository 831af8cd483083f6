import { readFileSync } from 'node:fs';

/**
 * A permissive stand-in for the `vscode` module, enough for activate() to run outside VS Code:
 * every property is a function, every call returns another stand-in (a disposable, an event, a
 * class instance), and `then` is absent so nothing looks like a promise.
 */
export function createVscodeStandIn(names: string[], onCall?: CallRecorder): unknown {
  // Bundlers copy a CommonJS module's own keys into a namespace object, so the root is a plain
  // object holding the real API's top-level names, read from the type declarations.
  const root: Record<string, unknown> = { version: '1.104.0' };
  for (const name of names) root[name] ??= anything(`vscode.${name}`, onCall);
  return root;
}

/** Hears every call made through the stand-in, by path (`vscode.commands.registerCommand`). */
export type CallRecorder = (path: string, args: unknown[]) => void;

/** The real API's top-level names, read from the type declarations. */
export function vscodeTopLevelNames(): string[] {
  const declarations = readFileSync(require.resolve('@types/vscode/index.d.ts'), 'utf8');
  const names = new Set<string>(['version']);
  for (const match of declarations.matchAll(/^\texport (?:class|namespace|enum|function|const|let) (\w+)/gm)) names.add(match[1]);
  return [...names];
}

function anything(path: string, onCall?: CallRecorder): unknown {
  const target = function standIn() {
    /* callable */
  };
  // Values the extension assigns (item.label = …) are kept, so reading them back works.
  const assigned = new Map<PropertyKey, unknown>();
  // A member read twice is the same object, as in the real API (vscode.commands is one namespace):
  // building a new stand-in on every read would bill the harness's allocations to the extension.
  const members = new Map<PropertyKey, unknown>();
  return new Proxy(target, {
    set(_target, property, value) {
      assigned.set(property, value);
      return true;
    },
    get(_target, property) {
      if (assigned.has(property)) return assigned.get(property);
      if (property === 'then') return undefined;
      if (property === Symbol.iterator)
        return function* empty() {
          /* nothing */
        };
      if (property === Symbol.toPrimitive) return () => '';
      if (property === 'dispose') return () => undefined;
      if (property === 'version') return '1.104.0';
      let member = members.get(property);
      if (member === undefined) members.set(property, (member = anything(`${path}.${String(property)}`, onCall)));
      return member;
    },
    apply(_target, _this, args: unknown[]) {
      onCall?.(path, args);
      return anything(`${path}()`, onCall);
    },
    construct(_target, args: unknown[]) {
      onCall?.(`new ${path}`, args);
      return anything(`new ${path}`, onCall) as object;
    },
  });
}

/** An ExtensionContext of a normal install, with working mementos and secret storage in memory. */
export function standInContext(extensionPath: string): unknown {
  const memento = () => {
    const values = new Map<string, unknown>();
    return {
      get: (key: string, fallback?: unknown) => (values.has(key) ? values.get(key) : fallback),
      update: async (key: string, value: unknown) => void values.set(key, value),
      keys: () => [...values.keys()],
      setKeysForSync: () => undefined,
    };
  };
  const secrets = new Map<string, string>();
  return {
    subscriptions: [] as unknown[],
    // ExtensionMode.Production: a normal install, with no test hooks.
    extensionMode: 1,
    extensionPath,
    extensionUri: anything('extensionUri'),
    extension: { packageJSON: { version: '0.0.0' } },
    globalState: memento(),
    workspaceState: memento(),
    secrets: {
      get: async (key: string) => secrets.get(key),
      store: async (key: string, value: string) => void secrets.set(key, value),
      delete: async (key: string) => void secrets.delete(key),
      onDidChange: () => ({ dispose: () => undefined }),
    },
    asAbsolutePath: (relative: string) => `${extensionPath}/${relative}`,
    storageUri: undefined,
    globalStorageUri: anything('globalStorageUri'),
    logUri: anything('logUri'),
  };
}
