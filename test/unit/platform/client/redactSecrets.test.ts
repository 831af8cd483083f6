import assert from 'node:assert/strict';
import fc from 'fast-check';
import { redactSecrets } from '../../../../src/platform/client/redact';
import { encodings, keyArbitrary, pieceOfKeyIn, prose, survivingPiece } from './support/keys';

/** Cuts `text` at two random points, the way a length limit or a slice would. */
const cutArbitrary = fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }));

function cut(text: string, [a, b]: [number, number]): string {
  const from = Math.floor(Math.min(a, b) * text.length);
  const to = Math.ceil(Math.max(a, b) * text.length);
  return text.slice(from, to);
}

describe('redactSecrets: a key cut by a length limit', () => {
  it('leaves no 8 characters in a row of the key, wherever the text was cut', () => {
    fc.assert(
      fc.property(keyArbitrary, prose, prose, cutArbitrary, (key, before, after, points) => {
        const shown = cut(`${before}${key}${after}`, points);
        const out = redactSecrets(shown, [key]);
        assert.equal(survivingPiece(out, key), undefined, `${JSON.stringify(out)} still holds a piece of ${key}`);
      }),
      { numRuns: 400 },
    );
  });

  it('masks the prefix a 300-character limit leaves of a key that starts at character 280', () => {
    const key = 'sk-live-4f9Q2xVb7Lm0Zr8TyW3nKd6Hs1Pa5Jc9Ue2Gi7Ov0Bq';
    const body = `${'x'.repeat(279)} ${key} and more`;
    const cutAt300 = `${body.replace(/\s+/g, ' ').slice(0, 299)}…`;
    const out = redactSecrets(cutAt300, [key]);
    assert.equal(survivingPiece(out, key), undefined);
    assert.ok(out.endsWith(' [redacted]…'), out.slice(-30));
  });

  it('masks a suffix left by a cut at the start', () => {
    const key = 'AbCdEfGh12345678ZyXwVuTs';
    assert.equal(redactSecrets(`"${key.slice(9)} was rejected"`, [key]), '"[redacted] was rejected"');
  });
});

describe('redactSecrets: encoded echoes', () => {
  for (const encoding of encodings) {
    it(`leaves no piece of the key once ${encoding.name}, cut anywhere`, () => {
      fc.assert(
        fc.property(keyArbitrary, prose, prose, cutArbitrary, fc.integer({ min: 0, max: 2 ** 31 }), (key, before, after, points, seed) => {
          const shown = cut(`${before}${encoding.encode(key, seed)}${after}`, points);
          const out = redactSecrets(shown, [key]);
          const found = pieceOfKeyIn(encoding.decode(out), key, encoding);
          assert.equal(found, undefined, `${encoding.name}: ${JSON.stringify(out)} still holds ${found}`);
        }),
        { numRuns: 250 },
      );
    });
  }
});

