import assert from 'node:assert/strict';
import fc from 'fast-check';
import { analysePayload, complete, completeAfterEdit, defaultSampleEvent, type PayloadContext } from '../../../src/webhooks/model/payload';

// What people type in a payload: variable openings (most often) and closings, metadata keys (two
// spellings of `é` the locale orders alike among them), quotes, escapes, line breaks and JSON punctuation.
const typed = fc.constantFrom(
  'p',
  '${',
  '${',
  '${',
  '${artifact_metadata.',
  '}',
  '$',
  '{',
  '${artifact_metadata.',
  'artifact_metadata.',
  'accuracy}',
  'é}',
  'e\u0301}',
  '.',
  '"',
  '\\',
  '\\"',
  '\\n',
  '\\u00e9',
  '\\u00',
  '🚀',
  'é',
  '\n',
  '\t',
  ' ',
  ',',
  ':',
  '',
);

const metadataKey = fc.constantFrom('accuracy', 'framework', 'é', 'e\u0301', 'a.b', '');

/** A JSON value whose strings hold references: plain variables, metadata keys, unfinished ones. */
const template = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, tie('text'), fc.integer(), fc.boolean(), fc.constant(null), tie('array'), tie('object')),
  text: fc
    .array(
      fc.oneof(
        fc.string({ maxLength: 6 }),
        metadataKey.map((key) => `\${artifact_metadata.${key}}`),
        fc.constantFrom('${project_name}', '${', '${event_', '${ACCESS_TOKEN}'),
      ),
      {
        maxLength: 4,
      },
    )
    .map((parts) => parts.join('')),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.dictionary(fc.string({ maxLength: 5 }), tie('value'), { maxKeys: 4 }),
})).value;

const document = fc.tuple(template, fc.constantFrom(0, 2, '\t')).map(([value, indent]) => JSON.stringify({ records: value }, null, indent));

/** One keystroke or paste: `removed` characters at `at` replaced by `inserted`, the cursor after it. */
const edit = fc.record({ at: fc.nat(), removed: fc.nat({ max: 3 }), inserted: fc.array(typed, { maxLength: 2 }).map((parts) => parts.join('')), insideString: fc.boolean() });

const context = fc.record({
  metadataKeys: fc.subarray(['accuracy', 'framework', 'é', 'e\u0301']),
  webhook: fc.option(fc.record({ name: fc.constant('hook'), hasAccessToken: fc.boolean(), secretName: fc.option(fc.constantFrom('SECRET', 'event_type'), { nil: undefined }) }), {
    nil: undefined,
  }),
});

function applyEdits(text: string, edits: { at: number; removed: number; inserted: string; insideString: boolean }[]): { text: string; cursor: number } {
  let cursor = 0;
  for (const { at, removed, inserted, insideString } of edits) {
    // Half the edits land inside a string (where completion is asked for), anywhere in its content.
    const { starts, ends } = analysePayload(text, 'payload').strings;
    const string = at % Math.max(1, starts.length);
    const place = insideString && starts.length > 0 ? starts[string] + 1 + (at % Math.max(1, ends[string] - starts[string] - 1)) : at % (text.length + 1);
    text = text.slice(0, place) + inserted + text.slice(Math.min(text.length, place + removed));
    cursor = place + inserted.length;
  }
  return { text, cursor };
}

