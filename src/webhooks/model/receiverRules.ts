/**
 * What the local receiver answers before it reads a body: the rules a request must keep to be kept
 * (addressed to the receiver's own loopback host, not from a browser, under its secret path, a
 * method it takes, a declared size within the limit), and the port setting read as a port. Pure
 * (no server), so each rule is tested on its own.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** The receiver's paths start with this, then its random token. */
export const hookPrefix = '/hook/';

/**
 * Why a request was answered without being kept. Each one is counted, and none of them has its body
 * read past what arrived with its headers.
 */
export type RefusalReason =
  /** The Host header is not this receiver's loopback address: a DNS-rebound web page, or a proxy. */
  | 'foreign-host'
  /** Origin or Sec-Fetch-Site headers: a browser sent it on behalf of a web page. */
  | 'browser'
  /** Not under the receiver's `/hook/<token>` path. */
  | 'unknown-path'
  | 'method-not-allowed'
  | 'too-large'
  /** Headers or body did not arrive in time (a slow or stalled client). */
  | 'too-slow'
  /** Not valid HTTP, or headers over Node's size limit. */
  | 'malformed'
  /** Over the connection cap: closed at once, nothing read. */
  | 'too-many-connections';

export const refusalReasons: readonly RefusalReason[] = ['foreign-host', 'browser', 'unknown-path', 'method-not-allowed', 'too-large', 'too-slow', 'malformed', 'too-many-connections'];

/**
 * The first rule a request breaks, with the status that answers it, or undefined when it may be
 * read. Checked before any of the body is read.
 */
export function judgeRequest(
  incoming: Pick<IncomingMessage, 'headers' | 'method' | 'url'>,
  own: { port: number; token: string; maxBodyBytes: number },
): { status: number; reason: RefusalReason; headers?: Record<string, string> } | undefined {
  if (!isOwnHost(incoming.headers.host, own.port)) return { status: 421, reason: 'foreign-host' };
  if (comesFromBrowser(incoming.headers)) return { status: 403, reason: 'browser' };
  if (pathUnderToken(incoming.url ?? '', own.token) === undefined) return { status: 404, reason: 'unknown-path' };
  const method = incoming.method ?? '';
  if (method !== 'POST' && method !== 'GET' && method !== 'HEAD') {
    return { status: 405, reason: 'method-not-allowed', headers: { Allow: 'POST, GET, HEAD' } };
  }
  const declared = Number(incoming.headers['content-length'] ?? 0);
  if (declared > own.maxBodyBytes) return { status: 413, reason: 'too-large' };
  return undefined;
}

/**
 * Whether a Host header names this receiver: 127.0.0.1, localhost or [::1] with its port. A page
 * whose DNS name was rebound to 127.0.0.1 reaches the socket, but its browser still sends that name.
 */
export function isOwnHost(host: string | undefined, port: number): boolean {
  if (!host) return false;
  const lower = host.toLowerCase();
  return ['127.0.0.1', 'localhost', '[::1]'].some((name) => lower === `${name}:${port}` || (port === 80 && lower === name));
}

/**
 * Browsers add Origin to every POST and Sec-Fetch-Site to every request; server-side webhook
 * senders send neither. (Sec-Fetch-Mode alone proves nothing: Node's own fetch sends it.)
 */
export function comesFromBrowser(headers: IncomingMessage['headers']): boolean {
  return headers.origin !== undefined || headers['sec-fetch-site'] !== undefined;
}

/**
 * The path after `/hook/<token>` (query included, `/` when nothing follows), or undefined when the
 * path does not start with the token. The token is compared in constant time.
 */
export function pathUnderToken(path: string, token: string): string | undefined {
  if (!path.startsWith(hookPrefix)) return undefined;
  const given = Buffer.from(path.slice(hookPrefix.length, hookPrefix.length + token.length), 'latin1');
  const expected = Buffer.from(token, 'latin1');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  const rest = path.slice(hookPrefix.length + token.length);
  if (rest === '') return '/';
  if (rest.startsWith('/')) return rest;
  if (rest.startsWith('?')) return `/${rest}`;
  return undefined;
}

/**
 * The port setting as a port to listen on: a whole number from 0 to 65535 (0 picks a free one).
 * Anything else becomes 0, with a sentence saying why.
 */
export function receiverPortFrom(value: unknown): { port: number; problem?: string } {
  if (value === undefined || value === null) return { port: 0 };
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 65535) return { port: value };
  const shown = typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : String(value).slice(0, 40);
  return { port: 0, problem: `rlStudio.webhooks.receiverPort is ${shown}, not a port from 0 to 65535: using a free port instead.` };
}
