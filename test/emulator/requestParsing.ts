/** Body and query parsing with FastAPI-shaped complaints. */
import type { RequestContext } from './context';
import { ValidationError } from './httpError';

/** The parsed JSON body, or undefined when the request has none. */
export function jsonBody(ctx: RequestContext): unknown {
  if (ctx.rawBody.trim() === '') return undefined;
  try {
    return JSON.parse(ctx.rawBody);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const position = Number(/position (\d+)/.exec(message)?.[1] ?? 0);
    throw new ValidationError([{ type: 'json_invalid', loc: ['body', position], msg: 'JSON decode error', input: {}, ctx: { error: message } }]);
  }
}

/** Query `limit`: an integer in 1..100, default 20. */
export function limitQuery(ctx: RequestContext, fallback = 20): number {
  const raw = ctx.query.get('limit');
  if (raw === null) return fallback;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(value)) {
    throw new ValidationError([{ type: 'int_parsing', loc: ['query', 'limit'], msg: 'Input should be a valid integer, unable to parse string as an integer', input: raw }]);
  }
  if (value < 1) throw new ValidationError([{ type: 'greater_than_equal', loc: ['query', 'limit'], msg: 'Input should be greater than or equal to 1', input: raw, ctx: { ge: 1 } }]);
  if (value > 100) throw new ValidationError([{ type: 'less_than_equal', loc: ['query', 'limit'], msg: 'Input should be less than or equal to 100', input: raw, ctx: { le: 100 } }]);
  return value;
}

export function orderQuery(ctx: RequestContext): 'asc' | 'desc' {
  const raw = ctx.query.get('order');
  if (raw === null || raw === 'asc' || raw === 'desc') return raw ?? 'asc';
  throw new ValidationError([{ type: 'literal_error', loc: ['query', 'order'], msg: "Input should be 'asc' or 'desc'", input: raw, ctx: { expected: "'asc' or 'desc'" } }]);
}

export function afterQuery(ctx: RequestContext): string | undefined {
  const raw = ctx.query.get('after');
  return raw === null || raw === '' ? undefined : raw;
}
