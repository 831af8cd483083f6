/**
 * Small, safe readings of values parsed from a rollout file, which may hold anything: objects of
 * any depth, keys named `__proto__`, strings of many megabytes. Each helper does bounded work on
 * what it is given and never throws.
 */

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A property the object has itself, never one inherited from Object.prototype. */
export function own(record: Record<string, unknown>, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

/** Sets a key of a plain object; "__proto__" is defined as an own property (assigning it would set the prototype). */
export function setOwn<T>(target: Record<string, T>, key: string, value: T): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** The text cut to `max` characters, the last one an ellipsis when it was cut. */
export function cutText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}

/**
 * A value as a short text: a string as it is, anything else as its JSON text, cut to `max`
 * characters. Objects are written only as far as `max` needs, at most `maxDepth` deep, so a huge
 * or deeply nested value costs no more than a small one.
 */
export function shortText(value: unknown, max: number): string {
  if (typeof value === 'string') return cutText(value, max);
  const writer = new BoundedJson(max + 1);
  writer.write(value, 0);
  return cutText(writer.text, max);
}

const maxDepth = 8;

class BoundedJson {
  text = '';
  constructor(private readonly max: number) {}

  private full(): boolean {
    return this.text.length >= this.max;
  }

  private add(piece: string): void {
    if (!this.full()) this.text += piece.length > this.max ? piece.slice(0, this.max) : piece;
  }

  write(value: unknown, depth: number): void {
    if (this.full()) return;
    if (value === null || value === undefined) return this.add('null');
    if (typeof value === 'string') return this.add(JSON.stringify(value.length > this.max ? value.slice(0, this.max) : value));
    if (typeof value === 'number') return this.add(Number.isFinite(value) ? String(value) : 'null');
    if (typeof value === 'boolean') return this.add(String(value));
    if (typeof value !== 'object') return this.add('null');
    if (depth >= maxDepth) return this.add(Array.isArray(value) ? '[…]' : '{…}');
    if (Array.isArray(value)) {
      this.add('[');
      for (let at = 0; at < value.length && !this.full(); at++) {
        if (at > 0) this.add(',');
        this.write(value[at], depth + 1);
      }
      return this.add(']');
    }
    this.add('{');
    let first = true;
    for (const key in value) {
      if (this.full()) break;
      if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
      if (!first) this.add(',');
      first = false;
      this.add(JSON.stringify(key.length > this.max ? key.slice(0, this.max) : key));
      this.add(':');
      this.write((value as Record<string, unknown>)[key], depth + 1);
    }
    this.add('}');
  }
}
