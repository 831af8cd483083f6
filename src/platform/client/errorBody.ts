/**
 * Reads what a server said in an answer the client cannot use: the error bodies of the training
 * API (`detail` as a validation list or a string), OpenAI-style `{"error": {"message"}}`, proxy
 * HTML pages, empty bodies and plain text, each boiled down to one line.
 */
import { STATUS_CODES } from 'node:http';
import { oneLine } from '../kit/format';

export interface ErrorBodySummary {
  /** The server's own words, on one line; absent when it said nothing usable. */
  text?: string;
  /** One line per validation item, e.g. "body.model_id: Field required". */
  details?: string[];
  /** The body is an HTML page (typically from a proxy in front of the service). */
  html: boolean;
}

export function summarizeErrorBody(body: string, contentType: string | undefined): ErrorBodySummary {
  const trimmed = body.trim();
  if (trimmed.length === 0) return { html: false };
  if (looksLikeHtml(trimmed, contentType)) return { html: true };
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    return { html: false, text: looksBinary(trimmed) ? '(binary data)' : oneLine(trimmed) };
  }
  return { html: false, ...describeErrorValue(parsed) };
}

/** The message of a parsed error value: a whole error body, or the `error` of a stream event. */
export function describeErrorValue(value: unknown): { text?: string; details?: string[] } {
  if (typeof value === 'string') return value.trim() ? { text: oneLine(value) } : {};
  if (!isRecord(value)) return value === null || value === undefined ? {} : { text: oneLine(JSON.stringify(value)) };
  const detail = value.detail;
  if (Array.isArray(detail) && detail.length > 0) {
    const details = detail.map(describeValidationItem);
    return { text: details.join('; '), details };
  }
  if (typeof detail === 'string' && detail.trim()) return { text: oneLine(detail) };
  const error = value.error;
  if (isRecord(error)) {
    if (typeof error.message === 'string' && error.message.trim()) return { text: oneLine(error.message) };
    return describeErrorValue({ ...error, error: undefined });
  }
  if (typeof error === 'string' && error.trim()) return { text: oneLine(error) };
  if (typeof value.message === 'string' && value.message.trim()) return { text: oneLine(value.message) };
  if (isRecord(detail)) return describeErrorValue(detail);
  return Object.keys(value).length === 0 ? {} : { text: oneLine(JSON.stringify(value)) };
}

/** `{"loc": ["body", "model_id"], "msg": "Field required"}` → "body.model_id: Field required". */
function describeValidationItem(item: unknown): string {
  if (!isRecord(item)) return oneLine(typeof item === 'string' ? item : JSON.stringify(item));
  const location = Array.isArray(item.loc) ? item.loc.map((part) => String(part)).join('.') : '';
  const message = typeof item.msg === 'string' ? item.msg : typeof item.message === 'string' ? item.message : '';
  if (location && message) return oneLine(`${location}: ${message}`);
  return oneLine(message || location || JSON.stringify(item));
}

export function looksLikeHtml(trimmedBody: string, contentType: string | undefined): boolean {
  if (contentType && /\btext\/html\b/i.test(contentType)) return true;
  const head = trimmedBody.slice(0, 64).toLowerCase();
  return head.startsWith('<!doctype html') || head.startsWith('<html') || head.startsWith('<head') || head.startsWith('<body');
}

/** Control characters or undecodable bytes: not text a person can read. */
export function looksBinary(text: string): boolean {
  return /[\u0000-\u0008\u000e-\u001f\ufffd]/.test(text.slice(0, 256));
}

/** The reason phrase of a status, e.g. 503 → "Service Unavailable". */
export function statusText(status: number): string {
  return STATUS_CODES[status] ?? 'Unknown Status';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
