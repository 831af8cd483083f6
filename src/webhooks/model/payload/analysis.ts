import { parseTree, visit } from '../../../platform/kit/strictJson';
import { firstTooDeep, maxJsonDepth } from '../../../platform/kit/strictJson';
import { readAutomationFields, type AutomationFields } from './automation';
import { scanValidJson } from './fastScan';
import { describeParseError } from './jsonErrors';
import { scanStringsLoosely } from './looseScan';
import { scanPlainJson } from './plainScan';
import { contentEndAt, contentEndOf, findOpenings, scanReferences, type VariableReference } from './references';

/** A webhook payload template (`*.payload.json`) or a whole automation (`*.automation.json`). */
export type PayloadDocumentKind = 'payload' | 'automation';

export interface JsonSyntaxError {
  start: number;
  end: number;
  message: string;
}

/**
 * The string tokens of the template region, in document order, as parallel arrays (a 1 MB payload
 * holds tens of thousands of strings; plain number arrays keep the analysis cheap).
 */
export interface StringTokens {
  /** Offset of the opening quote. */
  starts: number[];
  /** Offset after the closing quote, or after the last character of an unclosed string. */
  ends: number[];
  /** 1 when the string is an object key. */
  keys: Uint8Array;
}

interface Collected {
  starts: number[];
  ends: number[];
  keyFlags: number[];
  references: VariableReference[];
  /** The first `${` inside a string that was not analysed because `maxReferences` were. */
  firstUncollected?: number;
  onString?: (offset: number, length: number, isKey: boolean) => void;
}

/**
 * Documents longer than this (in characters) are not analysed: a payload is a request body, a few
 * kilobytes in practice, and analysis runs on the extension host after every edit.
 */
export const maxAnalysedLength = 2 * 1024 * 1024;

/** Syntax errors kept per document: the first ones explain the rest. */
const maxSyntaxErrors = 100;

/**
 * Variables analysed per document (a real payload has dozens; a 1 MB one of repeated records a few
 * tens of thousands): each costs a small object, and `${${${…` would make one of every two characters.
 */
export const maxReferences = 100_000;

/** Why part or all of a document was not analysed, and where checking stopped. */
export interface AnalysisLimit {
  reason: 'too-large' | 'too-deep' | 'too-many-variables';
  start: number;
  end: number;
  message: string;
}

/** Everything the language features need, computed once per document version. */
export interface PayloadAnalysis {
  kind: PayloadDocumentKind;
  text: string;
  strings: StringTokens;
  /** Every `${…}` inside a template string, in document order. */
  references: VariableReference[];
  syntaxErrors: JsonSyntaxError[];
  /** Present for automation files. */
  automation?: AutomationFields;
  /**
   * Set when the document was not analysed to its end: nothing at all when it is too large; when
   * it nests too deep, only what comes before the bracket that goes too deep.
   */
  limit?: AnalysisLimit;
}

/** Analyses of documents that were valid JSON (jsonc-parser's scanner read them without a complaint). */
const validJson = new WeakSet<PayloadAnalysis>();

/** Whether the document of `analysis` was valid JSON: an edit inside one of its strings can then be followed without analysing it again. */
export function wasValidJson(analysis: PayloadAnalysis): boolean {
  return validJson.has(analysis);
}

/** The analysis of a document too large to analyse, from its length alone (the text is not needed). */
export function tooLargeAnalysis(kind: PayloadDocumentKind, length: number, text = ''): PayloadAnalysis {
  const megabytes = (length / (1024 * 1024)).toFixed(1);
  return {
    kind,
    text,
    strings: { starts: [], ends: [], keys: new Uint8Array(0) },
    references: [],
    syntaxErrors: [],
    limit: {
      reason: 'too-large',
      start: 0,
      end: Math.min(1, length),
      message: `This file is ${megabytes} MB, too large to analyse (the limit is ${maxAnalysedLength / (1024 * 1024)} MB): its variables are not checked, completed or previewed.`,
    },
  };
}

