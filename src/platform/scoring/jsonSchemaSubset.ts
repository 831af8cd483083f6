/**
 * A small JSON Schema validator for the subset the JSON Schema scorer documents: `type`,
 * `properties`, `required`, `additionalProperties`, `items`, `enum`, `const`, `minimum`, `maximum`,
 * `minLength`, `maxLength`, `pattern`, `anyOf`, `allOf`, `oneOf`, and boolean schemas. Annotations
 * (`$schema`, `$id`, `$comment`, `title`, `description`, `default`, `examples`, `format`) are
 * ignored. Any other keyword is refused by `checkSchema`: a schema whose `minItems` were silently
 * not enforced would pass answers it means to fail.
 *
 * The validator never stops early (every branch of `anyOf`/`oneOf`/`allOf` is walked, every
 * property visited), so the strings tested against each `pattern` depend only on the schema and the
 * value, not on any outcome: `patternTests` lists them, the caller runs them where a runaway
 * regular expression can be stopped (regexMatcher.ts), and `validate` reads the outcomes. Work is
 * bounded by `maxSteps` and the schema's depth by `maxSchemaDepth`.
 */
import { isRecord, own } from '../kit/plainValues';
import { errorMessage } from '../client/errorMessage';

export const maxSchemaDepth = 64;
export const maxSteps = 1_000_000;
export const maxPatternChars = 1_000;
/** Problems listed for one answer. */
const maxProblems = 5;

const assertions = new Set(['type', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'const', 'minimum', 'maximum', 'minLength', 'maxLength', 'pattern', 'anyOf', 'allOf', 'oneOf']);
const annotations = new Set(['$schema', '$id', '$comment', 'title', 'description', 'default', 'examples', 'format']);
const typeNames = new Set(['null', 'boolean', 'object', 'array', 'number', 'integer', 'string']);

/** Why the schema cannot be used, or undefined when it can. */
export function checkSchema(schema: unknown, path = '#', depth = 0): string | undefined {
  if (typeof schema === 'boolean') return undefined;
  if (!isRecord(schema)) return `${path} is not a schema (an object or true/false)`;
  if (depth > maxSchemaDepth) return `the schema nests deeper than ${maxSchemaDepth} levels`;
  for (const key of Object.keys(schema)) {
    if (annotations.has(key)) continue;
    if (!assertions.has(key)) return `${path} uses "${key}", which the JSON Schema scorer does not support (it supports ${[...assertions].join(', ')})`;
    const problem = checkKeyword(key, own(schema, key), `${path}/${key}`, depth);
    if (problem) return problem;
  }
  return undefined;
}

function checkKeyword(key: string, value: unknown, path: string, depth: number): string | undefined {
  switch (key) {
    case 'type': {
      const names = Array.isArray(value) ? value : [value];
      return names.length > 0 && names.every((name) => typeof name === 'string' && typeNames.has(name)) ? undefined : `${path} must name JSON types (${[...typeNames].join(', ')})`;
    }
    case 'properties':
      if (!isRecord(value)) return `${path} must be an object of schemas`;
      for (const name of Object.keys(value)) {
        const problem = checkSchema(own(value, name), `${path}/${name}`, depth + 1);
        if (problem) return problem;
      }
      return undefined;
    case 'required':
      return Array.isArray(value) && value.every((name) => typeof name === 'string') ? undefined : `${path} must be a list of property names`;
    case 'additionalProperties':
    case 'items':
      return checkSchema(value, path, depth + 1);
    case 'enum':
      return Array.isArray(value) ? undefined : `${path} must be a list`;
    case 'const':
      return undefined;
    case 'minimum':
    case 'maximum':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : `${path} must be a number`;
    case 'minLength':
    case 'maxLength':
      return Number.isInteger(value) && (value as number) >= 0 ? undefined : `${path} must be a whole number, 0 or more`;
    case 'pattern':
      return checkPattern(value, path);
    default: {
      // anyOf, allOf, oneOf
      if (!Array.isArray(value) || value.length === 0) return `${path} must be a non-empty list of schemas`;
      for (let at = 0; at < value.length; at++) {
        const problem = checkSchema(value[at], `${path}/${at}`, depth + 1);
        if (problem) return problem;
      }
      return undefined;
    }
  }
}

