/**
 * Turns what undici and Node throw (error codes, nested causes) into a PlatformError with a
 * readable line, and tells the retry policy whether the request can have reached the server.
 */
import { errorMessage } from './errorMessage';
import { isPlatformError, PlatformError, type ApiName, type ConnectionProblem } from './errors';

export interface FailureContext {
  api: ApiName;
  method: string;
  /** Request path without the origin. */
  path: string;
  /** host:port of the server, for connection messages. */
  hostAndPort: string;
  timeoutMs: number;
  connectTimeoutMs: number;
  signal?: AbortSignal;
}

export interface ClassifiedFailure {
  error: PlatformError;
  /** The connection failed before any byte of the request left: safe to send again. */
  beforeSend: boolean;
  /** Trying again may help (a refused or reset connection may; a bad certificate will not). */
  transient: boolean;
}

const refusedCodes = new Set(['ECONNREFUSED']);
const unreachableCodes = new Set(['EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN', 'EHOSTDOWN', 'EADDRNOTAVAIL']);
const lookupCodes = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME']);
const droppedCodes = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH']);

export function classifyFailure(raw: unknown, context: FailureContext): ClassifiedFailure {
  const { method, path, hostAndPort } = context;
  const make = (kind: PlatformError['kind'], message: string, beforeSend: boolean, transient: boolean, connection?: ConnectionProblem): ClassifiedFailure => ({
    error: new PlatformError({ kind, message, api: context.api, method, path, connection, cause: raw }),
    beforeSend,
    transient,
  });

  if (context.signal?.aborted) return make('aborted', `${method} ${path} was cancelled`, false, false);
  if (isPlatformError(raw)) return { error: raw, beforeSend: false, transient: raw.kind === 'network' };

  const code = errorCode(raw);
  switch (code) {
    case 'UND_ERR_CONNECT_TIMEOUT':
      return make('timeout', `${method} ${path}: could not connect to ${hostAndPort} (no answer within ${seconds(context.connectTimeoutMs)})`, true, true);
    case 'UND_ERR_HEADERS_TIMEOUT':
      return make('timeout', `${method} ${path} timed out after ${seconds(context.timeoutMs)}`, false, false);
    case 'UND_ERR_BODY_TIMEOUT':
      return make('timeout', `${method} ${path} timed out after ${seconds(context.timeoutMs)} (the answer stopped arriving)`, false, false);
    case 'UND_ERR_ABORTED':
    case 'ABORT_ERR':
      return make('aborted', `${method} ${path} was cancelled`, false, false);
  }
  if (code && refusedCodes.has(code)) {
    return make('network', `${method} ${path}: could not connect to ${hostAndPort} (connection refused)`, true, true, 'refused');
  }
  if (code && unreachableCodes.has(code)) {
    return make('network', `${method} ${path}: could not connect to ${hostAndPort} (host unreachable)`, true, true, 'host-unreachable');
  }
  if (code && lookupCodes.has(code)) {
    const host = hostAndPort.replace(/:\d+$/, '');
    return make('network', `${method} ${path}: could not find the host ${host}`, true, code === 'EAI_AGAIN', 'unknown-host');
  }
  if (code && droppedCodes.has(code)) {
    return make('network', `${method} ${path}: the connection to ${hostAndPort} was closed before the answer was complete`, false, true, 'dropped');
  }
  if (code && isTlsCode(code)) {
    return make('network', `${method} ${path}: the secure connection to ${hostAndPort} failed (${code})`, true, false, 'tls');
  }
  if (isAbortError(raw)) return make('aborted', `${method} ${path} was cancelled`, false, false);
  const detail = detailOf(raw);
  return make('network', `${method} ${path}: network error${detail ? ` (${detail})` : ''}`, false, false);
}

/** 60000 → "60 s", 250 → "0.25 s". */
export function seconds(ms: number): string {
  const value = ms / 1000;
  const text = value >= 10 ? String(Math.round(value)) : String(Number(value.toFixed(2)));
  return `${text} s`;
}

/** The first error code found on the error, its cause chain or an AggregateError's members. */
function errorCode(raw: unknown, depth = 0): string | undefined {
  if (typeof raw !== 'object' || raw === null || depth > 4) return undefined;
  const record = raw as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof record.code === 'string' && record.code) return record.code;
  if (Array.isArray(record.errors)) {
    for (const inner of record.errors) {
      const code = errorCode(inner, depth + 1);
      if (code) return code;
    }
  }
  return errorCode(record.cause, depth + 1);
}

function isTlsCode(code: string): boolean {
  return code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL') || code.includes('CERT') || code.includes('SELF_SIGNED') || code === 'UNABLE_TO_VERIFY_LEAF_SIGNATURE';
}

function isAbortError(raw: unknown): boolean {
  return typeof raw === 'object' && raw !== null && (raw as { name?: unknown }).name === 'AbortError';
}

/** What an unknown failure said of itself, on one line and bounded; nothing for a value that is no message. */
function detailOf(raw: unknown): string {
  if (!(raw instanceof Error) && typeof raw !== 'string') return '';
  return errorMessage(raw).replace(/\s+/g, ' ').trim().slice(0, 200);
}