describe('completion after an edit', () => {
  it('offers exactly what completion on the analysis of the edited text offers, and answers for edits inside strings', () => {
    let followed = 0;
    let offered = 0;
    fc.assert(
      fc.property(document, fc.array(edit, { minLength: 1, maxLength: 3 }), fc.option(fc.nat(), { nil: undefined }), context, (before, edits, anywhere, chosen) => {
        const previous = analysePayload(before, 'payload');
        const { text, cursor: afterEdit } = applyEdits(before, edits);
        const cursor = anywhere === undefined ? afterEdit : anywhere % (text.length + 1);
        const payloadContext: PayloadContext = { sample: defaultSampleEvent(), metadataKeys: chosen.metadataKeys, ...(chosen.webhook ? { webhook: chosen.webhook } : {}) };
        const result = completeAfterEdit(previous, text, cursor, payloadContext);
        if (!result) return;
        followed++;
        const expected = complete(analysePayload(text, 'payload'), cursor, payloadContext);
        if (expected) offered++;
        assert.deepEqual(result.completions, expected, `after editing ${JSON.stringify(before)} into ${JSON.stringify(text)}, at ${cursor}`);
      }),
      { numRuns: 3000 },
    );
    // The shortcut is taken often, and often where there is something to offer.
    assert.ok(followed > 600, `followed ${followed} edits`);
    assert.ok(offered > 40, `offered something after ${offered} edits`);
  });

  it('answers for a keystroke inside a string value of a large payload, from the analysis before it', () => {
    const records = Array.from({ length: 2000 }, (_, index) => `{ "id": ${index}, "title": "Deploy \${artifact_version_string}", "key": "\${artifact_metadata.key${index % 3}}", "cursor": "\${" }`);
    const before = `{ "records": [\n${records.join(',\n')}\n] }`;
    const at = before.lastIndexOf('"cursor": "${') + '"cursor": "${'.length;
    const text = `${before.slice(0, at)}artifact_metadata.${before.slice(at)}`;
    const cursor = at + 'artifact_metadata.'.length;
    const payloadContext: PayloadContext = { sample: defaultSampleEvent(), metadataKeys: ['accuracy'] };
    const result = completeAfterEdit(analysePayload(before, 'payload'), text, cursor, payloadContext);
    assert.ok(result, 'the keystroke inside a string is followed');
    assert.deepEqual(result.completions, complete(analysePayload(text, 'payload'), cursor, payloadContext));
    assert.deepEqual(
      result.completions?.items.map((item) => item.label).filter((label) => label.startsWith('key')),
      ['key0', 'key1', 'key2'],
    );
  });

  it('lists metadata keys the locale orders alike in the same order, whichever the document used first', () => {
    // The edit puts the decomposed `é` before the precomposed one the document already used.
    const before = '{ "a": "x", "b": "${artifact_metadata.\u00e9}", "c": "${" }';
    const text = before.replace('"x"', '"${artifact_metadata.e\u0301}"');
    const cursor = text.lastIndexOf('${') + 2;
    const payloadContext: PayloadContext = { sample: defaultSampleEvent() };
    const result = completeAfterEdit(analysePayload(before, 'payload'), text, cursor, payloadContext);
    assert.ok(result);
    assert.deepEqual(result.completions, complete(analysePayload(text, 'payload'), cursor, payloadContext));
  });

  it('leaves to a fresh analysis an edit that changes the JSON around the strings', () => {
    const before = '{ "a": "${project_name}", "b": [1, 2] }';
    const payloadContext: PayloadContext = { sample: defaultSampleEvent() };
    const previous = analysePayload(before, 'payload');
    // A quote closes the string early, a number changes outside any string, a broken escape.
    for (const text of ['{ "a": "${pro"ject_name}", "b": [1, 2] }', '{ "a": "${project_name}", "b": [1, 23] }', '{ "a": "${project_name}\\x", "b": [1, 2] }']) {
      assert.equal(completeAfterEdit(previous, text, 12, payloadContext), undefined, text);
    }
    // An analysis of broken JSON, or of an automation, is never followed.
    assert.equal(completeAfterEdit(analysePayload('{ "a": "${" ', 'payload'), '{ "a": "${p" ', 11, payloadContext), undefined);
    assert.equal(completeAfterEdit(analysePayload('{ "payload": { "a": "${" } }', 'automation'), '{ "payload": { "a": "${p" } }', 23, payloadContext), undefined);
  });
});