function checkPattern(value: unknown, path: string): string | undefined {
  if (typeof value !== 'string') return `${path} must be a regular expression as text`;
  if (value.length > maxPatternChars) return `${path} is longer than the ${maxPatternChars} characters a pattern may have`;
  try {
    new RegExp(value, 'u');
  } catch (error) {
    return `${path} is not a valid regular expression (${errorMessage(error)})`;
  }
  return undefined;
}

/** A string tested against a pattern. */
export interface PatternTest {
  pattern: string;
  text: string;
}

/** Every pattern test validating `value` needs, without duplicates. Throws SchemaBudgetError past `maxSteps`. */
export function patternTests(schema: unknown, value: unknown): PatternTest[] {
  const tests = new Map<string, PatternTest>();
  const walker = new Walker((pattern, text) => {
    tests.set(JSON.stringify([pattern, text]), { pattern, text });
    return false;
  });
  walker.valid(schema, value, '');
  return [...tests.values()];
}

/** The problems of `value` against a checked schema (empty when it is valid), at most a few. `matches` answers the pattern tests `patternTests` listed. */
export function validate(schema: unknown, value: unknown, matches: (pattern: string, text: string) => boolean): string[] {
  const walker = new Walker(matches);
  walker.valid(schema, value, '');
  return walker.problems;
}

export class SchemaBudgetError extends Error {
  constructor() {
    super(`checking the answer against the schema took more than ${maxSteps.toLocaleString('en-US')} steps`);
  }
}

class Walker {
  readonly problems: string[] = [];
  private steps = 0;
  /** Above 0 inside anyOf/oneOf branches, whose own problems are not the answer's. */
  private quiet = 0;

  constructor(private readonly matches: (pattern: string, text: string) => boolean) {}

  private fail(path: string, message: string): false {
    if (this.quiet === 0 && this.problems.length < maxProblems) this.problems.push(`${path || 'the answer'} ${message}`);
    return false;
  }

  valid(schema: unknown, value: unknown, path: string): boolean {
    if (++this.steps > maxSteps) throw new SchemaBudgetError();
    if (schema === true) return true;
    if (schema === false) return this.fail(path, 'is not allowed here');
    if (!isRecord(schema)) return true;
    let ok = true;
    const type = own(schema, 'type');
    if (type !== undefined) {
      const names = (Array.isArray(type) ? type : [type]) as string[];
      if (!names.some((name) => hasType(value, name))) ok = this.fail(path, `should be ${names.join(' or ')}`);
    }
    const enumValues = own(schema, 'enum');
    if (Array.isArray(enumValues) && !enumValues.some((candidate) => this.equal(candidate, value))) ok = this.fail(path, 'is none of the allowed values');
    const constValue = own(schema, 'const');
    if (constValue !== undefined && !this.equal(constValue, value)) ok = this.fail(path, 'is not the required value');
    if (typeof value === 'number') ok = this.number(schema, value, path) && ok;
    if (typeof value === 'string') ok = this.string(schema, value, path) && ok;
    if (Array.isArray(value)) ok = this.array(schema, value, path) && ok;
    else if (isRecord(value)) ok = this.object(schema, value, path) && ok;
    return this.combinations(schema, value, path) && ok;
  }

  private number(schema: Record<string, unknown>, value: number, path: string): boolean {
    let ok = true;
    const minimum = own(schema, 'minimum');
    if (typeof minimum === 'number' && value < minimum) ok = this.fail(path, `should be at least ${minimum}`);
    const maximum = own(schema, 'maximum');
    if (typeof maximum === 'number' && value > maximum) ok = this.fail(path, `should be at most ${maximum}`);
    return ok;
  }

