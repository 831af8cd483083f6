/**
 * Reading the input a language model gives a tool. The model writes it, so it is treated like any
 * other untrusted input: every field is checked for type, size and shape before anything is read or
 * sent, and a refusal says which field is wrong and what it must be, so the model can correct
 * itself on the next call. No `vscode` import: tested in Node.
 */
import { hasDotSegment } from '../kit/dotSegments';

/** A refusal of a tool's input: the message goes back to the model (and to the person). */
export class ToolInputError extends Error {
  override readonly name = 'ToolInputError';
}

/** A refusal that is not about the input's shape: the file has problems, the step is the latest one. */
export class ToolRefusal extends Error {
  override readonly name = 'ToolRefusal';
}

export const maxIdChars = 512;
export const maxPathChars = 1024;
export const maxTextChars = 20_000;
export const maxDataUrlChars = 8_192;
/** Steps a single call may name (evaluate or delete). */
export const maxStepsPerCall = 100;

type Input = Record<string, unknown>;

/** The input as an object; anything else is refused. */
export function inputObject(input: unknown): Input {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) throw new ToolInputError('The input must be a JSON object.');
  return input as Input;
}

export function requiredText(input: Input, field: string, maxChars = maxTextChars): string {
  const value = optionalText(input, field, maxChars);
  if (value === undefined) throw new ToolInputError(`"${field}" is required.`);
  return value;
}

export function optionalText(input: Input, field: string, maxChars = maxTextChars): string | undefined {
  const value = input[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new ToolInputError(`"${field}" must be a string.`);
  const text = value.trim();
  if (text === '') return undefined;
  if (text.length > maxChars) throw new ToolInputError(`"${field}" is longer than ${maxChars} characters.`);
  return text;
}

/**
 * An id that becomes one segment of a request path (a model or job id): no dot segments however
 * spelled, no separators, no spaces or control characters.
 */
export function requiredId(input: Input, field: string): string {
  const id = requiredText(input, field, maxIdChars);
  const problem = idShapeProblem(id);
  if (problem) throw new ToolInputError(`"${field}" is not an id: ${problem}.`);
  return id;
}

export function optionalId(input: Input, field: string): string | undefined {
  return input[field] === undefined || input[field] === null || input[field] === '' ? undefined : requiredId(input, field);
}

function idShapeProblem(id: string): string | undefined {
  if (/\s/.test(id)) return 'it holds spaces';
  if (hasDotSegment(id)) return 'it is or holds a "." or ".." segment';
  if (/[/\\?#%]/.test(id)) return 'it holds /, \\, ?, # or %';
  if (/[\u0000-\u001f\u007f-\u009f]/.test(id)) return 'it holds control characters';
  return undefined;
}

export function optionalNumber(input: Input, field: string, range: { min: number; max: number; integer?: boolean }): number | undefined {
  const value = input[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new ToolInputError(`"${field}" must be a number.`);
  if (range.integer && !Number.isInteger(value)) throw new ToolInputError(`"${field}" must be a whole number.`);
  if (value < range.min || value > range.max) throw new ToolInputError(`"${field}" must be between ${range.min} and ${range.max}.`);
  return value;
}

export function optionalBoolean(input: Input, field: string): boolean | undefined {
  const value = input[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw new ToolInputError(`"${field}" must be true or false.`);
  return value;
}

export function optionalChoice<T extends string>(input: Input, field: string, choices: readonly T[]): T | undefined {
  const value = input[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !(choices as readonly string[]).includes(value)) throw new ToolInputError(`"${field}" must be one of ${choices.map((choice) => `"${choice}"`).join(', ')}.`);
  return value as T;
}

/** Checkpoint steps: whole numbers ≥ 0, at least one, at most `maxStepsPerCall`, duplicates dropped, ascending. */
export function stepList(input: Input, field: string): number[] {
  const value = input[field];
  if (!Array.isArray(value) || value.length === 0) throw new ToolInputError(`"${field}" must be a non-empty array of checkpoint steps.`);
  if (value.length > maxStepsPerCall) throw new ToolInputError(`"${field}" names ${value.length} steps; at most ${maxStepsPerCall} fit in one call.`);
  const steps = new Set<number>();
  for (const step of value) {
    if (typeof step !== 'number' || !Number.isSafeInteger(step) || step < 0)
      throw new ToolInputError(`"${field}" must hold whole numbers of 0 or more; ${JSON.stringify(step)?.slice(0, 40)} is not one.`);
    steps.add(step);
  }
  return [...steps].sort((a, b) => a - b);
}

/** A list of short strings (metric names, scorer names): at most `maxItems`, each at most `maxChars`. */
export function optionalTextList(input: Input, field: string, maxItems: number, maxChars = 100): string[] | undefined {
  const value = input[field];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw new ToolInputError(`"${field}" must be an array of strings.`);
  if (value.length > maxItems) throw new ToolInputError(`"${field}" holds ${value.length} entries; at most ${maxItems} are allowed.`);
  return value.map((item) => {
    if (typeof item !== 'string' || item.trim() === '' || item.length > maxChars) throw new ToolInputError(`"${field}" must hold non-empty strings of at most ${maxChars} characters.`);
    return item.trim();
  });
}

/**
 * A file path as a model writes it: relative to a workspace folder (or absolute), with `/` or `\`.
 * Refused here, before any file is touched: `..` segments (however spelled), NUL and other control
 * characters, URLs, and overlong paths. Whether the path is inside a workspace folder is checked by
 * `containingFolder` (platform/kit/workspacePaths) once it is resolved.
 */
export function workspacePath(input: Input, field: string): string {
  const given = requiredText(input, field, maxPathChars);
  if (/[\u0000-\u001f\u007f]/.test(given)) throw new ToolInputError(`"${field}" holds control characters.`);
  if (/^[a-z][a-z0-9+.-]+:\/\//i.test(given)) throw new ToolInputError(`"${field}" must be a path in the workspace, not a URL.`);
  if (given.split(/[/\\]/).some((segment) => segment === '..')) throw new ToolInputError(`"${field}" must stay inside the workspace: ".." is not allowed.`);
  return given;
}

/**
 * Where the platform reads training data (https://, s3://, an artifact URL, as the SFT command takes
 * it). The platform fetches it, not the extension, so any scheme is allowed; a user name or
 * password in it is refused, since the URL is shown in the confirmation and the log.
 */
export function dataUrl(input: Input, field: string): string {
  // Signed storage URLs run long; the confirmation shows the whole URL and its host on a line of its own, whatever the length.
  const text = requiredText(input, field, maxDataUrlChars);
  if (!/^[a-z][a-z0-9+.-]*:\/\/\S+$/i.test(text)) throw new ToolInputError(`"${field}" must be a URL such as https://host/data.jsonl or s3://bucket/data.jsonl.`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ToolInputError(`"${field}" is not a valid URL.`);
  }
  if (url.username || url.password) throw new ToolInputError(`"${field}" must not hold a user name or password.`);
  return text;
}
