import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { extentOf, nodeAtPath, parseStrictJson } from '../../../src/core/strictJson';

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
    const { offset, length } = extentOf(nodeAtPath(result.root, ['a', 1, 'b'])!);
    assert.equal(text.slice(offset, offset + length), 'true');
    assert.equal(nodeAtPath(result.root, ['a', 5]), undefined);
    assert.equal(nodeAtPath(result.root, ['missing', 'x']), undefined);
  });
});
