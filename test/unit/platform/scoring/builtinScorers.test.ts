import * as assert from 'node:assert/strict';
import { firstFencedBlock } from '../../../../src/platform/scoring/answerJson';
import { checkRegexSpec, scoreBuiltin, type BuiltinSpec } from '../../../../src/platform/scoring/builtinScorers';
import { scoringLimits as evalLimits } from '../../../../src/platform/scoring/scorerSpec';
import { RegexMatcher } from '../../../../src/platform/scoring/regexMatcher';

describe('built-in scorers', () => {
  const regex = new RegexMatcher(1_000);
  after(() => regex.dispose());
  const score = (spec: BuiltinSpec, answer: string, reference?: string): Promise<unknown> => scoreBuiltin(spec, { reference }, answer, regex);

  it('exact match ignores white space at the ends, and case unless asked', async () => {
    assert.equal(await score({ kind: 'exactMatch' }, '  Paris\n', 'paris'), 1);
    assert.equal(await score({ kind: 'exactMatch', caseSensitive: true }, 'Paris', 'paris'), 0);
    assert.equal(await score({ kind: 'exactMatch' }, 'Paris, France', 'Paris'), 0);
    // U+0130 is the one letter whose lower case is longer: texts of different lengths can still match.
    assert.equal(await score({ kind: 'exactMatch' }, '\u0130STANBUL', 'i\u0307stanbul'), 1);
    assert.equal(await score({ kind: 'exactMatch' }, 'i\u0307stanbul', '\u0130stanbul'), 1);
    assert.deepEqual(await score({ kind: 'exactMatch' }, 'Paris'), { error: 'the sample has no reference to compare with' });
  });

  it('contains looks for its text, or the reference', async () => {
    assert.equal(await score({ kind: 'contains', text: 'ANSWER' }, 'the answer is 4'), 1);
    assert.equal(await score({ kind: 'contains', text: 'ANSWER', caseSensitive: true }, 'the answer is 4'), 0);
    assert.equal(await score({ kind: 'contains' }, 'It is Paris.', 'paris'), 1);
    assert.deepEqual(await score({ kind: 'contains' }, 'x'), { error: 'the sample has no reference to compare with' });
  });

  it('regex matches with its flags', async () => {
    assert.equal(await score({ kind: 'regex', pattern: '^answer: \\d+$', flags: 'im' }, 'work\nANSWER: 42'), 1);
    assert.equal(await score({ kind: 'regex', pattern: '^answer: \\d+$' }, 'answer: x'), 0);
  });

  it('regex refuses an over-long pattern, stateful or unknown flags and a broken pattern before running', async () => {
    assert.match(((await score({ kind: 'regex', pattern: 'a'.repeat(1001) }, 'a')) as { error: string }).error, /more than the 1000/);
    assert.match(checkRegexSpec('a', 'g')!, /flags "g" are not allowed/);
    assert.match(checkRegexSpec('(')!, /not a valid regular expression/);
  });

  it('a catastrophic regex is stopped and scores as an error, and the next one still runs', async () => {
    const outcome = await score({ kind: 'regex', pattern: '^(a+)+$' }, `${'a'.repeat(40)}!`);
    assert.match((outcome as { error: string }).error, /took longer than 1 s/);
    assert.equal(await score({ kind: 'regex', pattern: 'a' }, 'a'), 1);
  });

  it('a batch queued behind a stopped one gets its own answer, not the stopped worker’s', async () => {
    const [stopped, next] = await Promise.all([regex.test([{ pattern: '^(a+)+$', flags: '', text: `${'a'.repeat(40)}!` }]), regex.test([{ pattern: 'b', flags: '', text: 'abc' }])]);
    assert.ok('error' in stopped);
    assert.deepEqual(next, [true]);
  });

  it('regex runs on at most maxScoredChars of the answer', async () => {
    const long = `${'x'.repeat(evalLimits.maxScoredChars)}NEEDLE`;
    assert.equal(await score({ kind: 'regex', pattern: 'NEEDLE' }, long), 0);
    assert.equal(await score({ kind: 'regex', pattern: 'x$' }, long), 1);
  });

  it('valid JSON accepts the answer or its first fenced block', async () => {
    assert.equal(await score({ kind: 'validJson' }, ' {"a": 1} '), 1);
    assert.equal(await score({ kind: 'validJson' }, 'Here:\n```json\n[1, 2]\n```\nDone.'), 1);
    assert.equal(await score({ kind: 'validJson' }, 'Here:\n```json\n[1, 2\n```'), 0);
    assert.equal(await score({ kind: 'validJson' }, 'no json'), 0);
    assert.equal(await score({ kind: 'validJson' }, ''), 0);
  });

  it('valid JSON refuses deep nesting and answers over the cap without parsing them', async () => {
    assert.equal(await score({ kind: 'validJson' }, `${'['.repeat(100_000)}${']'.repeat(100_000)}`), 0);
    assert.match(((await score({ kind: 'validJson' }, ' '.repeat(evalLimits.maxScoredChars + 1))) as { error: string }).error, /longer than the 200,000/);
  });

  it('finds a fenced block in linear time on text full of fences', () => {
    assert.equal(firstFencedBlock('```'.repeat(100_000)), undefined);
    assert.equal(firstFencedBlock('a```js\nbody'), 'body');
  });

  it('JSON schema scores 1 when the answer satisfies it, 0 when not, and an error for an unsupported schema', async () => {
    const schema = { type: 'object', required: ['city'], properties: { city: { type: 'string', pattern: '^[A-Z]' } } };
    assert.equal(await score({ kind: 'jsonSchema', schema }, '```json\n{"city": "Paris"}\n```'), 1);
    assert.equal(await score({ kind: 'jsonSchema', schema }, '{"city": "paris"}'), 0);
    assert.equal(await score({ kind: 'jsonSchema', schema }, 'not json'), 0);
    assert.match(((await score({ kind: 'jsonSchema', schema: { minItems: 1 } }, '[]')) as { error: string }).error, /the schema cannot be used/);
  });

  it('JSON schema stops a catastrophic pattern on a string of the answer', async () => {
    const outcome = await score({ kind: 'jsonSchema', schema: { pattern: '^(a|a)+$' } }, JSON.stringify(`${'a'.repeat(40)}!`));
    assert.match((outcome as { error: string }).error, /took longer/);
  });

  it('length counts characters or words within inclusive bounds', async () => {
    assert.equal(await score({ kind: 'length', unit: 'chars', min: 3, max: 5 }, 'abcde'), 1);
    assert.equal(await score({ kind: 'length', unit: 'chars', max: 4 }, 'abcde'), 0);
    assert.equal(await score({ kind: 'length', unit: 'words', min: 3 }, '  one two\n three '), 1);
    assert.equal(await score({ kind: 'length', unit: 'words', min: 4 }, 'one two three'), 0);
    assert.equal(await score({ kind: 'length', unit: 'words' }, ''), 1);
  });
});
