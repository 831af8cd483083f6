import assert from 'node:assert/strict';
import { analysePayload, complete, defaultSampleEvent, diagnose } from '../../../src/webhooks/model/payload';

/** Codes of the diagnostics, each with the text it points at. */
function problems(text: string, kind: 'payload' | 'automation' = 'payload'): string[] {
  return diagnose(analysePayload(text, kind)).map((diagnostic) => `${diagnostic.code} ${text.slice(diagnostic.start, diagnostic.end)}`);
}

describe('payload variables in a file whose JSON is broken elsewhere', () => {
  it('a trailing comma at the end and an unknown ${runn_name} at the top: both are reported', () => {
    const text = '{\n  "text": "${runn_name} started",\n  "project": "${project_name}",\n  "count": 3,\n}\n';
    assert.deepEqual(problems(text), ['unknown-variable runn_name', 'invalid-json }']);
  });

  it('checks the strings after an extra closing brace, where the JSON parser stops reading', () => {
    const text = '{\n  "a": {"owner": "${event_author}"}},\n  "b": "${artifact_versoin}",\n  "c": "${runn_name}"\n}\n';
    assert.deepEqual(problems(text), ['invalid-json ,', 'unknown-variable artifact_versoin', 'unknown-variable runn_name']);
  });

  it('checks a document that lost its opening brace, and text after the root', () => {
    assert.deepEqual(problems('  "a": "${tagg}",\n  "b": "${runn_name}"\n}\n'), ['invalid-json :', 'unknown-variable tagg', 'unknown-variable runn_name']);
    assert.deepEqual(problems('{"a": 1}\n{"b": "${runn_name}"}\n'), ['invalid-json {', 'unknown-variable runn_name']);
  });

  it('still tells keys from values where the JSON is broken', () => {
    const text = '{"k${event_type}" "${entity_name}", "v": "${tag}",}}, "k2${alias}": "${project_name}"';
    const references = analysePayload(text, 'payload').references;
    assert.deepEqual(
      references.map((reference) => [reference.name, reference.inKey]),
      [
        ['event_type', true],
        ['entity_name', false],
        ['tag', false],
        ['alias', true],
        ['project_name', false],
      ],
    );
    assert.ok(problems(text).filter((problem) => problem.startsWith('variable-in-key')).length === 2);
  });

  it('completes variables in a string after the break', () => {
    const text = '{"a": 1}}, "b": "${"';
    const cursor = text.lastIndexOf('${') + 2;
    const result = complete(analysePayload(text, 'payload'), cursor, { sample: defaultSampleEvent() });
    assert.ok(result && result.items.some((item) => item.label === 'project_name'));
  });

  it('checks the payload of a broken automation and nothing outside it', () => {
    const text = '{\n "name": "${x}",\n "event": {"type": "LINK_ARTIFACT"},\n "payload": {"text": "${runn_name}", "n": [1,],},\n}\n';
    assert.deepEqual(problems(text, 'automation'), ['unknown-variable runn_name', 'invalid-json ]', 'invalid-json }', 'invalid-json }']);
  });
});
