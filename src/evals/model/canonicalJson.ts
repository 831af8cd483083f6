/**
 * JSON text that depends only on a value's content: object keys sorted, no white space. Hashes of
 * samples and cache keys are taken over it, so the same prompt written with its keys in another
 * order, or re-indented, is the same sample. Values come from JSON.parse of text already checked
 * for depth (core/strictJson.ts), so the recursion is bounded by that check.
 */
import { createHash } from 'node:crypto';

export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(',')}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(',')}}`;
}

/** The first `hexChars` hex digits of the sha256 of `text`. */
export function sha256Hex(text: string, hexChars: number): string {
  return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, hexChars);
}
