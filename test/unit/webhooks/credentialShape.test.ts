import { strict as assert } from 'node:assert';
import { authSchemeOf, credentialParts, looksLikeCredential } from '../../../src/webhooks/model/credentialShape';
import { formatReceivedRequest, maskHeaders } from '../../../src/webhooks/model/receivedReport';

const jwt = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';

describe('credential shapes in header values', () => {
  const credentials: Record<string, string> = {
    'a GitHub personal token': 'ghp_16C7e42F292c6912E7710c838347Ae178B4a',
    'a GitHub OAuth token': 'gho_16C7e42F292c6912E7710c838347Ae178B4a',
    'a GitHub app token': 'ghs_16C7e42F292c6912E7710c838347Ae178B4a',
    'a fine-grained GitHub token': 'github_pat_11ABCDEFG0123456789_abcdefghijklmnop',
    'an OpenAI-style key': 'sk-proj-abcdefghij0123456789',
    'a Stripe live key': 'sk_live_4eC39HqLyjWDarjtT1zdp7dc',
    'a Slack bot token': 'xoxb-123456789012-1234567890123-abcdefghij',
    'a Slack user token': 'xoxp-123456789012-abcdefghij',
    'an AWS access key id': 'AKIAIOSFODNN7EXAMPLE',
    'a GitLab token': 'glpat-xxxxxxxxxxxxxxxxxxxx',
    'a Hugging Face token': 'hf_abcdefghijklmnopqrstuvwxyzABCDEF',
    'an npm token': 'npm_abcdefghijklmnopqrstuvwxyz0123456789',
    'a token after a word': 'token=ghp_16C7e42F292c6912E7710c838347Ae178B4a; v=1',
    'a JWT': jwt,
    'a JWT inside a longer value': `session ${jwt} extra`,
    'a Bearer value': 'Bearer abc',
    'a Basic value': 'basic amFuZTpodW50ZXIy',
    'a long base64 run': 'c2VjcmV0LXZhbHVlLXRoYXQtaXMtbG9uZw==',
    'a long base64url run': 'Zm9vYmFy_-Zm9vYmFy_-Zm9vYmFy',
    'a long hex run': '9f86d081884c7d659a2feaa0c55ad015',
    'a lowercase secret with digits': 'whsec-witness-abcdef123456',
  };
  for (const [what, value] of Object.entries(credentials)) {
    it(`${what}: looks like a credential`, () => assert.equal(looksLikeCredential(value), true, value));
  }

  const ordinary: Record<string, string> = {
    'a content type': 'application/json; charset=utf-8',
    'a form content type': 'application/x-www-form-urlencoded',
    'a user agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
    'a delivery id (UUID)': '72d3162e-cc78-11e3-81ab-4c9367dc0958',
    'a host': '127.0.0.1:8787',
    'a length': '1024',
    'a date': 'Tue, 02 Jan 2025 03:04:05 GMT',
    'a short base64 value': 'c2lnbmF0dXJl',
    'a word starting like a prefix': 'skeleton-key-holder',
    'a short hex id': '9f86d081884c7d65',
  };
  for (const [what, value] of Object.entries(ordinary)) {
    it(`${what}: shown`, () => assert.equal(looksLikeCredential(value), false, value));
  }

  it('names the auth scheme a masked value keeps', () => {
    assert.equal(authSchemeOf('Bearer abc'), 'Bearer');
    assert.equal(authSchemeOf('  token xyz'), 'token');
    assert.equal(authSchemeOf('ghp_abc'), undefined);
  });

  it('a value longer than is examined is masked whole, in linear time', () => {
    const started = performance.now();
    assert.equal(looksLikeCredential('a-'.repeat(40_000)), true);
    assert.equal(looksLikeCredential('ab-'.repeat(20_000)), false);
    // Quadratic work on these 80,000 characters takes many seconds; linear, a few ms.
    assert.ok(performance.now() - started < 2_000);
  });

  it('masks credential-shaped values under any header name, keeping the scheme, and collects them', () => {
    const pat = 'ghp_16C7e42F292c6912E7710c838347Ae178B4a';
    const { shown, secrets } = maskHeaders({
      'x-custom-pat': pat,
      'x-invented': jwt,
      'x-forward-thing': 'Bearer opaque-value',
      'x-list': ['plain', 'AKIAIOSFODNN7EXAMPLE'],
      'x-github-delivery': '72d3162e-cc78-11e3-81ab-4c9367dc0958',
      'content-type': 'application/json',
    });
    assert.deepEqual(shown, {
      'x-custom-pat': `[redacted] (${pat.length} characters)`,
      'x-invented': `[redacted] (${jwt.length} characters)`,
      'x-forward-thing': 'Bearer [redacted] (12 characters)',
      'x-list': ['[redacted] (5 characters)', '[redacted] (20 characters)'],
      'x-github-delivery': '72d3162e-cc78-11e3-81ab-4c9367dc0958',
      'content-type': 'application/json',
    });
    for (const value of [pat, jwt, 'opaque-value', 'AKIAIOSFODNN7EXAMPLE']) assert.ok(secrets.includes(value), value);
  });

  it('a credential-shaped header value echoed in the body is masked there too', () => {
    const pat = 'ghp_16C7e42F292c6912E7710c838347Ae178B4a';
    const text = JSON.stringify({ echo: pat, jwt });
    const shown = formatReceivedRequest({
      sequence: 1,
      receivedAt: Date.UTC(2025, 0, 2),
      method: 'POST',
      path: '/x',
      headers: { 'x-custom-pat': pat, 'x-session-blob': jwt },
      body: new TextEncoder().encode(text),
      bodyText: text,
      signature: 'not-checked',
    });
    assert.doesNotMatch(shown, /ghp_16C7|eyJhbGci/);
    assert.match(shown, /x-custom-pat: \[redacted\]/);
  });
});

describe('the parts of a value to mask wherever they are echoed', () => {
  it('takes the token, not the words around it', () => {
    const pat = 'ghp_16C7e42F292c6912E7710c838347Ae178B4a';
    const withPat = credentialParts(`token=${pat}; v=1`);
    assert.ok(withPat.includes(pat));
    assert.ok(
      withPat.every((part) => pat.includes(part)),
      JSON.stringify(withPat),
    );
    assert.deepEqual(credentialParts('Bearer opaque-value'), ['opaque-value']);
    assert.deepEqual(credentialParts('/services/T0ABCDEF1/B0GHIJKL2/9f8e7d6c5b4a'), ['T0ABCDEF1', 'B0GHIJKL2', '9f8e7d6c5b4a']);
    assert.deepEqual(credentialParts('application/json'), []);
  });
});
