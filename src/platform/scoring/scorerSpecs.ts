/**
 * Reads the scorers of a run from a parsed value (a results file, a setting): each a name and a
 * spec of a known kind with fields of the right types. A problem names the scorer at fault.
 */
import { isRecord, own } from '../kit/plainValues';
import { scoringLimits, type NamedScorer, type ScorerSpec } from './scorerSpec';

export const maxScorerNameChars = 100;

export function readScorers(value: unknown): { scorers: NamedScorer[] } | { error: string } {
  if (!Array.isArray(value)) return { error: '"scorers" must be a list' };
  if (value.length > scoringLimits.scorers) return { error: `"scorers" lists ${value.length} scorers, more than the ${scoringLimits.scorers} a run may have` };
  const scorers: NamedScorer[] = [];
  const names = new Set<string>();
  for (let at = 0; at < value.length; at++) {
    const entry: unknown = value[at];
    const name = isRecord(entry) ? own(entry, 'name') : undefined;
    if (typeof name !== 'string' || name.length === 0 || name.length > maxScorerNameChars) return { error: `scorer ${at + 1} needs a name of 1 to ${maxScorerNameChars} characters` };
    if (names.has(name)) return { error: `two scorers are named "${name}"` };
    names.add(name);
    const spec = readScorerSpec(own(entry as Record<string, unknown>, 'spec'));
    if ('error' in spec) return { error: `scorer "${name}": ${spec.error}` };
    scorers.push({ name, spec: spec.spec });
  }
  return { scorers };
}

/** The object without its undefined fields, so a spec read back equals the spec written. */
function withoutUndefined<T extends object>(value: T): T {
  for (const key of Object.keys(value) as (keyof T)[]) if (value[key] === undefined) delete value[key];
  return value;
}

const optional = (value: unknown, type: 'string' | 'boolean' | 'number'): boolean => value === undefined || typeof value === type;

export function readScorerSpec(value: unknown): { spec: ScorerSpec } | { error: string } {
  if (!isRecord(value)) return { error: 'its spec must be an object with a "kind"' };
  const field = (key: string): unknown => own(value, key);
  switch (field('kind')) {
    case 'exactMatch':
      return optional(field('caseSensitive'), 'boolean')
        ? { spec: withoutUndefined({ kind: 'exactMatch', caseSensitive: field('caseSensitive') as boolean | undefined }) }
        : { error: '"caseSensitive" must be true or false' };
    case 'contains':
      if (!optional(field('text'), 'string') || !optional(field('caseSensitive'), 'boolean')) return { error: '"text" must be text and "caseSensitive" true or false' };
      return { spec: withoutUndefined({ kind: 'contains', text: field('text') as string | undefined, caseSensitive: field('caseSensitive') as boolean | undefined }) };
    case 'regex':
      if (typeof field('pattern') !== 'string' || !optional(field('flags'), 'string')) return { error: '"pattern" and "flags" must be text' };
      return { spec: withoutUndefined({ kind: 'regex', pattern: field('pattern') as string, flags: field('flags') as string | undefined }) };
    case 'validJson':
      return { spec: { kind: 'validJson' } };
    case 'jsonSchema':
      return field('schema') === undefined ? { error: '"schema" is missing' } : { spec: { kind: 'jsonSchema', schema: field('schema') } };
    case 'length': {
      const unit = field('unit');
      if (unit !== 'chars' && unit !== 'words') return { error: '"unit" must be "chars" or "words"' };
      if (!optional(field('min'), 'number') || !optional(field('max'), 'number')) return { error: '"min" and "max" must be numbers' };
      return { spec: withoutUndefined({ kind: 'length', unit, min: field('min') as number | undefined, max: field('max') as number | undefined }) };
    }
    case 'judge':
      if (typeof field('model') !== 'string' || typeof field('rubric') !== 'string') return { error: 'a judge needs a "model" and a "rubric" as text' };
      return { spec: { kind: 'judge', model: field('model') as string, rubric: field('rubric') as string } };
    case 'command': {
      const args = field('args');
      if (typeof field('command') !== 'string' || !optional(field('timeoutMs'), 'number')) return { error: 'a command scorer needs a "command" as text (and "timeoutMs" a number)' };
      if (args !== undefined && !(Array.isArray(args) && args.every((arg) => typeof arg === 'string'))) return { error: '"args" must be a list of text' };
      const { commandArgs, commandChars } = scoringLimits;
      if ((field('command') as string).length > commandChars) return { error: `its "command" is longer than the ${commandChars} characters a program's name may have` };
      if (args !== undefined && args.length > commandArgs) return { error: `it gives ${args.length} arguments, more than the ${commandArgs} a command scorer may have` };
      if (args?.some((arg) => (arg as string).length > commandChars)) return { error: `an argument is longer than the ${commandChars} characters an argument may have` };
      return { spec: withoutUndefined({ kind: 'command', command: field('command') as string, args: args as string[] | undefined, timeoutMs: field('timeoutMs') as number | undefined }) };
    }
    default:
      return { error: 'its "kind" must be exactMatch, contains, regex, validJson, jsonSchema, length, judge or command' };
  }
}
