import assert from 'node:assert/strict';
import { analysePayload, referenceAt, stringAt } from '../../../src/webhooks/model/payload';

describe('payload analysis', () => {
  it('finds references with exact offsets, escapes and astral characters included', () => {
    const text = '{"a": "é \\" 🚀 ${event_type}"}';
    const [reference] = analysePayload(text, 'payload').references;
    assert.equal(text.slice(reference.start, reference.end), '${event_type}');
    assert.equal(text.slice(reference.nameStart, reference.nameEnd), 'event_type');
    assert.equal(reference.terminated, true);
    assert.equal(reference.inKey, false);
  });

  it('stops an unterminated reference at the next opening or at the end of the string', () => {
    const text = '{"a": "${x ${y} ${z", "b": 1}';
    const references = analysePayload(text, 'payload').references;
    assert.deepEqual(
      references.map((r) => [r.name, r.terminated]),
      [
        ['x ', false],
        ['y', true],
        ['z', false],
      ],
    );
    assert.equal(text.slice(references[2].start, references[2].end), '${z');
  });

  it('ignores `$` without a brace and braces outside strings', () => {
    const text = '{"a": "$name and $ {b}", "c": [1, 2]}';
    assert.deepEqual(analysePayload(text, 'payload').references, []);
  });

  it('marks references in keys', () => {
    const text = '{"k${event_type}": "${entity_name}"}';
    assert.deepEqual(
      analysePayload(text, 'payload').references.map((r) => r.inKey),
      [true, false],
    );
  });

  it('treats only the payload of an automation as a template', () => {
    const text = '{"name": "${x}", "description": "${y}", "payload": {"a": "${event_type}"}, "webhook": "${z}"}';
    const analysis = analysePayload(text, 'automation');
    assert.deepEqual(
      analysis.references.map((r) => r.name),
      ['event_type'],
    );
    assert.equal(analysis.automation?.webhook?.value, '${z}');
  });

  it('reads the automation fields with their spans', () => {
    const text = '{"event": {"type": "ADD_ARTIFACT_TAG", "tagRegex": "^v"}, "webhook": "hook", "team": "acme", "payload": {}}';
    const fields = analysePayload(text, 'automation').automation!;
    assert.equal(fields.event?.type?.value, 'ADD_ARTIFACT_TAG');
    assert.equal(text.slice(fields.event!.tagRegex!.start, fields.event!.tagRegex!.end), '"^v"');
    assert.equal(fields.team?.value, 'acme');
    assert.equal(text.slice(fields.payload!.start, fields.payload!.end), '{}');
  });

  it('keeps the reference of an unclosed string (typing before the closing quote)', () => {
    const text = '{\n  "a": "${proj\n}';
    const analysis = analysePayload(text, 'payload');
    assert.deepEqual(
      analysis.references.map((r) => [r.name, r.terminated]),
      [['proj', false]],
    );
    assert.equal(stringAt(text, analysis.strings, text.indexOf('proj') + 4), 1);
  });

  it('locates strings and references by offset', () => {
    const text = '{"a": "x ${event_type}", "b": 2}';
    const analysis = analysePayload(text, 'payload');
    assert.equal(stringAt(text, analysis.strings, 0), -1);
    assert.equal(stringAt(text, analysis.strings, 1), -1, 'before the opening quote of the key');
    assert.equal(stringAt(text, analysis.strings, 2), 0, 'inside the key');
    assert.equal(stringAt(text, analysis.strings, text.indexOf('x')), 1);
    assert.equal(stringAt(text, analysis.strings, text.indexOf('", "b"')), 1, 'just before the closing quote');
    assert.equal(stringAt(text, analysis.strings, text.indexOf('", "b"') + 1), -1, 'after the closing quote');
    const at = text.indexOf('$');
    assert.equal(referenceAt(analysis.references, at - 1), undefined);
    assert.equal(referenceAt(analysis.references, at)?.name, 'event_type');
    assert.equal(referenceAt(analysis.references, at + '${event_type}'.length - 1)?.name, 'event_type');
    assert.equal(referenceAt(analysis.references, at + '${event_type}'.length), undefined);
  });

  it('keeps the span of an unclosed comment at the very end inside the document', () => {
    const errors = analysePayload('/*', 'payload').syntaxErrors;
    assert.ok(errors.length > 0);
    for (const error of errors) assert.ok(error.end <= 2);
  });

  it('reports one syntax error per place, with its span', () => {
    const text = '{"a": 1,,}';
    const errors = analysePayload(text, 'payload').syntaxErrors;
    assert.equal(errors.length, 2);
    assert.equal(text.slice(errors[0].start, errors[0].end), ',');
  });
});
