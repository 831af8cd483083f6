import { strict as assert } from 'node:assert';
import { endpointSecrets } from '../../../src/webhooks/model/endpoint';
import { sendTestConfirmation } from '../../../src/webhooks/model/testConfirmation';

describe('the webhook test confirmation', () => {
  it('shows the whole host on its own line, masks the address’s own token, and names the payload and credentials', () => {
    const token = 'T0KEN-9f8e7d6c5b4a3928';
    const url = `https://hooks.slack.example/services/${token}?${'padding='.repeat(50)}x`;
    const confirmation = sendTestConfirmation({
      webhook: 'deploy',
      url,
      secrets: [...endpointSecrets(url), 'access-token-value'],
      payload: '.rlstudio/deploy.payload.json',
      sampleEvent: 'LINK_ARTIFACT',
      bodyBytes: 1234,
      carriesAccessToken: true,
      signedWith: 'WEBHOOK_SECRET',
    });
    const lines = confirmation.detail.split('\n');
    assert.equal(confirmation.message, 'Send a test request to the webhook "deploy"?');
    assert.equal(lines[0], 'Endpoint host: hooks.slack.example');
    assert.ok(!confirmation.detail.includes(token), confirmation.detail);
    assert.match(lines[1]!, /^Endpoint: https:\/\/hooks\.slack\.example\/services\//);
    assert.match(confirmation.detail, /Payload: \.rlstudio\/deploy\.payload\.json, rendered with the LINK_ARTIFACT sample event \(1,234 bytes\)\./);
    assert.match(confirmation.detail, /access token.*signature made with the secret "WEBHOOK_SECRET"/);
    assert.equal(confirmation.action, 'Send Test');
  });

  it('a plain http endpoint is said to be unencrypted; no credential is said so', () => {
    const confirmation = sendTestConfirmation({
      webhook: 'local',
      url: 'http://127.0.0.1:9000/hook',
      secrets: [],
      payload: 'the generic sample payload',
      sampleEvent: 'LINK_ARTIFACT',
      bodyBytes: 10,
      carriesAccessToken: false,
      signedWith: undefined,
    });
    assert.match(confirmation.detail, /^Endpoint host: 127\.0\.0\.1:9000 \(http: not encrypted\)$/m);
    assert.match(confirmation.detail, /no credential/);
  });
  it('names the variables sent as written, so an unknown one is never sent without a word', () => {
    const confirmation = sendTestConfirmation({
      webhook: 'deploy',
      url: 'https://hooks.example/x',
      secrets: [],
      payload: 'deploy.payload.json',
      sampleEvent: 'LINK_ARTIFACT',
      bodyBytes: 10,
      carriesAccessToken: false,
      signedWith: undefined,
      unresolved: ['artifact_versoin', 'MISSING_SECRET'],
    });
    assert.equal(confirmation.message, 'Send a test request to the webhook "deploy", with 2 variables left unrendered?');
    assert.match(confirmation.detail, /^Not rendered, sent as written: "\$\{artifact_versoin\}", "\$\{MISSING_SECRET\}" \(unknown variables, or secrets with no stored value\)\.$/m);
  });
});
