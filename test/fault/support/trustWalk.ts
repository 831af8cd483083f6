/**
 * What another extension can reach from a value the extension hands out (its exports): every own
 * property (getters called), symbol keys, prototypes, Map and Set entries, the properties of
 * functions, breadth first, up to a bound. Proxies are the test's stand-in for VS Code's API, not
 * the extension's data, so they are not entered.
 */
import { types } from 'node:util';

export interface Reached {
  /** Property paths where a target was found, e.g. `.views.models.services.credentials`. */
  paths: string[];
  /** Objects and functions visited. */
  visited: number;
}

const maxVisited = 50_000;
const builtinPrototypes = new Set<unknown>([Object.prototype, Function.prototype, Array.prototype, Map.prototype, Set.prototype, Promise.prototype, Error.prototype, Date.prototype, RegExp.prototype]);

/** Walks from `root`; `isTarget` is asked about every value met (strings included). */
export function walkReachable(root: unknown, isTarget: (value: unknown) => boolean): Reached {
  const paths: string[] = [];
  const seen = new WeakSet<object>();
  const queue: Array<{ value: unknown; path: string }> = [{ value: root, path: '' }];
  let visited = 0;
  while (queue.length > 0 && visited < maxVisited) {
    const { value, path } = queue.shift()!;
    if (isTarget(value)) {
      paths.push(path || '(the value itself)');
      continue;
    }
    if ((typeof value !== 'object' && typeof value !== 'function') || value === null) continue;
    if (seen.has(value) || types.isProxy(value) || builtinPrototypes.has(value)) continue;
    seen.add(value);
    visited++;
    // Getters of classes live on the prototypes: they are called with the object itself.
    for (let holder: object | null = value, depth = 0; holder && !builtinPrototypes.has(holder) && depth < 10; holder = Object.getPrototypeOf(holder), depth++) {
      const via = holder === value ? '' : '.__proto__';
      for (const key of Reflect.ownKeys(holder)) {
        const descriptor = Reflect.getOwnPropertyDescriptor(holder, key);
        if (!descriptor) continue;
        const name = `${via}.${String(key)}`;
        if ('value' in descriptor) queue.push({ value: descriptor.value, path: path + name });
        else if (descriptor.get) {
          try {
            queue.push({ value: descriptor.get.call(value), path: `${path}${name} (getter)` });
          } catch {
            // A getter that throws hands nothing out.
          }
        }
      }
    }
    if (value instanceof Map) for (const [key, entry] of value) queue.push({ value: key, path: `${path}[key]` }, { value: entry, path: `${path}[${String(key)}]` });
    if (value instanceof Set) for (const entry of value) queue.push({ value: entry, path: `${path}[entry]` });
  }
  return { paths, visited };
}
