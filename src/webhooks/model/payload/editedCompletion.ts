import { maxAnalysedLength, maxReferences, referenceAt, stringAt, wasValidJson, type PayloadAnalysis } from './analysis';
import { analysisSource, completeFrom, type CompletionSource, type PayloadCompletions } from './completion';
import type { PayloadContext } from './context';
import { metadataKeyCounts, metadataKeyOf, usedKeys } from './metadataKeys';
import { plainStringEnd } from './plainScan';
import { contentEndAt, scanReferences, type VariableReference } from './references';

/**
 * Completion on a new version of a payload from the analysis of an earlier one, when the edit
 * since stayed inside one string: re-analysing a 1 MB payload on every keystroke would cost far
 * more than the completion itself.
 *
 * The answer is the one `complete(analysePayload(text, 'payload'), offset, context)` gives. It is
 * given only when the earlier version was valid JSON and every change since lies inside one
 * string token, whose new content jsonc-parser reads without error up to a closing quote at the
 * same place relative to the text after it. The new text then has the same tokens as the old one,
 * that string's length aside: the same strings (shifted after the edit) with the same roles, the
 * same references outside that string, and nothing too deep. Only that string's references are
 * read anew. Anything else returns undefined: the caller analyses the text.
 */
export function completeAfterEdit(previous: PayloadAnalysis, text: string, offset: number, context: PayloadContext): { completions: PayloadCompletions | undefined } | undefined {
  const source = editedSource(previous, text);
  return source && { completions: completeFrom(source, offset, context) };
}

/** What completion reads of `text`, worked out from `previous`, or undefined when the edit is not one inside a string. */
export function editedSource(previous: PayloadAnalysis, text: string): CompletionSource | undefined {
  const old = previous.text;
  if (previous.kind !== 'payload' || previous.limit || !wasValidJson(previous) || text.length > maxAnalysedLength) return undefined;
  const prefix = commonPrefixLength(old, text);
  if (prefix === old.length && prefix === text.length) return analysisSource(previous);
  const suffix = commonSuffixLength(old, text, Math.min(old.length, text.length) - prefix);
  const { starts, ends, keys } = previous.strings;
  // The string whose opening quote comes last before the first changed character.
  const index = lastBefore(starts, prefix);
  if (index < 0) return undefined;
  const start = starts[index];
  const oldContentEnd = contentEndAt(old, start, ends[index]);
  // Its closing quote must be unchanged, in the text after the edit.
  if (oldContentEnd === ends[index] || oldContentEnd < old.length - suffix) return undefined;
  const shift = text.length - old.length;
  const contentEnd = oldContentEnd + shift;
  if (plainStringEnd(text, start + 1) !== contentEnd + 1) return undefined;

  const isKey = keys[index] === 1;
  const added: VariableReference[] = [];
  const openings: number[] = [];
  for (let at = text.indexOf('${', start + 1); at >= 0 && at < contentEnd; at = text.indexOf('${', at + 1)) openings.push(at);
  scanReferences(text, start + 1, contentEnd, isKey, openings, 0, added);
  const references = previous.references;
  const removedFrom = lowerBound(references, start);
  const removedTo = lowerBound(references, oldContentEnd);
  if (references.length - (removedTo - removedFrom) + added.length >= maxReferences) return undefined;

  let counts: Map<string, number> | undefined;
  const keyCounts = (): Map<string, number> => {
    if (counts) return counts;
    counts = new Map(metadataKeyCounts(previous));
    for (let at = removedFrom; at < removedTo; at++) {
      const key = metadataKeyOf(references[at].name, references[at].terminated);
      if (key !== undefined) counts.set(key, counts.get(key)! - 1);
    }
    for (const reference of added) {
      const key = metadataKeyOf(reference.name, reference.terminated);
      if (key !== undefined) counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return counts;
  };
  // A reference of the new text at `offset`, from the edited string or shifted from the old text.
  const referenceOfNew = (offset: number): VariableReference | undefined => {
    if (offset <= start) return referenceAt(references, offset);
    if (offset <= contentEnd) return referenceAt(added, offset);
    const found = referenceAt(references, offset - shift);
    return found && { ...found, start: found.start + shift, end: found.end + shift, nameStart: found.nameStart + shift, nameEnd: found.nameEnd + shift };
  };

  return {
    text,
    stringAt: (offset) => {
      if (offset > start && offset <= contentEnd) return { contentStart: start + 1, contentEnd, isKey };
      // Before the edited string nothing moved; after it everything moved by `shift`.
      const moved = offset > contentEnd ? shift : 0;
      const found = stringAt(old, previous.strings, offset - moved);
      if (found < 0) return undefined;
      return { contentStart: starts[found] + 1 + moved, contentEnd: contentEndAt(old, starts[found], ends[found]) + moved, isKey: keys[found] === 1 };
    },
    usedMetadataKeys: (cursor) => usedKeys(keyCounts(), cursor >= 0 ? referenceOfNew(cursor) : undefined, cursor),
  };
}

/** Index of the last entry of the ascending `values` below `limit`, or -1. */
function lastBefore(values: readonly number[], limit: number): number {
  let low = 0;
  let high = values.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (values[middle] < limit) {
      found = middle;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found;
}

/** Index of the first reference starting at or after `offset`. */
function lowerBound(references: readonly VariableReference[], offset: number): number {
  let low = 0;
  let high = references.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (references[middle].start < offset) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * Characters compared per step where two texts are likely equal: a comparison of two slices runs
 * natively over the characters, many times faster than comparing them one by one.
 */
const chunk = 4096;

export function commonPrefixLength(a: string, b: string): number {
  const limit = Math.min(a.length, b.length);
  let at = 0;
  while (at + chunk <= limit && a.slice(at, at + chunk) === b.slice(at, at + chunk)) at += chunk;
  while (at < limit && a.charCodeAt(at) === b.charCodeAt(at)) at++;
  return at;
}

/** Length of the common end of `a` and `b`, at most `limit`. */
export function commonSuffixLength(a: string, b: string, limit: number): number {
  let length = 0;
  while (length + chunk <= limit && a.slice(a.length - length - chunk, a.length - length) === b.slice(b.length - length - chunk, b.length - length)) length += chunk;
  while (length < limit && a.charCodeAt(a.length - length - 1) === b.charCodeAt(b.length - length - 1)) length++;
  return length;
}
