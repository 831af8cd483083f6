import assert from 'node:assert/strict';
import { analysePayload, defaultSampleEvent, hover, maskedSecret, renderPayload, sampleEventWith } from '../../../src/webhooks/model/payload';

const sample = defaultSampleEvent('ADD_ARTIFACT_ALIAS');

describe('payload hover', () => {
  const text = '{"a": "${artifact_version_string} ${artifact_metadata.accuracy} ${artifact_metadata.new_key} ${ACCESS_TOKEN} ${SLACK_SECRET} ${nope}"}';
  const analysis = analysePayload(text, 'payload');
  const at = (needle: string) => text.indexOf(needle) + 2;

  it('shows meaning, source and the sample value, over the whole reference', () => {
    const result = hover(analysis, at('${artifact_version_string}'), { sample })!;
    assert.equal(text.slice(result.start, result.end), '${artifact_version_string}');
    assert.match(result.markdown, /String form of the artifact version/);
    assert.match(result.markdown, /Source: The triggering artifact version\./);
    assert.match(result.markdown, /ADD_ARTIFACT_ALIAS\): `acme\/model-registry\/churn-model:production`/);
  });

  it('follows the edited sample values', () => {
    const edited = sampleEventWith('LINK_ARTIFACT', { metadata: { accuracy: '0.99' } });
    assert.match(hover(analysis, at('${artifact_metadata.accuracy}'), { sample: edited })!.markdown, /`0\.99`/);
  });

  it('explains an open metadata key without a sample value', () => {
    const markdown = hover(analysis, at('${artifact_metadata.new_key}'), { sample })!.markdown;
    assert.match(markdown, /top-level metadata key `new_key`/);
    assert.match(markdown, /no value in the sample event/);
  });

  it('never shows a secret value and names the webhook', () => {
    const webhook = { name: 'chat', hasAccessToken: false, secretName: 'SLACK_SECRET' };
    const token = hover(analysis, at('${ACCESS_TOKEN}'), { sample, webhook })!.markdown;
    assert.match(token, /Webhook: `chat`/);
    assert.match(token, /has no access token/);
    const secret = hover(analysis, at('${SLACK_SECRET}'), { sample, webhook })!.markdown;
    assert.doesNotMatch(secret, /has no secret/);
    assert.match(secret, /never shown/);
  });

  it('says nothing about unknown names (the diagnostic does)', () => {
    assert.equal(hover(analysis, at('${nope}'), { sample }), undefined);
    assert.equal(hover(analysis, 0, { sample }), undefined);
  });
});

describe('payload rendering', () => {
  it('substitutes sample values verbatim and masks secrets', () => {
    const text = '{"v": "${artifact_version_string}", "who": "${event_author}", "t": "Bearer ${ACCESS_TOKEN}", "s": "${HOOK_SECRET}", "m": "${artifact_metadata.missing}"}';
    const rendered = renderPayload(analysePayload(text, 'payload'), { sample, maskSecrets: true });
    assert.deepEqual(JSON.parse(rendered.text), {
      v: 'acme/model-registry/churn-model:production',
      who: 'jane-doe',
      t: `Bearer ${maskedSecret}`,
      s: maskedSecret,
      m: '',
    });
    assert.equal(rendered.invalid, undefined);
  });

  it('uses the real secret values when sending, and leaves unknown or unset references as written', () => {
    const text = '{"t": "${ACCESS_TOKEN}", "s": "${HOOK_SECRET}", "u": "${nope}", "x": "${OTHER}"}';
    const rendered = renderPayload(analysePayload(text, 'payload'), {
      sample,
      maskSecrets: false,
      secrets: { ACCESS_TOKEN: 'tok', HOOK_SECRET: 'sec' },
    });
    assert.deepEqual(JSON.parse(rendered.text), { t: 'tok', s: 'sec', u: '${nope}', x: '${OTHER}' });
    assert.deepEqual(rendered.unresolved.sort(), ['OTHER', 'nope']);
  });

  it('flags a rendering that is not valid JSON and names the value that broke it', () => {
    const edited = sampleEventWith('LINK_ARTIFACT', { values: { event_author: 'jane "the builder"' } });
    const rendered = renderPayload(analysePayload('{"who": "${event_author}"}', 'payload'), { sample: edited, maskSecrets: true });
    assert.equal(rendered.text, '{"who": "jane "the builder""}');
    assert.ok(rendered.invalid);
    assert.match(rendered.invalid.message, /`\$\{event_author\}` holds a quote/);
  });

  it('blames the template when no value needs escaping', () => {
    const rendered = renderPayload(analysePayload('{"a": "${event_type}",}', 'payload'), { sample, maskSecrets: true });
    assert.match(rendered.invalid!.message, /template itself is not valid JSON/);
  });

  it('renders only the payload of an automation', () => {
    const text = '{"name": "n", "event": {"type": "LINK_ARTIFACT"}, "payload": {"e": "${event_type}"}}';
    const rendered = renderPayload(analysePayload(text, 'automation'), { sample: defaultSampleEvent('LINK_ARTIFACT'), maskSecrets: true });
    assert.deepEqual(JSON.parse(rendered.text), { e: 'LINK_ARTIFACT' });
  });

  it('records where each value landed', () => {
    const text = '{"a": "x${event_type}y"}';
    const rendered = renderPayload(analysePayload(text, 'payload'), { sample, maskSecrets: true });
    const [substitution] = rendered.substitutions;
    assert.equal(rendered.text.slice(substitution.renderedStart, substitution.renderedEnd), 'ADD_ARTIFACT_ALIAS');
    assert.equal(text.slice(substitution.start, substitution.end), '${event_type}');
  });
});

describe('sample events', () => {
  it('follow the event type: alias only for the alias event, no artifact values for run events', () => {
    assert.equal(defaultSampleEvent('ADD_ARTIFACT_ALIAS').values.alias, 'production');
    assert.equal(defaultSampleEvent('LINK_ARTIFACT').values.alias, '');
    const run = defaultSampleEvent('RUN_STATE');
    assert.equal(run.values.artifact_version_string, '');
    assert.equal(run.values.event_type, 'RUN_STATE');
    assert.deepEqual(run.metadata, {});
  });

  it('apply edits over the defaults, including removed metadata keys', () => {
    const sample = sampleEventWith('LINK_ARTIFACT', { values: { event_author: 'sam' }, metadata: { owner: 'ml' }, removedMetadata: ['dataset'] });
    assert.equal(sample.values.event_author, 'sam');
    assert.equal(sample.metadata.owner, 'ml');
    assert.equal(sample.metadata.dataset, undefined);
    assert.equal(sample.metadata.accuracy, '0.93');
  });
});
