import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { signPayload, verifySignature } from '../../../src/webhooks/model/signature';

/** The documented check: `openssl dgst -sha256 -hmac <secret> -binary | base64`. */
function opensslSignature(secret: string, body: Uint8Array): string {
  const digest = spawnSync('openssl', ['dgst', '-sha256', '-hmac', secret, '-binary'], { input: body });
  if (digest.status !== 0) throw new Error(`openssl failed: ${digest.stderr.toString()}`);
  const encoded = spawnSync('base64', ['-w', '0'], { input: digest.stdout });
  if (encoded.status !== 0) throw new Error(`base64 failed: ${encoded.stderr.toString()}`);
  return encoded.stdout.toString().trim();
}

// openssl takes the key as a command-line argument: no NUL, and no leading dash.
const secret = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }).filter((value) => !value.includes('\0') && !value.startsWith('-'));
const body = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 300 }), fc.json(), fc.constantFrom('', '{"text": "Grüße 👋 — naïve café"}', '{"ja": "モデルを配備しました"}', '\r\n\t'));

describe('webhook signature', () => {
  it('equals openssl dgst -sha256 -hmac <secret> -binary | base64 on random bodies, non-ASCII included', function () {
    this.timeout(120_000);
    fc.assert(
      fc.property(secret, body, (key, text) => {
        const bytes = Buffer.from(text, 'utf8');
        assert.equal(signPayload(key, bytes), opensslSignature(key, bytes));
        assert.equal(signPayload(key, text), signPayload(key, bytes), 'a string is signed as its UTF-8 bytes');
      }),
      { numRuns: 60 },
    );
  });

  it('matches a known value', () => {
    // printf %s '{"a":1}' | openssl dgst -sha256 -hmac secret -binary | base64
    assert.equal(signPayload('secret', '{"a":1}'), opensslSignature('secret', Buffer.from('{"a":1}')));
    assert.match(signPayload('secret', '{"a":1}'), /^[A-Za-z0-9+/]{43}=$/);
  });

  it('verifies only the exact body with the exact secret', () => {
    const signature = signPayload('s3cret', '{"a": 1}');
    assert.equal(verifySignature('s3cret', '{"a": 1}', signature), true);
    assert.equal(verifySignature('s3cret', '{"a": 1}', ` ${signature}\n`), true, 'surrounding whitespace from a header is forgiven');
    assert.equal(verifySignature('s3cret', '{"a":1}', signature), false, 'one space less');
    assert.equal(verifySignature('other', '{"a": 1}', signature), false);
    assert.equal(verifySignature('s3cret', '{"a": 1}', signature.slice(0, -2)), false, 'a shorter value');
    assert.equal(verifySignature('s3cret', '{"a": 1}', ''), false);
  });
});
