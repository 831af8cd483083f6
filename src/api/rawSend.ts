/**
 * Raw HTTP sends for the webhook "Send test" feature: the request goes out exactly as given (no
 * key, no retries), over a shared keep-alive Agent that is created on the first send.
 */
import type { Dispatcher } from 'undici';
import { hostAndPort } from './baseUrl';
import { PlatformError } from './errors';
import { classifyFailure } from './failures';
import { redactSecrets } from './redact';
import { loadUndici } from './undiciLoader';

export interface RawRequest {
  url: string;
  method: 'POST' | 'GET' | 'PUT';
  headers: Record<string, string>;
  body?: Uint8Array | string;
  /** Wait for the headers and between reads of the body. Default 30 000 ms. */
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
    const { Agent } = loadUndici();
    sharedAgent = new Agent({ connect: { timeout: connectTimeoutMs }, keepAliveTimeout: 10_000 });
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
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    throw new PlatformError({ kind: 'not-configured', message: `the address "${request.url}" is not a valid URL`, api: 'webhook', method, path: '' });
  }
  // The path of a webhook address is often itself a secret (chat-service hooks put their token
  // there), so messages name the origin only.
  const where = url.origin;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new PlatformError({ kind: 'not-configured', message: `the address of ${where} must start with http:// or https://`, api: 'webhook', method, path: where });
  }
  const timeoutMs = request.timeoutMs && request.timeoutMs > 0 ? request.timeoutMs : defaultTimeoutMs;
  const secrets = Object.entries(request.headers)
    .filter(([name]) => sensitiveHeader.test(name))
    .map(([, value]) => value)
    .concat(url.username, url.password, url.pathname.length > 1 ? [url.pathname + url.search] : []);
  const started = performance.now();
  try {
    const response = await agent().request({
      origin: url.origin,
      path: url.pathname + url.search,
      method,
      headers: request.headers,
      body: request.body,
      signal: request.signal,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    const { bytes, truncated } = await readLimited(response.body, maxRawBodyBytes);
    const result: RawResponse = {
      status: response.statusCode,
      headers: definedHeaders(response.headers),
      body: bytes,
      ms: performance.now() - started,
    };
    if (truncated) result.truncated = true;
    return result;
  } catch (raw) {
    const { error } = classifyFailure(raw, {
      api: 'webhook',
      method,
      path: where,
      hostAndPort: hostAndPort(url),
      timeoutMs,
      connectTimeoutMs,
      signal: request.signal,
    });
    const message = redactSecrets(error.message, secrets);
    if (message === error.message) throw error;
    throw new PlatformError({ kind: error.kind, message, api: 'webhook', method, path: where });
  }
}

async function readLimited(body: Dispatcher.ResponseData['body'], limit: number): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  const parts: Uint8Array[] = [];
  let total = 0;
  for await (const part of body as AsyncIterable<Uint8Array>) {
    const room = limit - total;
    if (part.byteLength > room) {
      parts.push(part.subarray(0, room));
      total += room;
      body.destroy();
      return { bytes: concat(parts, total), truncated: true };
    }
    parts.push(part);
    total += part.byteLength;
  }
  return { bytes: concat(parts, total), truncated: false };
}

function concat(parts: Uint8Array[], total: number): Uint8Array {
  if (parts.length === 1 && parts[0].byteLength === total) return new Uint8Array(parts[0].buffer, parts[0].byteOffset, total);
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.byteLength;
  }
  return bytes;
}

function definedHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string | string[]> {
  const result: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) result[name] = value;
  }
  return result;
}
