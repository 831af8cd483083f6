/**
 * A small schema checker that reports problems the way FastAPI/pydantic does (type, loc, msg,
 * input), so clients meet the same 422 bodies as from the real service.
 */
import { ValidationError, type ValidationIssue } from './httpError';

export type Loc = (string | number)[];
export type Schema = (value: unknown, loc: Loc, issues: ValidationIssue[]) => void;

interface Field {
  schema: Schema;
  required: boolean;
}

function typeCheck(type: string, msg: string, accept: (value: unknown) => boolean): Schema {
  return (value, loc, issues) => {
    if (!accept(value)) issues.push({ type, loc, msg, input: value });
  };
}

export const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export const str = typeCheck('string_type', 'Input should be a valid string', (value) => typeof value === 'string');
export const bool = typeCheck('bool_type', 'Input should be a valid boolean', (value) => typeof value === 'boolean');
export const num = typeCheck('float_type', 'Input should be a valid number', (value) => typeof value === 'number' && Number.isFinite(value));
export const dict = typeCheck('dict_type', 'Input should be a valid dictionary', isPlainObject);
export const anyList = typeCheck('list_type', 'Input should be a valid list', Array.isArray);

export const int: Schema = (value, loc, issues) => {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    issues.push({ type: 'int_type', loc, msg: 'Input should be a valid integer', input: value });
  } else if (!Number.isInteger(value)) {
    issues.push({ type: 'int_from_float', loc, msg: 'Input should be a valid integer, got a number with a fractional part', input: value });
  }
};

export function literal(...values: string[]): Schema {
  const wanted = values.map((value) => `'${value}'`);
  const msg = `Input should be ${wanted.length > 1 ? `${wanted.slice(0, -1).join(', ')} or ${wanted.at(-1)}` : wanted[0]}`;
  return (value, loc, issues) => {
    if (typeof value !== 'string' || !values.includes(value)) issues.push({ type: 'literal_error', loc, msg, input: value, ctx: { expected: wanted.join(' or ') } });
  };
}

export function list(item: Schema): Schema {
  return (value, loc, issues) => {
    if (!Array.isArray(value)) {
      issues.push({ type: 'list_type', loc, msg: 'Input should be a valid list', input: value });
      return;
    }
    value.forEach((entry, index) => item(entry, [...loc, index], issues));
  };
}

export function recordOf(valueSchema: Schema): Schema {
  return (value, loc, issues) => {
    if (!isPlainObject(value)) {
      issues.push({ type: 'dict_type', loc, msg: 'Input should be a valid dictionary', input: value });
      return;
    }
    for (const [key, entry] of Object.entries(value)) valueSchema(entry, [...loc, key], issues);
  };
}

export const nullable =
  (schema: Schema): Schema =>
  (value, loc, issues) => {
    if (value !== null) schema(value, loc, issues);
  };

/** Accepts a value any alternative accepts; otherwise reports every alternative's complaints, as pydantic does for unions. */
export function union(...schemas: Schema[]): Schema {
  return (value, loc, issues) => {
    const complaints: ValidationIssue[] = [];
    for (const schema of schemas) {
      const own: ValidationIssue[] = [];
      schema(value, loc, own);
      if (own.length === 0) return;
      complaints.push(...own);
    }
    issues.push(...complaints);
  };
}

export const required = (schema: Schema): Field => ({ schema, required: true });
export const optional = (schema: Schema): Field => ({ schema, required: false });

/** An object with known fields; unknown fields are allowed (extra fields pass through). */
export function object(fields: Record<string, Field>, extraCheck?: Schema): Schema {
  return (value, loc, issues) => {
    if (!isPlainObject(value)) {
      issues.push({ type: 'model_attributes_type', loc, msg: 'Input should be a valid dictionary or object to extract fields from', input: value });
      return;
    }
    for (const [name, field] of Object.entries(fields)) {
      if (!(name in value) || value[name] === undefined) {
        if (field.required) issues.push({ type: 'missing', loc: [...loc, name], msg: 'Field required', input: value });
        continue;
      }
      field.schema(value[name], [...loc, name], issues);
    }
    extraCheck?.(value, loc, issues);
  };
}

/** Checks a parsed request body (undefined when none was sent) and throws a 422 on problems. */
export function validateBody<T>(body: unknown, schema: Schema): T {
  if (body === undefined) throw new ValidationError([{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }]);
  const issues: ValidationIssue[] = [];
  schema(body, ['body'], issues);
  if (issues.length > 0) throw new ValidationError(issues);
  return body as T;
}
