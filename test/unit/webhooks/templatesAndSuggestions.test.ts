import assert from 'node:assert/strict';
import { analysePayload, defaultSampleEvent, diagnose, payloadTemplates, renderPayload, templateText } from '../../../src/webhooks/model/payload';
import { closestNames, editDistance } from '../../../src/webhooks/model/payload/suggest';

describe('payload templates', () => {
  for (const template of payloadTemplates) {
    for (const category of ['artifact', 'run'] as const) {
      it(`${template.id} for ${category} events is clean and renders valid JSON`, () => {
        const text = templateText(template.id, category);
        const analysis = analysePayload(text, 'payload');
        assert.deepEqual(diagnose(analysis), []);
        assert.ok(analysis.references.length > 0);
        const sample = defaultSampleEvent(category === 'run' ? 'RUN_STATE' : 'LINK_ARTIFACT');
        const rendered = renderPayload(analysis, { sample, maskSecrets: true });
        assert.equal(rendered.invalid, undefined);
        assert.doesNotMatch(rendered.text, /\$\{/);
        if (category === 'run') assert.doesNotMatch(text, /artifact_/);
      });
    }
  }

  it('indents to fit inside an automation, and the result stays clean there', () => {
    const payload = templateText('messaging-blocks', 'run', '  ', '  ');
    const text = `{\n  "event": { "type": "RUN_STATE" },\n  "payload": ${payload}\n}`;
    assert.deepEqual(diagnose(analysePayload(text, 'automation')), []);
  });

  it('the repository dispatch carries event_type and client_payload', () => {
    const value = JSON.parse(templateText('repository-dispatch'));
    assert.equal(typeof value.event_type, 'string');
    assert.equal(value.client_payload.event_author, '${event_author}');
  });
});

describe('did-you-mean suggestions', () => {
  it('counts an adjacent swap as one edit', () => {
    assert.equal(editDistance('evnet_type', 'event_type'), 1);
    assert.equal(editDistance('abc', 'abc'), 0);
    assert.equal(editDistance('', 'abc'), 3);
  });

  it('gives up early beyond the limit', () => {
    assert.equal(editDistance('aaaaaaaa', 'bbbbbbbb', 2), 3);
  });

  it('prefers case-only and space-only differences, then the closest', () => {
    const names = ['project_name', 'entity_name', 'event_type', 'event_author'];
    assert.deepEqual(closestNames('Event_Type', names), ['event_type']);
    assert.deepEqual(closestNames(' entity_name ', names), ['entity_name']);
    assert.deepEqual(closestNames('event_autor', names), ['event_author']);
    assert.deepEqual(closestNames('proj', names), ['project_name']);
    assert.deepEqual(closestNames('zzzzzz', names), []);
  });
});
