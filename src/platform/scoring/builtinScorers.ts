/**
 * The built-in scorers: each gives 1 or 0 for an answer (or why it cannot score it, e.g. a sample
 * with no reference to compare with). Regular expressions, the regex scorer's and a schema's
 * `pattern`, run through a RegexMatcher so a runaway one is stopped rather than freezing the host.
 */
import { answerJson } from './answerJson';
import { scoringLimits, type ScoredSample, type ScorerSpec } from './scorerSpec';
import { checkSchema, patternTests, SchemaBudgetError, validate } from './jsonSchemaSubset';
import type { RegexMatcher } from './regexMatcher';
import { errorMessage } from '../client/errorMessage';

export type Score = number | { error: string };

export type BuiltinSpec = Exclude<ScorerSpec, { kind: 'judge' } | { kind: 'command' }>;

/** The longest pattern the regex scorer takes: longer ones are refused before they are compiled. */
export const maxRegexPatternChars = 1_000;

const noReference = { error: 'the sample has no reference to compare with' };

export async function scoreBuiltin(spec: BuiltinSpec, sample: Pick<ScoredSample, 'reference'>, answer: string, regex: RegexMatcher): Promise<Score> {
  switch (spec.kind) {
    case 'regex':
      return scoreRegex(spec, answer, regex);
    case 'jsonSchema':
      return scoreSchema(spec.schema, answer, regex);
    default:
      return scoreAtOnce(spec, sample, answer);
  }
}

/** The built-in scorers that run no regular expression. */
export type ImmediateSpec = Exclude<BuiltinSpec, { kind: 'regex' } | { kind: 'jsonSchema' }>;

/** A score of a scorer that runs no regular expression, given at once: re-scoring a large file awaits nothing per answer. */
export function scoreAtOnce(spec: ImmediateSpec, sample: Pick<ScoredSample, 'reference'>, answer: string): Score {
  switch (spec.kind) {
    case 'exactMatch': {
      if (sample.reference === undefined) return noReference;
      return same(answer.trim(), sample.reference.trim(), spec.caseSensitive === true) ? 1 : 0;
    }
    case 'contains': {
      const text = spec.text ?? sample.reference;
      if (text === undefined) return noReference;
      return spec.caseSensitive === true ? (answer.includes(text) ? 1 : 0) : answer.toLowerCase().includes(text.toLowerCase()) ? 1 : 0;
    }
    case 'validJson': {
      const json = answerJson(answer);
      return 'error' in json ? json : json.ok ? 1 : 0;
    }
    case 'length': {
      const length = spec.unit === 'words' ? wordCount(answer) : answer.length;
      return (spec.min === undefined || length >= spec.min) && (spec.max === undefined || length <= spec.max) ? 1 : 0;
    }
  }
}

function same(a: string, b: string, caseSensitive: boolean): boolean {
  if (caseSensitive || a === b) return a === b;
  // Lower case changes a text's length only at U+0130 (İ, which becomes two code units): texts of
  // different lengths without it differ, and are not copied in lower case to be told apart (re-scoring
  // a large file compares as many answers as it holds).
  if (a.length !== b.length && !a.includes('\u0130') && !b.includes('\u0130')) return false;
  return a.toLowerCase() === b.toLowerCase();
}

/** Why a regex scorer's pattern or flags cannot be used, or undefined: checked once per run, before any answer. */
export function checkRegexSpec(pattern: string, flags = ''): string | undefined {
  if (pattern.length > maxRegexPatternChars) return `the pattern is ${pattern.length} characters long, more than the ${maxRegexPatternChars} a scorer may use`;
  if (!/^[imsuv]*$/.test(flags)) return `the flags "${flags}" are not allowed (use i, m, s, u or v)`;
  try {
    new RegExp(pattern, flags);
  } catch (error) {
    return `the pattern is not a valid regular expression (${errorMessage(error)})`;
  }
  return undefined;
}

async function scoreRegex(spec: { pattern: string; flags?: string }, answer: string, regex: RegexMatcher): Promise<Score> {
  const problem = checkRegexSpec(spec.pattern, spec.flags);
  if (problem) return { error: problem };
  const outcome = await regex.test([{ pattern: spec.pattern, flags: spec.flags ?? '', text: answer.slice(0, scoringLimits.maxScoredChars) }]);
  return Array.isArray(outcome) ? (outcome[0] ? 1 : 0) : outcome;
}

async function scoreSchema(schema: unknown, answer: string, regex: RegexMatcher): Promise<Score> {
  const problem = checkSchema(schema);
  if (problem) return { error: `the schema cannot be used: ${problem}` };
  const json = answerJson(answer);
  if ('error' in json) return json;
  if (!json.ok) return 0;
  try {
    const tests = patternTests(schema, json.value);
    const outcome = await regex.test(tests.map((test) => ({ pattern: test.pattern, flags: 'u', text: test.text })));
    if (!Array.isArray(outcome)) return outcome;
    const matched = new Map(tests.map((test, at) => [JSON.stringify([test.pattern, test.text]), outcome[at] === true]));
    return validate(schema, json.value, (pattern, text) => matched.get(JSON.stringify([pattern, text])) === true).length === 0 ? 1 : 0;
  } catch (error) {
    if (error instanceof SchemaBudgetError) return { error: error.message };
    throw error;
  }
}

/** Runs of non-space characters. */
function wordCount(text: string): number {
  let count = 0;
  let inWord = false;
  for (let at = 0; at < text.length; at++) {
    const space = /\s/.test(text[at]!);
    if (!space && !inWord) count++;
    inWord = !space;
  }
  return count;
}