describe('redactSecrets: credentials by their syntax', () => {
  const cases: Array<[string, string, string[]?]> = [
    ['Authorization: Bearer abc.DEF-123', 'Authorization: Bearer [redacted]'],
    ['authorization: bearer abc.DEF-123', 'authorization: bearer [redacted]'],
    ['got BEARER Zm9vYmFyYmF6 back', 'got BEARER [redacted] back'],
    ['bearer x9', 'bearer [redacted]'],
    ['Authorization: Basic dXNlcjpwYXNz', 'Authorization: Basic [redacted]'],
    ['sent Basic dXNlcjpwYXNzd29yZA== twice', 'sent Basic [redacted] twice'],
    ['Authorization: token ghp_16C7e42F292c6912E7710c838347Ae178B4a', 'Authorization: token [redacted]'],
    ['header token ghp_16C7e42F292c6912E7710c8 was refused', 'header token [redacted] was refused'],
    ['x-api-key: abc', 'x-api-key: [redacted]'],
    ['X-API-KEY:abc', 'X-API-KEY:[redacted]'],
    ['{"x-api-key":"abc","n":1}', '{"x-api-key":"[redacted]","n":1}'],
    ['{"apiKey": "abc"}', '{"apiKey": "[redacted]"}'],
    ['Proxy-Authorization: Basic YTpi', 'Proxy-Authorization: Basic [redacted]'],
    ['Set-Cookie: session=abc123; Path=/; HttpOnly', 'Set-Cookie: [redacted]'],
    ['cookie: a=b; c=d\nnext line', 'cookie: [redacted]\nnext line'],
    ['see https://alice:s3cr3t@example.com/x', 'see https://[redacted]@example.com/x'],
    ['see https://ghp_tokenvalue@example.com/x', 'see https://[redacted]@example.com/x'],
    ['GET /x?access_token=abc&page=2', 'GET /x?access_token=[redacted]&page=2'],
    // A short secret is masked where it stands as the credential after a scheme.
    ['Bearer abc', 'Bearer [redacted]', ['abc']],
    ['token pw', 'token [redacted]', ['pw']],
  ];
  for (const [input, expected, secrets] of cases) {
    it(`${JSON.stringify(input)} → ${JSON.stringify(expected)}`, () => {
      assert.equal(redactSecrets(input, secrets ?? []), expected);
    });
  }
});

describe('redactSecrets: ordinary text', () => {
  const untouched = [
    'GET /v1/models failed: 401 Invalid API key',
    'Missing Bearer token in the request',
    'Basic authentication is not enabled',
    'The token 50256 ends the text; max token count 4096',
    'the chunks were sent',
    'a bearer of news',
    'Set a cookie policy',
  ];
  for (const text of untouched) {
    it(`leaves ${JSON.stringify(text)} alone`, () => {
      assert.equal(redactSecrets(text, ['k', 'abc', 'sk-live-Zq8Pw2Lm']), text);
    });
  }

  it('leaves prose alone that holds no piece of a secret', () => {
    fc.assert(
      fc.property(fc.lorem({ maxCount: 40 }), keyArbitrary, (text, key) => {
        fc.pre(survivingPiece(text, key) === undefined);
        assert.equal(redactSecrets(text, [key]), text);
      }),
    );
  });

  it('does not mangle a short secret inside words', () => {
    assert.equal(redactSecrets('the chunks were sent', ['k', 'chu']), 'the chunks were sent');
  });

  it('keeps JSON valid: a key inside a string value becomes the mark', () => {
    fc.assert(
      fc.property(keyArbitrary, fc.string(), (key, other) => {
        const document = JSON.stringify({ message: `rejected ${key}`, path: `/a\\/${key.slice(3)}"`, other, nested: [key] });
        const out = redactSecrets(document, [key]);
        const parsed = JSON.parse(out) as { message: string; nested: string[] };
        assert.equal(parsed.nested[0], '[redacted]');
        assert.equal(survivingPiece(JSON.stringify(parsed), key), undefined);
      }),
    );
  });

  it('keeps JSON valid when credential syntax sits next to quotes and backslashes', () => {
    const fragment = fc.constantFrom(
      'Cookie: ',
      'set-cookie:',
      'Bearer ',
      'basic ',
      'Authorization: ',
      'x-api-key=',
      'https://u:p@',
      '?token=',
      '&sig=',
      '"',
      '\\',
      '\n',
      'abc',
      'Zq8Pw2Lm0X',
      ' ',
      ';',
      '=',
    );
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 30 }), keyArbitrary, (parts, key) => {
        const document = JSON.stringify({ text: parts.join('') + key, [parts.join('')]: [parts.reverse().join('')] });
        assert.doesNotThrow(() => JSON.parse(redactSecrets(document, [key])), document);
      }),
      { numRuns: 500 },
    );
  });

  it('gives the same text when applied twice', () => {
    fc.assert(
      fc.property(keyArbitrary, prose, prose, (key, before, after) => {
        const once = redactSecrets(`${before} Bearer ${key} ${encodeURIComponent(key)} ${after}`, [key]);
        assert.equal(redactSecrets(once, [key]), once);
      }),
    );
  });
});
