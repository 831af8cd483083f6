import assert from 'node:assert/strict';
import fc from 'fast-check';
import { visit } from 'jsonc-parser';
import { analysePayload, complete, defaultSampleEvent, diagnose, hover, renderPayload, type PayloadDocumentKind } from '../../../src/webhooks/model/payload';
import { scanValidJson } from '../../../src/webhooks/model/payload/fastScan';

// Pieces that matter to the analyser: JSON punctuation, quotes and escapes, reference openings and
// closings, names, astral characters and line breaks, so shrunk failures stay readable.
const fragment = fc.constantFrom(
  '{',
  '}',
  '[',
  ']',
  ':',
  ',',
  '"',
  '\\',
  '\\"',
  '\\u00e9',
  '${',
  '$',
  '}',
  ' ',
  '\n',
  '\t',
  'event_type',
  'artifact_metadata.',
  'a.b',
  'ACCESS_TOKEN',
  '"payload"',
  '"event"',
  '"type"',
  '"ADD_ARTIFACT_ALIAS"',
  '"aliasRegex"',
  '"(["',
  '1',
  'true',
  'null',
  '🚀',
  'é',
  '//',
  '/*',
);
const documentText = fc.oneof(
  fc.array(fragment, { maxLength: 60 }).map((parts) => parts.join('')),
  // Valid JSON with references sprinkled into its strings, then cut anywhere.
  fc.tuple(fc.json(), fc.nat()).map(([json, cut]) => {
    const withReferences = json.replace(/"([^"\\]*)"/g, (_match, inner: string) => `"${inner}\${${inner.slice(0, 8)}}"`);
    return withReferences.slice(0, withReferences.length - (cut % (withReferences.length + 1)));
  }),
  fc.string({ unit: 'grapheme', maxLength: 80 }),
);
const kind = fc.constantFrom<PayloadDocumentKind>('payload', 'automation');
const webhook = fc.option(fc.record({ name: fc.constant('hook'), hasAccessToken: fc.boolean(), secretName: fc.option(fc.constantFrom('SECRET', 'event_type'), { nil: undefined }) }), {
  nil: undefined,
});

function inside(text: string, start: number, end: number): boolean {
  return Number.isInteger(start) && Number.isInteger(end) && 0 <= start && start <= end && end <= text.length;
}

describe('payload analyser properties', () => {
  it('never throws, and every range it reports stays inside the document', () => {
    fc.assert(
      fc.property(documentText, kind, webhook, (text, documentKind, chosen) => {
        const analysis = analysePayload(text, documentKind);
        for (const reference of analysis.references) {
          assert.ok(inside(text, reference.start, reference.end));
          assert.ok(reference.start <= reference.nameStart && reference.nameStart <= reference.nameEnd && reference.nameEnd <= reference.end);
          assert.equal(text.slice(reference.start, reference.start + 2), '${');
        }
        for (const error of analysis.syntaxErrors) assert.ok(inside(text, error.start, error.end));
        for (const diagnostic of diagnose(analysis, { webhook: chosen })) {
          assert.ok(inside(text, diagnostic.start, diagnostic.end), `${diagnostic.code} ${diagnostic.start}-${diagnostic.end} in ${text.length}`);
        }
      }),
      { numRuns: 1500 },
    );
  });

  it('completion and hover never throw at any offset, and their ranges stay inside the document', () => {
    fc.assert(
      fc.property(documentText, kind, webhook, fc.nat(), (text, documentKind, chosen, at) => {
        const analysis = analysePayload(text, documentKind);
        const offset = at % (text.length + 1);
        const context = { sample: defaultSampleEvent(), metadataKeys: ['accuracy'], ...(chosen ? { webhook: chosen } : {}) };
        const completions = complete(analysis, offset, context);
        if (completions) {
          assert.ok(inside(text, completions.replaceStart, completions.replaceEnd));
          assert.ok(completions.replaceStart <= offset && offset <= completions.replaceEnd);
          for (const item of completions.items) assert.doesNotMatch(item.insertText, /["\\\n]/);
        }
        const shown = hover(analysis, offset, context);
        if (shown) assert.ok(inside(text, shown.start, shown.end) && shown.start <= offset && offset < shown.end);
      }),
      { numRuns: 1500 },
    );
  });

  it('rendering never throws, and a clean template renders to valid JSON with the default sample', () => {
    fc.assert(
      fc.property(documentText, kind, (text, documentKind) => {
        const analysis = analysePayload(text, documentKind);
        const rendered = renderPayload(analysis, { sample: defaultSampleEvent(), maskSecrets: true });
        if (documentKind === 'payload' && analysis.syntaxErrors.length === 0) {
          assert.equal(rendered.invalid, undefined, rendered.text);
          JSON.parse(rendered.text);
        }
      }),
      { numRuns: 1000 },
    );
  });
});

/** The value with a reference put into every string, keys included. */
function withReferences(value: unknown): unknown {
  if (typeof value === 'string') return `\${${value.slice(0, 6)}} ${value}`;
  if (Array.isArray(value)) return value.map(withReferences);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [withReferences(key) as string, withReferences(inner)]));
  }
  return value;
}

describe('fast path for valid JSON', () => {
  function visited(text: string): { strings: [number, number, boolean][]; valid: boolean } {
    const strings: [number, number, boolean][] = [];
    let valid = true;
    visit(
      text,
      {
        onObjectProperty: (_name, offset, length) => strings.push([offset, length, true]),
        onLiteralValue: (value, offset, length) => {
          if (typeof value === 'string') strings.push([offset, length, false]);
        },
        onError: () => {
          valid = false;
        },
      },
      { disallowComments: true, allowTrailingComma: false },
    );
    return { strings, valid };
  }

  it('accepts exactly what the full parser accepts, and reports the same strings', () => {
    fc.assert(
      fc.property(documentText, (text) => {
        const fast: [number, number, boolean][] = [];
        const accepted = scanValidJson(text, (offset, length, isKey) => fast.push([offset, length, isKey]));
        const full = visited(text);
        assert.equal(accepted, full.valid, `fast ${accepted}, full ${full.valid} for ${JSON.stringify(text)}`);
        if (accepted) assert.deepEqual(fast, full.strings);
      }),
      { numRuns: 3000 },
    );
  });

  it('gives the same analysis as the full parser on valid JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(0, 2), (value, indent) => {
        const text = JSON.stringify(withReferences(value), null, indent);
        assert.ok(scanValidJson(text, () => undefined));
        const analysis = analysePayload(text, 'payload');
        assert.deepEqual(analysis.syntaxErrors, []);
        assert.deepEqual(
          [...analysis.strings.starts.keys()].map((index) => [analysis.strings.starts[index], analysis.strings.ends[index] - analysis.strings.starts[index], analysis.strings.keys[index] === 1]),
          visited(text).strings,
        );
      }),
      { numRuns: 500 },
    );
  });
});
