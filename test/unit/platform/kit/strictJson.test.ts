import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { visit } from 'jsonc-parser';
import { extentOf, firstTooDeep, maxJsonDepth, nodeAtPath, parseStrictJson } from '../../../../src/platform/kit/strictJson';

describe('strict JSON with positions', () => {
  it('parses to the same value as JSON.parse for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(undefined, 2), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        const parsed = parseStrictJson(text);
        assert.ok(parsed.ok, text);
        assert.deepEqual(parsed.value, JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });

  it('rejects whatever JSON.parse rejects among near-JSON texts', () => {
    const texts = ['', ' ', '{', '[1,]', '{"a":1,}', '// c\n1', '/* c */1', "{'a':1}", '{a:1}', '01', '1.', '.5', '+1', 'NaN', 'tru', '"a\nb"', '"\\x"', '[1 2]', '{"a" 1}', '1 2', '"\t"'];
    for (const text of texts) {
      let native = true;
      try {
        JSON.parse(text);
      } catch {
        native = false;
      }
      assert.equal(parseStrictJson(text).ok, native, JSON.stringify(text));
    }
  });

  it('names the problem and where it is', () => {
    const result = parseStrictJson('{"trajectories": [}');
    assert.equal(result.ok, false);
    if (result.ok) return;
    assert.equal(result.error.offset, 18);
    assert.equal(result.error.message, 'value expected');
  });

  it('locates values by path, within a slice of a larger text', () => {
    const text = 'xx{"a": [1, {"b": true}]}yy';
    const result = parseStrictJson(text, 2, text.length - 2);
    assert.ok(result.ok);
    if (!result.ok) return;
    const { offset, length } = extentOf(nodeAtPath(result.locate(), ['a', 1, 'b'])!);
    assert.equal(text.slice(offset, offset + length), 'true');
    assert.equal(nodeAtPath(result.locate(), ['a', 5]), undefined);
    assert.equal(nodeAtPath(result.locate(), ['missing', 'x']), undefined);
  });
});

/** The deepest level jsonc-parser's recursive parser reaches on `text`: the bound the guard must respect. */
function parserDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  const enter = () => {
    depth++;
    deepest = Math.max(deepest, depth);
  };
  const leave = () => {
    depth--;
  };
  visit(text, { onObjectBegin: enter, onObjectEnd: leave, onArrayBegin: enter, onArrayEnd: leave }, { disallowComments: true });
  return deepest;
}

describe('nesting guard', () => {
  it('finds the bracket that opens the level past the limit, and nothing in valid JSON within it', () => {
    assert.equal(firstTooDeep('[[[]]]', 3), -1);
    assert.equal(firstTooDeep('[[[[]]]]', 3), 3);
    assert.equal(firstTooDeep('{"a": [{"b": [1]}]}', 3), 13);
    assert.equal(firstTooDeep('[' + '[]'.repeat(1000) + ']', 2), -1, 'siblings do not add up');
    assert.equal(firstTooDeep('["[[[[", "\\"[[[["]', 2), -1, 'brackets in strings do not count');
  });

  it('reads strings, escapes and comments the way jsonc-parser does', () => {
    // A string ends at a line break, so the brackets after it count.
    assert.equal(firstTooDeep('["abc\n[[', 2), 7);
    // An escaped line break does not end it.
    assert.equal(firstTooDeep('["abc\\\n[["', 2), -1);
    // Comments are skipped, quotes in them included.
    assert.equal(firstTooDeep('[/* " */[[', 2), 9);
    assert.equal(firstTooDeep('[// "\n[[', 2), 7);
    // A closing bracket closes only the level it matches.
    assert.equal(firstTooDeep('[},[},[', 2), 6);
  });

  it('agrees with the real nesting of any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: 9 }), (value, limit) => {
        const text = JSON.stringify(value, null, 1);
        assert.equal(firstTooDeep(text, limit) >= 0, parserDepth(text) > limit, text);
      }),
      { numRuns: 300 },
    );
  });

  it('never lets broken JSON through deeper than the limit', () => {
    const piece = fc.constantFrom('[', ']', '{', '}', '"', '\\', '/', '*', '\n', '\r', ',', ':', 'a', ' ', '1', '//', '/*', '*/');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), fc.integer({ min: 0, max: 6 }), (pieces, limit) => {
        const text = pieces.join('');
        if (firstTooDeep(text, limit) < 0) assert.ok(parserDepth(text) <= limit, JSON.stringify(text));
      }),
      { numRuns: 10000 },
    );
  });

  it('refuses to parse 100,000 levels, saying where, instead of overflowing the stack', () => {
    const text = '['.repeat(100_000) + ']'.repeat(100_000);
    const result = parseStrictJson(`xx${text}`, 2);
    assert.equal(result.ok, false);
    if (result.ok) return;
    assert.equal(result.error.offset, 2 + maxJsonDepth);
    assert.equal(result.error.tooDeep, true);
    assert.equal(result.error.message, `nested deeper than ${maxJsonDepth} levels; not checked further`);
  });
});
