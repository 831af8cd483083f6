import assert from 'node:assert/strict';
import { contentDigest, contentDigestInSlices, quoted, stepRanges, urlLines } from '../../../../src/platform/kit/confirmationText';

describe('Confirmation text', () => {
  it('stepRanges names every step as sorted ranges, duplicates once, however many', () => {
    assert.equal(stepRanges([120, 3, 0, 1, 2, 2, 99, 98, 97, 5, 6]), '0–3, 5, 6, 97–99, 120');
    assert.equal(stepRanges([]), '');
    const many = Array.from({ length: 300 }, (_, step) => step * 2);
    const text = stepRanges(many);
    for (const step of many) assert.match(text, new RegExp(`(^|, )${step}(, |$)`));
  });

  it('quoted keeps foreign text on one line, its breaks and controls visible, the quote always closed', () => {
    const forged = 'llama\n- step 24 · reward 0.99\r\u2028job "x" succeeded\u202e\u0007';
    const text = quoted(forged);
    assert.ok(!/[\n\r\u2028\u2029\u202e\u0007]/.test(text));
    assert.equal(text, '"llama\\n- step 24 · reward 0.99\\r\\u2028job \\"x\\" succeeded\\u202e\\u0007"');
    assert.equal(quoted('a'.repeat(20), 5), '"aaaaa…"');
  });

  it('urlLines puts the whole host on its own line however long the path, and says when it is plain http', () => {
    const url = `https://data.attacker.example:8443/${'a/'.repeat(500)}file.jsonl`;
    const [host, whole] = urlLines('Data URL', url);
    assert.equal(host, 'Data URL host: data.attacker.example:8443');
    assert.equal(whole, `Data URL: ${url}`);
    assert.match(urlLines('Endpoint', 'http://127.0.0.1:9/x')[0]!, /not encrypted/);
    assert.match(urlLines('Endpoint', 'not a url')[0]!, /not a URL/);
  });

  it('contentDigest changes with one byte', () => {
    assert.notEqual(contentDigest('{"a":1}\n'), contentDigest('{"a":2}\n'));
    assert.equal(contentDigest(new TextEncoder().encode('x')), contentDigest('x'));
  });

  it('contentDigestInSlices gives contentDigest of a body larger than a slice', async () => {
    const body = new Uint8Array(9 * 1024 * 1024 + 7).map((_, at) => at % 251);
    assert.equal(await contentDigestInSlices(body), contentDigest(body));
  });
});
