import { parseTree, visit } from 'jsonc-parser';
import { readAutomationFields, type AutomationFields } from './automation';
import { scanValidJson } from './fastScan';
import { describeParseError } from './jsonErrors';
import { contentEndOf, findOpenings, scanReferences, type VariableReference } from './references';

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
  onString?: (offset: number, length: number, isKey: boolean) => void;
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
}

export function analysePayload(text: string, kind: PayloadDocumentKind): PayloadAnalysis {
  let automation: AutomationFields | undefined;
  let regionStart = 0;
  let regionEnd = text.length;
  if (kind === 'automation') {
    automation = readAutomationFields(parseTree(text, [], { disallowComments: true }));
    // Only the payload of an automation is a template; its name or regexes are not.
    regionStart = automation.payload?.start ?? 0;
    regionEnd = automation.payload?.end ?? 0;
  }

  const openings = findOpenings(text);
  const collect = (): Collected => {
    const collected: Collected = { starts: [], ends: [], keyFlags: [], references: [] };
    let openingCursor = 0;
    collected.onString = (offset, length, isKey) => {
      if (offset < regionStart || offset >= regionEnd || text.charCodeAt(offset) !== 0x22) return;
      const end = offset + length;
      collected.starts.push(offset);
      collected.ends.push(end);
      collected.keyFlags.push(isKey ? 1 : 0);
      if (openingCursor < openings.length && openings[openingCursor] < end) {
        openingCursor = scanReferences(text, offset + 1, contentEndOf(text, offset, end).contentEnd, isKey, openings, openingCursor, collected.references);
      }
    };
    return collected;
  };

  let collected = collect();
  const syntaxErrors: JsonSyntaxError[] = [];
  if (!scanValidJson(text, collected.onString!)) {
    // Not valid JSON: start over with the full visitor, which also says what is wrong and where.
    collected = collect();
    const onString = collected.onString!;
    visit(
      text,
      {
        onObjectProperty: (_property, offset, length) => onString(offset, length, true),
        onLiteralValue: (value, offset, length) => {
          if (typeof value === 'string') onString(offset, length, false);
        },
        onError: (code, offset, length) => {
          // The parser may report several errors at one place; the first explains it best.
          // jsonc-parser can report a span past the end (an unclosed comment at the very end): clamp it.
          const start = Math.min(offset, text.length);
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
    text,
    strings: { starts, ends, keys: Uint8Array.from(keyFlags) },
    references,
    syntaxErrors,
  };
  if (automation) analysis.automation = automation;
  return analysis;
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