export function analysePayload(fullText: string, kind: PayloadDocumentKind): PayloadAnalysis {
  if (fullText.length > maxAnalysedLength) return tooLargeAnalysis(kind, fullText.length, fullText);
  let text = fullText;
  let tooDeepAt = -1;
  let automation: AutomationFields | undefined;
  let regionStart = 0;
  let regionEnd = text.length;
  let openings = findOpenings(text);
  const collect = (): Collected => {
    const collected: Collected = { starts: [], ends: [], keyFlags: [], references: [] };
    let openingCursor = 0;
    collected.onString = (offset, length, isKey) => {
      if (offset < regionStart || offset >= regionEnd || text.charCodeAt(offset) !== 0x22) return;
      const end = offset + length;
      collected.starts.push(offset);
      collected.ends.push(end);
      collected.keyFlags.push(isKey ? 1 : 0);
      openingCursor = referencesOf(text, offset, end, isKey, openings, openingCursor, collected);
    };
    return collected;
  };

  // The common case, a payload that is plainly valid JSON, is read in one pass. An automation's
  // template region is only known from its tree, and an automation is small: it takes the general path.
  let collected: Collected = { starts: [], ends: [], keyFlags: [], references: [] };
  let valid = kind === 'payload' && scanPlainJson(text, { starts: collected.starts, ends: collected.ends, keys: collected.keyFlags });
  if (valid) {
    collectReferences(text, openings, collected);
  } else {
    // jsonc-parser's parser recurses once per level: a document nested deeper than it can take is
    // analysed up to the bracket that goes too deep, and the rest is left unchecked.
    tooDeepAt = firstTooDeep(fullText);
    if (tooDeepAt >= 0) {
      text = fullText.slice(0, tooDeepAt);
      openings = findOpenings(text);
    }
    regionEnd = text.length;
    if (kind === 'automation') {
      automation = readAutomationFields(parseTree(text, [], { disallowComments: true }));
      // Only the payload of an automation is a template; its name or regexes are not.
      regionStart = automation.payload?.start ?? 0;
      regionEnd = automation.payload?.end ?? 0;
    }
    collected = collect();
    valid = scanValidJson(text, collected.onString!);
  }
  const syntaxErrors: JsonSyntaxError[] = [];
  if (!valid) {
    // Not valid JSON: start over. The variables are checked in every string the scanner finds, up
    // to the end of the document (the visitor stops at the first "End of file expected"); the
    // visitor says what is wrong with the JSON and where.
    collected = collect();
    scanStringsLoosely(text, collected.onString!);
    visit(
      text,
      {
        onError: (code, offset, length) => {
          // The parser may report several errors at one place; the first explains it best.
          // jsonc-parser can report a span past the end (an unclosed comment at the very end): clamp it.
          const start = Math.min(offset, text.length);
          // Where a too-deep document was cut, the parser sees an unexpected end: not the user's error.
          if (tooDeepAt >= 0 && start >= tooDeepAt) return;
          if (syntaxErrors.length >= maxSyntaxErrors) return;
          if (syntaxErrors.length > 0 && syntaxErrors[syntaxErrors.length - 1].start === start) return;
          syntaxErrors.push({ start, end: Math.min(offset + length, text.length), message: describeParseError(code) });
        },
      },
      { disallowComments: true, allowTrailingComma: false },
    );
  }
  const { starts, ends, keyFlags, references } = collected;

  const analysis: PayloadAnalysis = {
    kind,
    text: fullText,
    strings: { starts, ends, keys: Uint8Array.from(keyFlags) },
    references,
    syntaxErrors,
  };
  if (automation) analysis.automation = automation;
  if (valid) validJson.add(analysis);
  // Where checking stopped first: at too many variables, or at the bracket that goes too deep.
  const { firstUncollected } = collected;
  if (firstUncollected !== undefined) {
    analysis.limit = {
      reason: 'too-many-variables',
      start: firstUncollected,
      end: firstUncollected + 2,
      message: `More than ${maxReferences.toLocaleString('en-US')} variables: the ones from here on are not checked, completed or previewed.`,
    };
  } else if (tooDeepAt >= 0) {
    analysis.limit = {
      reason: 'too-deep',
      start: tooDeepAt,
      end: tooDeepAt + 1,
      message: `Nested deeper than ${maxJsonDepth} levels: the rest of this file is not checked.`,
    };
  }
  return analysis;
}

/**
 * Adds the references inside one string token to `collected`; `openingCursor` is the index of the
 * first opening not yet consumed. Returns the updated cursor.
 */
function referencesOf(text: string, start: number, end: number, isKey: boolean, openings: readonly number[], openingCursor: number, collected: Collected): number {
  if (openingCursor >= openings.length || openings[openingCursor] >= end) return openingCursor;
  const contentEnd = contentEndAt(text, start, end);
  openingCursor = scanReferences(text, start + 1, contentEnd, isKey, openings, openingCursor, collected.references, maxReferences);
  if (collected.references.length >= maxReferences && collected.firstUncollected === undefined) {
    // Full: is there a reference this scan had no room for, here or in a later string?
    const last = collected.references[collected.references.length - 1]!;
    while (openingCursor < openings.length && openings[openingCursor] < last.end) openingCursor++;
    if (openingCursor < openings.length && openings[openingCursor] < contentEnd) collected.firstUncollected = openings[openingCursor];
  }
  return openingCursor;
}

/** The references of every string already in `collected` (all of them in the template region). */
function collectReferences(text: string, openings: readonly number[], collected: Collected): void {
  const { starts, ends, keyFlags } = collected;
  let openingCursor = 0;
  for (let index = 0; index < starts.length && openingCursor < openings.length; index++) {
    openingCursor = referencesOf(text, starts[index], ends[index], keyFlags[index] === 1, openings, openingCursor, collected);
  }
}

/** Index of the string token whose content holds `offset` (cursor positions included), or -1. */
export function stringAt(text: string, strings: StringTokens, offset: number): number {
  const { starts, ends } = strings;
  let low = 0;
  let high = starts.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (starts[middle] < offset) {
      found = middle;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found >= 0 && offset <= contentEndOf(text, starts[found], ends[found]).contentEnd ? found : -1;
}

/** The reference whose characters include the one at `offset`, or undefined. */
export function referenceAt(references: readonly VariableReference[], offset: number): VariableReference | undefined {
  let low = 0;
  let high = references.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const reference = references[middle];
    if (offset < reference.start) high = middle - 1;
    else if (offset >= reference.end) low = middle + 1;
    else return reference;
  }
  return undefined;
}
