/**
 * Reading an answer: JSON where JSON is expected (anything else is an 'invalid-response', never a
 * crash), and an HTTP error body turned into one PlatformError line.
 */
import { decodeText, describeSize, readCapped } from './bodyLimits';
import { PlatformError, type ApiName } from './errors';
import { oneLine } from '../kit/format';
import { looksBinary, looksLikeHtml, statusText, summarizeErrorBody } from './errorBody';
import { honoursRetryAfter, parseRetryAfter } from './retry';
import type { TransportResponse } from './transport';

export interface AnswerContext {
  api: ApiName;
  method: string;
  path: string;
  /** Values that must never appear in an error (the API key). */
  secrets: string[];
  limits: AnswerLimits;
}

export interface AnswerLimits {
  /** A JSON answer larger than this is not read. */
  maxJsonBytes: number;
  /** Only this much of an error body is read to describe the error. */
  maxErrorBodyBytes: number;
}

export function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

/** Reads and drops the body of an answer whose content does not matter, so its socket is reused. */
export async function discardBody(response: TransportResponse): Promise<void> {
  await response.body.dump().catch(() => undefined);
}

/**
 * The text of a JSON answer, read only up to the cap: a larger answer is refused (without reading
 * when Content-Length announces it, else as soon as the cap is passed) and its socket closed.
 */
export async function readAnswerText(response: TransportResponse, context: AnswerContext): Promise<string> {
  const limit = context.limits.maxJsonBytes;
  const { bytes, complete } = await readCapped(response.body, limit, { refuseAnnouncedOverflow: true, contentLength: response.headers['content-length'] });
  if (!complete) throw answerTooLarge(context, limit, response.statusCode);
  return decodeText(bytes);
}

export function answerTooLarge(context: Pick<AnswerContext, 'api' | 'method' | 'path'>, limit: number, status?: number): PlatformError {
  const { api, method, path } = context;
  return new PlatformError({
    kind: 'too-large',
    message: `${method} ${path}: the server's answer was larger than ${describeSize(limit)}; it was not read`,
    api,
    method,
    path,
    status,
  });
}

/** The start of an error body, at most the error-body cap; the rest is never read. */
export async function readErrorText(response: TransportResponse, context: AnswerContext): Promise<string> {
  const { bytes } = await readCapped(response.body, context.limits.maxErrorBodyBytes, { refuseAnnouncedOverflow: false });
  return decodeText(bytes);
}

export function parseJsonAnswer<T>(text: string, status: number, contentType: string | undefined, context: AnswerContext): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    throw invalidJsonError(text, status, contentType, context);
  }
}

function invalidJsonError(text: string, status: number, contentType: string | undefined, context: AnswerContext): PlatformError {
  const { method, path } = context;
  const trimmed = text.trim();
  let message: string;
  if (trimmed.length === 0) {
    message = `${method} ${path}: the server answered ${status} with an empty body where JSON was expected`;
  } else if (looksLikeHtml(trimmed, contentType)) {
    message = `${method} ${path}: the server answered ${status} with an HTML page where JSON was expected`;
  } else if (looksBinary(trimmed)) {
    message = `${method} ${path}: the server answered ${status} with binary data where JSON was expected`;
  } else if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    message = `${method} ${path}: the server's answer is incomplete or malformed JSON (${text.length} bytes received)`;
  } else {
    message = `${method} ${path}: the server answered ${status} with something that is not JSON: "${oneLine(trimmed, 60)}"`;
  }
  return new PlatformError({ kind: 'invalid-response', message, api: context.api, method, path, status });
}

/** Reads a non-2xx answer into an 'http' PlatformError. Reading failures still give the status. */
export async function errorFromResponse(response: TransportResponse, context: AnswerContext): Promise<PlatformError> {
  let body = '';
  try {
    body = await readErrorText(response, context);
  } catch {
    // The status alone is still worth reporting.
  }
  return httpError(response.statusCode, body, response.headers, context);
}

export function httpError(status: number, body: string, headers: Record<string, string | string[] | undefined>, context: AnswerContext): PlatformError {
  const { method, path } = context;
  const contentType = first(headers['content-type']);
  const summary = summarizeErrorBody(body, contentType);
  const message = summary.html ? `${method} ${path}: the server answered ${status} with an HTML page` : `${method} ${path} failed: ${status} ${summary.text ?? statusText(status)}`;
  const retryAfterMs = honoursRetryAfter(status) ? parseRetryAfter(headers['retry-after']) : undefined;
  return new PlatformError({
    kind: 'http',
    message,
    api: context.api,
    method,
    path,
    status,
    retryAfterMs,
    details: summary.details,
  });
}

export function header(response: TransportResponse, name: string): string | undefined {
  return first(response.headers[name]);
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
