/**
 * Raw HTTP sends for the webhook "Send test" feature: the request goes out exactly as given (no
 * key, no retries, no redirects followed), over a shared keep-alive Agent that is created on the
 * first send. The whole send, answer included, has one deadline, and at most maxRawBodyBytes of the
 * answer are kept for the report (which says when it was cut); the rest is never read.
 */
import type { Dispatcher } from 'undici';
import { Agent } from './undiciAgent';
import { AttemptSignal } from './attemptSignal';
import { hostAndPort } from './baseUrl';
import { readCapped } from './bodyLimits';
import { PlatformError } from './errors';
import { classifyFailure, seconds } from './networkFailures';
import { redactSecrets } from './redact';

export interface RawRequest {
  url: string;
  method: 'POST' | 'GET' | 'PUT';
  headers: Record<string, string>;
  body?: Uint8Array | string;
  /** The whole send, from the request to the end of the kept answer. Default 30 000 ms. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[]>;
  body: Uint8Array;
  ms: number;
  /** The body was longer than the kept maximum and was cut there. */
  truncated?: boolean;
}

const defaultTimeoutMs = 30_000;
const connectTimeoutMs = 10_000;
/** A test answer is shown to a person: more than this is not worth holding in memory. */
export const maxRawBodyBytes = 1024 * 1024;
/** Header names whose values are credentials and must not leak into a message. */
const sensitiveHeader = /auth|token|secret|key|signature|cookie/i;

let sharedAgent: Dispatcher | undefined;

function agent(): Dispatcher {
  if (!sharedAgent) {
    sharedAgent = new Agent({ connect: { timeout: connectTimeoutMs }, keepAliveTimeout: 10_000, connections: 4, pipelining: 1 });
  }
  return sharedAgent;
}

/** Closes the shared connections of raw sends (on deactivation); a later send opens new ones. */
export async function closeRawConnections(): Promise<void> {
  const closing = sharedAgent;
  sharedAgent = undefined;
  if (closing) await closing.close();
}

export async function sendRaw(request: RawRequest): Promise<RawResponse> {
  const method = request.method;
  const headerSecrets = Object.entries(request.headers)
    .filter(([name]) => sensitiveHeader.test(name))
    .map(([, value]) => value);
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    throw redacted(new PlatformError({ kind: 'not-configured', message: `the address "${request.url}" is not a valid URL`, api: 'webhook', method, path: '' }), headerSecrets);
  }
  // The path of a webhook address is often itself a secret (chat-service hooks put their token
  // there), so messages name the origin only.
  const where = url.origin;
  const secrets = headerSecrets.concat(url.username, url.password, url.pathname.length > 1 ? [url.pathname + url.search] : []);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw redacted(new PlatformError({ kind: 'not-configured', message: `the address of ${where} must start with http:// or https://`, api: 'webhook', method, path: where }), secrets);
  }
  const timeoutMs = request.timeoutMs && request.timeoutMs > 0 ? Math.min(request.timeoutMs, 2 ** 31 - 1) : defaultTimeoutMs;
  const started = performance.now();
  const attemptSignal = new AttemptSignal(request.signal, timeoutMs);
  try {
    const response = await agent().request({
      origin: url.origin,
      path: url.pathname + url.search,
      method,
      headers: request.headers,
      body: request.body,
      signal: attemptSignal.signal,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    const { bytes, complete } = await readCapped(response.body, maxRawBodyBytes, { refuseAnnouncedOverflow: false });
    const result: RawResponse = {
      status: response.statusCode,
      headers: definedHeaders(response.headers),
      body: bytes,
      ms: performance.now() - started,
    };
    if (!complete) result.truncated = true;
    return result;
  } catch (raw) {
    // The deadline aborted the send, unless the caller's own signal did first.
    const error =
      attemptSignal.timedOut && !request.signal?.aborted
        ? new PlatformError({ kind: 'timeout', message: `${method} ${where} timed out after ${seconds(timeoutMs)}`, api: 'webhook', method, path: where })
        : classifyFailure(raw, {
            api: 'webhook',
            method,
            path: where,
            hostAndPort: hostAndPort(url),
            timeoutMs,
            connectTimeoutMs,
            signal: request.signal,
          }).error;
    throw redacted(error, secrets);
  } finally {
    attemptSignal.release();
  }
}

/** The error with every secret of the send removed from its message: the last step before it leaves. */
function redacted(error: PlatformError, secrets: string[]): PlatformError {
  const message = redactSecrets(error.message, secrets);
  if (message === error.message) return error;
  return new PlatformError({ kind: error.kind, message, api: 'webhook', method: error.method, path: error.path, status: error.status, connection: error.connection });
}

function definedHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string | string[]> {
  const result: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) result[name] = value;
  }
  return result;
}
