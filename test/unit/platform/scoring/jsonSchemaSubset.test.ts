import * as assert from 'node:assert/strict';
import { checkSchema, maxSteps, patternTests, SchemaBudgetError, validate } from '../../../../src/platform/scoring/jsonSchemaSubset';

/** Validates with real regular expressions (the tests' patterns are harmless). */
function problems(schema: unknown, value: unknown): string[] {
  assert.equal(checkSchema(schema), undefined);
  return validate(schema, value, (pattern, text) => new RegExp(pattern, 'u').test(text));
}

const person = {
  type: 'object',
  properties: { name: { type: 'string', minLength: 1, maxLength: 5, pattern: '^[A-Z]' }, age: { type: 'integer', minimum: 0, maximum: 150 }, tags: { type: 'array', items: { enum: ['a', 'b'] } } },
  required: ['name'],
  additionalProperties: false,
};

describe('JSON schema subset', () => {
  it('accepts a value that satisfies every keyword', () => {
    assert.deepEqual(problems(person, { name: 'Ann', age: 30, tags: ['a', 'b'] }), []);
  });

  it('names each violation with its path', () => {
    assert.deepEqual(problems(person, { age: 200, extra: 1 }), [
      'the answer lacks the required property "name"',
      '/age should be at most 150',
      'the answer has the property "extra", which is not allowed',
    ]);
    assert.deepEqual(problems(person, { name: 'ann', tags: ['c'] }), ['/name does not match the pattern ^[A-Z]', '/tags/0 is none of the allowed values']);
    assert.deepEqual(problems(person, { name: 'Annabel' }), ['/name should be at most 5 characters long']);
    assert.deepEqual(problems({ type: 'integer' }, 1.5), ['the answer should be integer']);
    assert.deepEqual(problems({ type: ['string', 'null'] }, null), []);
  });

  it('counts characters, not UTF-16 units, for lengths', () => {
    assert.deepEqual(problems({ maxLength: 2 }, '😀😀'), []);
    assert.equal(problems({ maxLength: 1 }, '😀😀').length, 1);
  });

  it('applies const, anyOf, allOf and oneOf', () => {
    assert.deepEqual(problems({ const: { a: [1] } }, { a: [1] }), []);
    assert.equal(problems({ const: { a: [1] } }, { a: [2] }).length, 1);
    assert.deepEqual(problems({ anyOf: [{ type: 'string' }, { type: 'number' }] }, 3), []);
    assert.deepEqual(problems({ anyOf: [{ type: 'string' }, { type: 'number' }] }, true), ['the answer matches none of the schemas of "anyOf"']);
    assert.deepEqual(problems({ allOf: [{ minimum: 1 }, { maximum: 2 }] }, 3), ['the answer should be at most 2']);
    assert.deepEqual(problems({ oneOf: [{ minimum: 1 }, { maximum: 5 }] }, 3), ['the answer matches 2 of the schemas of "oneOf", not exactly one']);
    assert.deepEqual(problems({ oneOf: [{ minimum: 1 }, { maximum: 5 }] }, 7), []);
    assert.deepEqual(problems(false, 1), ['the answer is not allowed here']);
    assert.deepEqual(problems(true, 1), []);
  });

  it('refuses keywords outside the subset rather than ignoring them, and malformed ones', () => {
    assert.match(checkSchema({ type: 'array', minItems: 2 })!, /"minItems", which the JSON Schema scorer does not support/);
    assert.match(checkSchema({ properties: { a: { $ref: '#' } } })!, /#\/properties\/a uses "\$ref"/);
    assert.match(checkSchema({ type: 'text' })!, /must name JSON types/);
    assert.match(checkSchema({ pattern: '(' })!, /not a valid regular expression/);
    assert.match(checkSchema({ pattern: 'a'.repeat(1001) })!, /longer than/);
    assert.match(checkSchema(5)!, /not a schema/);
    assert.equal(checkSchema({ title: 'x', description: 'y', $schema: 'z', format: 'email' }), undefined);
  });

  it('refuses a schema nested deeper than its limit', () => {
    let schema: unknown = { type: 'string' };
    for (let at = 0; at < 100; at++) schema = { items: schema };
    assert.match(checkSchema(schema)!, /deeper than 64/);
  });

  it('lists every pattern test the validation needs, whatever their outcomes, without duplicates', () => {
    const schema = { anyOf: [{ pattern: '^a' }, { pattern: 'b$' }], properties: {} };
    const tests = patternTests({ type: 'array', items: schema }, ['ab', 'ab', 'c']);
    assert.deepEqual(tests, [
      { pattern: '^a', text: 'ab' },
      { pattern: 'b$', text: 'ab' },
      { pattern: '^a', text: 'c' },
      { pattern: 'b$', text: 'c' },
    ]);
  });

  it('stops a validation that would take too many steps', () => {
    const big = Array.from({ length: maxSteps + 10 }, () => 0);
    assert.throws(() => validate({ items: { type: 'number' } }, big, () => true), SchemaBudgetError);
  });

  it('treats __proto__ as an ordinary property name', () => {
    const value = JSON.parse('{"__proto__": 5}') as unknown;
    assert.deepEqual(problems(JSON.parse('{"required":["__proto__"],"properties":{"__proto__":{"type":"string"}}}'), value), ['/__proto__ should be string']);
    assert.deepEqual(problems({ additionalProperties: false }, value), ['the answer has the property "__proto__", which is not allowed']);
  });
});