  private string(schema: Record<string, unknown>, value: string, path: string): boolean {
    let ok = true;
    const length = codePoints(value);
    const minLength = own(schema, 'minLength');
    if (typeof minLength === 'number' && length < minLength) ok = this.fail(path, `should be at least ${minLength} characters long`);
    const maxLength = own(schema, 'maxLength');
    if (typeof maxLength === 'number' && length > maxLength) ok = this.fail(path, `should be at most ${maxLength} characters long`);
    const pattern = own(schema, 'pattern');
    if (typeof pattern === 'string' && !this.matches(pattern, value)) ok = this.fail(path, `does not match the pattern ${pattern}`);
    return ok;
  }

  private array(schema: Record<string, unknown>, value: unknown[], path: string): boolean {
    const items = own(schema, 'items');
    if (items === undefined) return true;
    let ok = true;
    for (let at = 0; at < value.length; at++) ok = this.valid(items, value[at], `${path}/${at}`) && ok;
    return ok;
  }

  private object(schema: Record<string, unknown>, value: Record<string, unknown>, path: string): boolean {
    let ok = true;
    const required = own(schema, 'required');
    if (Array.isArray(required)) {
      for (const name of required as string[]) if (!Object.prototype.hasOwnProperty.call(value, name)) ok = this.fail(path, `lacks the required property "${name}"`);
    }
    const properties = own(schema, 'properties');
    const additional = own(schema, 'additionalProperties');
    for (const name of Object.keys(value)) {
      if (++this.steps > maxSteps) throw new SchemaBudgetError();
      const declared = isRecord(properties) && Object.prototype.hasOwnProperty.call(properties, name);
      const property = declared ? own(properties, name) : additional;
      if (!declared && additional === false) ok = this.fail(path, `has the property "${name}", which is not allowed`);
      else if (property !== undefined) ok = this.valid(property, own(value, name), `${path}/${name}`) && ok;
    }
    return ok;
  }

  private combinations(schema: Record<string, unknown>, value: unknown, path: string): boolean {
    let ok = true;
    const allOf = own(schema, 'allOf');
    if (Array.isArray(allOf)) for (const branch of allOf) ok = this.valid(branch, value, path) && ok;
    const anyOf = own(schema, 'anyOf');
    if (Array.isArray(anyOf) && this.passing(anyOf, value, path) === 0) ok = this.fail(path, 'matches none of the schemas of "anyOf"');
    const oneOf = own(schema, 'oneOf');
    if (Array.isArray(oneOf)) {
      const passing = this.passing(oneOf, value, path);
      if (passing !== 1) ok = this.fail(path, passing === 0 ? 'matches none of the schemas of "oneOf"' : `matches ${passing} of the schemas of "oneOf", not exactly one`);
    }
    return ok;
  }

  /** How many branches the value passes; every branch is walked. */
  private passing(branches: unknown[], value: unknown, path: string): number {
    this.quiet++;
    let count = 0;
    try {
      for (const branch of branches) if (this.valid(branch, value, path)) count++;
    } finally {
      this.quiet--;
    }
    return count;
  }

  /** JSON equality, counted in steps like the walk. */
  private equal(a: unknown, b: unknown): boolean {
    if (++this.steps > maxSteps) throw new SchemaBudgetError();
    if (a === b) return true;
    if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, at) => this.equal(item, b[at]));
    if (isRecord(a) && isRecord(b)) {
      const keys = Object.keys(a);
      if (keys.length !== Object.keys(b).length) return false;
      return keys.every((key) => Object.prototype.hasOwnProperty.call(b, key) && this.equal(own(a, key), own(b, key)));
    }
    return false;
  }
}

function hasType(value: unknown, name: string): boolean {
  switch (name) {
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isRecord(value);
    case 'integer':
      return Number.isInteger(value);
    default:
      return typeof value === name;
  }
}

function codePoints(text: string): number {
  let count = 0;
  for (let at = 0; at < text.length; at++) {
    count++;
    const code = text.charCodeAt(at);
    // A surrogate pair is one character.
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(at + 1);
      if (next >= 0xdc00 && next <= 0xdfff) at++;
    }
  }
  return count;
}
