import { referenceAt, type PayloadAnalysis } from './analysis';
import type { VariableReference } from './references';
import { metadataPrefix } from './variables';

const prefix = `${metadataPrefix}.`;

/** How often each usable key occurs, counted once per analysis (completion asks on every keystroke). */
const countsByAnalysis = new WeakMap<PayloadAnalysis, Map<string, number>>();

export function metadataKeyCounts(analysis: PayloadAnalysis): ReadonlyMap<string, number> {
  let counts = countsByAnalysis.get(analysis);
  if (!counts) {
    counts = new Map();
    for (const reference of analysis.references) {
      const key = metadataKeyOf(reference.name, reference.terminated);
      if (key !== undefined) counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    countsByAnalysis.set(analysis, counts);
  }
  return counts;
}

/** The usable metadata key a reference names, if it names one. */
export function metadataKeyOf(name: string, terminated: boolean): string | undefined {
  if (!terminated || !name.startsWith(prefix)) return undefined;
  const key = name.slice(prefix.length);
  return isUsableKey(key) ? key : undefined;
}

/**
 * Top-level metadata keys the document refers to, in order of first use, leaving out the key of
 * the reference at `exceptAt` unless it is also used elsewhere (the key being typed is not "used").
 */
export function metadataKeysIn(analysis: PayloadAnalysis, exceptAt = -1): string[] {
  const underCursor = exceptAt >= 0 ? referenceAt(analysis.references, exceptAt) : undefined;
  return usedKeys(metadataKeyCounts(analysis), underCursor, exceptAt);
}

/** The keys counted, leaving out the key of `underCursor` (the reference at `cursor`) unless it is also used elsewhere. */
export function usedKeys(counts: ReadonlyMap<string, number>, underCursor: VariableReference | undefined, cursor: number): string[] {
  const skip = underCursor && cursor <= underCursor.nameEnd ? metadataKeyOf(underCursor.name, underCursor.terminated) : undefined;
  return [...counts].filter(([key, count]) => count > 0 && (key !== skip || count > 1)).map(([key]) => key);
}

/** A key that can stand after `artifact_metadata.` and be inserted back verbatim. */
export function isUsableKey(key: string): boolean {
  return key.length > 0 && !/[.}"\\\s]/.test(key);
}
