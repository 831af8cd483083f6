import assert from 'node:assert/strict';
import { analysePayload, complete, defaultSampleEvent, plainVariables } from '../../../src/webhooks/model/payload';

/** What a person reads in the completion list: no entry is a bare name. */
describe('payload completion items', () => {
  const text = '{"text": "${"}';
  const cursor = text.indexOf('${') + 2;
  const webhook = { name: 'chat', hasAccessToken: true, secretName: 'SLACK_SECRET' };
  const items = complete(analysePayload(text, 'payload'), cursor, { sample: defaultSampleEvent('LINK_ARTIFACT'), webhook, metadataKeys: ['accuracy'] })!.items;

  it('offers every kind of name', () => {
    assert.deepEqual([...new Set(items.map((item) => item.kind))], ['variable', 'metadata-prefix', 'metadata-key', 'secret']);
  });

  it('gives each entry a few words beside its name, its meaning as detail and documentation with an example', () => {
    for (const item of items) {
      assert.ok(item.summary.length >= 8 && item.summary.length <= 60, `${item.label} summary: ${JSON.stringify(item.summary)}`);
      assert.notEqual(item.summary.toLowerCase(), item.label.toLowerCase(), item.label);
      assert.match(item.detail, /^[A-Z].{15,}\.$/, `${item.label} detail: ${JSON.stringify(item.detail)}`);
      assert.match(item.documentation, /Example/, `${item.label} documentation`);
    }
  });

  it('uses the catalogue meaning of each variable, and the sample value as its example', () => {
    const project = items.find((item) => item.label === 'project_name')!;
    const info = plainVariables().find((variable) => variable.name === 'project_name')!;
    assert.equal(project.detail, info.meaning);
    assert.equal(project.summary, info.summary);
    assert.match(project.documentation, /Example for the sample event, .*: `model-registry`/);
  });

  it('shows a metadata example beside the key, clipped to one row, and never a secret value', () => {
    const long = complete(analysePayload(text, 'payload'), cursor, {
      sample: { ...defaultSampleEvent('LINK_ARTIFACT'), metadata: { notes: 'x'.repeat(500) } },
    })!.items.find((item) => item.label === 'artifact_metadata.notes')!;
    assert.ok(long.summary.length <= 60, long.summary);
    assert.match(long.summary, /…$/);
    for (const secret of items.filter((item) => item.kind === 'secret')) {
      assert.match(secret.summary, /^secret: /);
      assert.match(secret.documentation, /never shown/);
      assert.doesNotMatch(secret.documentation + secret.detail + secret.summary, /\*{8}/);
    }
  });
});
