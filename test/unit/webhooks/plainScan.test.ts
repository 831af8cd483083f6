import assert from 'node:assert/strict';
import fc from 'fast-check';
import { firstTooDeep, maxJsonDepth } from '../../../src/platform/kit/strictJson';
import { analysePayload } from '../../../src/webhooks/model/payload';
import { scanValidJson } from '../../../src/webhooks/model/payload/fastScan';
import { scanPlainJson, type PlainStrings } from '../../../src/webhooks/model/payload/plainScan';

// Pieces where a plain reading could go wrong: numbers and literals with what may follow them,
// escapes (complete or not), control characters, whitespace jsonc-parser does not take, comments.
const piece = fc.constantFrom(
  '{',
  '}',
  '[',
  ']',
  ':',
  ',',
  '"',
  '"a"',
  '"k":',
  '\\',
  '\\"',
  '\\u00e9',
  '\\u0',
  '\\x',
  '\\/',
  '${',
  ' ',
  '\n',
  '\r\n',
  '\t',
  '\u000b',
  '\u00a0',
  '\u0001',
  '0',
  '01',
  '-',
  '-1',
  '1.',
  '1.5',
  '1e',
  '1e+5',
  '2E-3',
  'true',
  'truex',
  'fals',
  'null',
  '//',
  '/*',
  '*/',
  'é',
  '🚀',
);

const text = fc.oneof(
  fc.array(piece, { maxLength: 40 }).map((parts) => parts.join('')),
  fc
    .tuple(fc.json(), fc.constantFrom(0, 1, '\t', '\r\n'))
    .map(([json, indent]) => (typeof indent === 'string' && indent.startsWith('\r') ? json.replace(/,/g, ',\r\n') : JSON.stringify(JSON.parse(json), null, indent))),
  // Valid JSON with one piece put in anywhere.
  fc.tuple(fc.json(), piece, fc.nat()).map(([json, inserted, at]) => json.slice(0, at % (json.length + 1)) + inserted + json.slice(at % (json.length + 1))),
);

function plain(source: string): { accepted: boolean; strings: [number, number, boolean][] } {
  const found: PlainStrings = { starts: [], ends: [], keys: [] };
  const accepted = scanPlainJson(source, found);
  return { accepted, strings: found.starts.map((start, index) => [start, found.ends[index] - start, found.keys[index] === 1]) };
}

describe('plain reading of valid JSON', () => {
  it('accepts only what jsonc-parser reads as valid, nothing too deep, and reports the same strings', () => {
    let accepted = 0;
    fc.assert(
      fc.property(text, (source) => {
        const read = plain(source);
        const full: [number, number, boolean][] = [];
        const valid = scanValidJson(source, (offset, length, isKey) => full.push([offset, length, isKey]));
        if (!read.accepted) {
          // Refusing says nothing, except that valid JSON below the depth limit is never refused.
          if (valid) assert.ok(firstTooDeep(source) >= 0, `refused valid ${JSON.stringify(source)}`);
          return;
        }
        accepted++;
        assert.ok(valid, `accepted ${JSON.stringify(source)}`);
        assert.equal(firstTooDeep(source), -1);
        assert.deepEqual(read.strings, full);
      }),
      { numRuns: 4000 },
    );
    assert.ok(accepted > 1000, `accepted ${accepted}`);
  });

  it('leaves nesting at the depth limit to the general path, which reports it', () => {
    const atLimit = `${'['.repeat(maxJsonDepth)}${']'.repeat(maxJsonDepth)}`;
    const beyond = `${'['.repeat(maxJsonDepth + 1)}${']'.repeat(maxJsonDepth + 1)}`;
    assert.equal(plain(atLimit).accepted, true);
    assert.equal(plain(beyond).accepted, false);
    assert.equal(analysePayload(atLimit, 'payload').limit, undefined);
    assert.equal(analysePayload(beyond, 'payload').limit?.reason, 'too-deep');
  });
});
