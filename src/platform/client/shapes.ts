/**
 * Light checks that a parsed answer has the shape the views rely on. A mismatch is an
 * 'invalid-response' with a readable line rather than a TypeError somewhere in a view.
 */
import { PlatformError } from './errors';
import { errorFromResponse, header, isSuccess, parseJsonAnswer, readAnswerText, type AnswerContext } from './responses';
import type { TransportResponse } from './transport';
import type { ChatCompletion, ModelList, Page } from './types';

export type ShapeCheck<T> = (value: unknown) => value is T;

/** A reader for `CallSpec.read`: a 2xx JSON answer of the expected shape, else the server's error. */
export function readShaped<T>(check: ShapeCheck<T>, expected: string) {
  return async (response: TransportResponse, context: AnswerContext): Promise<T> => {
    const status = response.statusCode;
    if (!isSuccess(status)) throw await errorFromResponse(response, context);
    const value = parseJsonAnswer<unknown>(await readAnswerText(response, context), status, header(response, 'content-type'), context);
    if (!check(value)) throw unexpectedShape(context, expected, status);
    return value;
  };
}

export function unexpectedShape(context: AnswerContext, expected: string, status?: number): PlatformError {
  const { api, method, path } = context;
  return new PlatformError({
    kind: 'invalid-response',
    message: `${method} ${path}: the server's answer is not ${expected}`,
    api,
    method,
    path,
    status,
  });
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isPage<T>(value: unknown): value is Page<T> {
  if (!isObject(value) || !Array.isArray(value.data)) return false;
  // has_more is required by the API, but a server that leaves it out means "no more".
  if (value.has_more === undefined) value.has_more = false;
  return typeof value.has_more === 'boolean';
}

export function isModelList(value: unknown): value is ModelList {
  return isObject(value) && Array.isArray(value.data);
}

export function isChatCompletion(value: unknown): value is ChatCompletion {
  return isObject(value) && Array.isArray(value.choices);
}

export function hasId(value: unknown): value is { id: string } {
  return isObject(value) && typeof value.id === 'string';
}
