/**
 * What a failed call means to a person: one reason per failure, in words that lead with what
 * happened, with the action that helps and whether trying again may. Trees, the status bar, welcome
 * views and error messages all read this reason; none of them decides a state by comparing
 * message text. Pure: no VS Code, no undici.
 */
import { formatDuration, oneLine, quoted } from '../kit/format';
import { hostAndPort } from './baseUrl';
import { errorMessage } from './errorMessage';
import { isPlatformError, type ApiName, type ConnectionProblem, type PlatformErrorKind } from './errors';

export type FailureKind =
  /** No connection: refused, unreachable host, unknown host, failed TLS, connection dropped. */
  | 'unreachable'
  /** Connected (or tried to) but no answer in time. */
  | 'timeout'
  /** 429: the server answered and asked to slow down. Never "unreachable". */
  | 'rate-limited'
  /** 503: the service says it is temporarily unavailable. */
  | 'unavailable'
  /** Another 5xx, or a gateway error. */
  | 'server-error'
  /** 401: the key was refused. */
  | 'rejected'
  /** 402: the account's quota is used up. */
  | 'quota-exceeded'
  /** 403: the key is valid but may not do this (or not from this region). */
  | 'forbidden'
  | 'not-found'
  /** Another 4xx: the server understood the request and refused it (validation). */
  | 'refused-request'
  /** An answer that is not what the API sends (HTML from a proxy, broken JSON). */
  | 'bad-answer'
  /** A streamed answer that stopped before its end. */
  | 'stream-cut'
  | 'too-large'
  | 'signed-out'
  | 'not-configured'
  | 'invalid-input'
  | 'cancelled'
  /** Not a platform call's failure (a bug, a file that could not be read). */
  | 'other';

export type FailureAction = 'sign-in' | 'configure' | 'retry' | 'show-log';

export interface Failure {
  readonly kind: FailureKind;
  /**
   * What happened, in plain words: "Can't reach the training API at 127.0.0.1:8787." The same
   * words on every surface (chat, trees, status bar, notifications); each adds only what it does
   * next ("Retrying in 8 s.", "Try again in 8 s.").
   */
  readonly message: string;
  /** What helps most, when something does. */
  readonly action?: FailureAction;
  /** Trying the same call again later may succeed. */
  readonly retryable: boolean;
  /** How long the server asked to wait (Retry-After), when it did. */
  readonly retryInMs?: number;
  /** For 'unreachable': how the connection failed, when the client knows (refused, unknown host, …). */
  readonly connection?: ConnectionProblem;
  /** The API the failed call went to, when known. */
  readonly api?: ApiName;
  readonly status?: number;
  /** The request and the client's own account of it, for tooltips and the log, never the headline. */
  readonly detail?: string;
}

export interface FailureContext {
  /** The configured address of each API, to name host and port in connection messages. */
  readonly urls?: Partial<Record<ApiName, string>>;
}

/** The fields of a PlatformError that decide its reason (also what a request log entry carries). */
export interface FailureFacts {
  kind: PlatformErrorKind;
  api?: ApiName;
  method?: string;
  path?: string;
  status?: number;
  retryAfterMs?: number;
  message: string;
  details?: readonly string[];
  connection?: ConnectionProblem;
}

/** The one reason for an error, whatever threw it. */
export function describeFailure(error: unknown, context: FailureContext = {}): Failure {
  if (isPlatformError(error)) {
    return describeFacts(
      {
        kind: error.kind,
        api: error.api,
        method: error.method,
        path: error.path,
        status: error.status,
        retryAfterMs: error.retryAfterMs,
        message: error.message,
        details: error.details,
        connection: error.connection,
      },
      context,
    );
  }
  return { kind: 'other', message: sentence(errorMessage(error) || 'Something went wrong.'), action: 'show-log', retryable: false };
}

/** The reason for a failure known by its facts (a request log entry, a PlatformError). */
export function describeFacts(facts: FailureFacts, context: FailureContext = {}): Failure {
  const api = facts.api;
  const name = apiName(api);
  const where = addressOf(api, context);
  const at = where ? ` at ${where}` : '';
  const detail = facts.message || undefined;
  const base = { api, status: facts.status, detail };
  switch (facts.kind) {
    case 'aborted':
      return { ...base, kind: 'cancelled', message: 'The request was cancelled.', retryable: false };
    case 'signed-out':
      return { ...base, kind: 'signed-out', message: 'RL Studio is signed out: sign in with your platform API key.', action: 'sign-in', retryable: false };
    case 'not-configured':
      return { ...base, kind: 'not-configured', message: `The ${name} address is not set.`, action: 'configure', retryable: false };
    case 'invalid-input':
      return { ...base, kind: 'invalid-input', message: sentence(stripRequest(facts)), retryable: false };
    case 'network':
      return { ...base, ...(facts.connection ? { connection: facts.connection } : {}), kind: 'unreachable', message: `Can't reach the ${name}${at}.`, action: 'retry', retryable: true };
    case 'timeout':
      return { ...base, kind: 'timeout', message: `The ${name}${at} did not answer in time.`, action: 'retry', retryable: true };
    case 'stream-cut':
      return { ...base, kind: 'stream-cut', message: `The answer of the ${name} stopped before it was complete.`, action: 'retry', retryable: true };
    case 'too-large':
      return { ...base, kind: 'too-large', message: `The ${name} sent an answer larger than RL Studio reads, so it was not read.`, action: 'show-log', retryable: false };
    case 'invalid-response':
      return {
        ...base,
        kind: 'bad-answer',
        message: `The ${name}${at} sent an answer RL Studio cannot read${facts.status ? ` (${facts.status})` : ''}; a proxy may be in the way.`,
        action: 'show-log',
        retryable: true,
      };
    case 'http':
      return describeStatus(facts, name, base);
  }
}

/**
 * The words of an HTTP status. They do not depend on Retry-After: how long the server asked to
 * wait is `retryInMs`, and each surface says what it does about it (the trees and the status bar
 * retry by themselves, the chat offers Retry), so a 429 reads the same wherever it is seen.
 */
function describeStatus(facts: FailureFacts, name: string, base: Pick<Failure, 'api' | 'status' | 'detail'>): Failure {
  const status = facts.status ?? 0;
  const wait = facts.retryAfterMs !== undefined && Number.isFinite(facts.retryAfterMs) ? Math.max(0, facts.retryAfterMs) : undefined;
  const timing = wait === undefined ? {} : { retryInMs: wait };
  const reason = serverReason(facts);
  // The server's own words follow the headline wherever they add something: they are the most
  // useful thing a failure carries ("workflow error", "Engine overloaded").
  const said = saidBy(reason, status);
  if (status === 401) return { ...base, kind: 'rejected', message: `The platform rejected the API key (401).${said}`, action: 'sign-in', retryable: false };
  if (status === 402)
    return { ...base, kind: 'quota-exceeded', message: `The platform's quota for this account is used up (402): add credit or wait for it to renew.${said}`, action: 'show-log', retryable: false };
  if (status === 403)
    return { ...base, kind: 'forbidden', message: `The ${name} refused this request (403): ${reason ?? 'the API key may not do it, or not from this region.'}`, action: 'show-log', retryable: false };
  if (status === 404) return { ...base, kind: 'not-found', message: `The ${name} has no such ${itemOf(facts)} (404).${said}`, retryable: false };
  if (status === 429) return { ...base, ...timing, kind: 'rate-limited', message: `Too many requests (429): the platform asked RL Studio to slow down.${said}`, action: 'retry', retryable: true };
  if (status === 503) return { ...base, ...timing, kind: 'unavailable', message: `The ${name} is temporarily unavailable (503).${said}`, action: 'retry', retryable: true };
  if (status >= 500) return { ...base, ...timing, kind: 'server-error', message: `The ${name} failed to answer (${status}).${said}`, action: 'show-log', retryable: true };
  return { ...base, kind: 'refused-request', message: `The ${name} refused the request (${status})${reason ? `: ${reason}` : '.'}`, action: 'show-log', retryable: false };
}

/** Short words for the state a failure leaves an API in, after its name: "inference API rate limited". */
export function failureLabel(kind: FailureKind): string {
  return failureLabels[kind];
}

const failureLabels: Readonly<Record<FailureKind, string>> = {
  unreachable: 'unreachable',
  timeout: 'not answering',
  'rate-limited': 'rate limited',
  unavailable: 'unavailable',
  'server-error': 'failing',
  rejected: 'key rejected',
  'quota-exceeded': 'quota used up',
  forbidden: 'not allowed',
  'not-found': 'not found',
  'refused-request': 'request refused',
  'bad-answer': 'answers unreadable',
  'stream-cut': 'answer cut off',
  'too-large': 'answer too large',
  'signed-out': 'signed out',
  'not-configured': 'not configured',
  'invalid-input': 'invalid input',
  cancelled: 'cancelled',
  other: 'failed',
};

/** "Retrying in 8 s." / "Retrying now." for a retry `ms` from now. */
export function retryingIn(ms: number): string {
  if (!Number.isFinite(ms) || ms < 1000) return 'Retrying now.';
  return `Retrying in ${duration(ms)}.`;
}

/** The message followed by what happens next, when a retry is scheduled. */
export function withNextStep(failure: Failure, retryInMs?: number): string {
  return retryInMs === undefined ? failure.message : `${failure.message} ${retryingIn(retryInMs)}`;
}

/**
 * The message followed by when to try again by hand, where nothing retries by itself (the chat's
 * Retry): the wait the server asked for, when it asked for one.
 */
export function withRetryAdvice(failure: Failure): string {
  if (!failure.retryable || failure.retryInMs === undefined || failure.retryInMs < 1000) return failure.message;
  return `${failure.message} Try again in ${duration(failure.retryInMs)}.`;
}

/** A failure that says the server is out of reach (no answer at all), as opposed to an answer that refused. */
export function isConnectionFailure(failure: Failure): boolean {
  return failure.kind === 'unreachable' || failure.kind === 'timeout';
}

/** Words for a wait, whole seconds and at least one: "8 s", "1 min 05 s" (core/format's words for a duration). */
export function duration(ms: number): string {
  return formatDuration(Math.max(1, Math.round(ms / 1000)) * 1000);
}

/** A server's reason is shown on one line of at most this many characters. */
const reasonChars = 200;

function apiName(api: ApiName | undefined): string {
  if (api === 'training') return 'training API';
  if (api === 'inference') return 'inference API';
  if (api === 'webhook') return 'webhook endpoint';
  return 'platform';
}

function addressOf(api: ApiName | undefined, context: FailureContext): string | undefined {
  const url = api ? context.urls?.[api] : undefined;
  if (!url) return undefined;
  try {
    return hostAndPort(new URL(url));
  } catch {
    return undefined;
  }
}

/** What a 404 says is missing, from the path that was asked for. */
function itemOf(facts: FailureFacts): string {
  const path = (facts.path ?? '').replace(/[?#].*$/, '');
  if (/\/training-jobs\/[^/]+(\/events)?$/.test(path)) return 'training job';
  if (/\/models\/[^/]+(\/checkpoints|\/log)?$/.test(path)) return 'model';
  // A completion for a model the inference API does not serve.
  if (/\/chat\/completions$/.test(path)) return 'model';
  return 'item';
}

/** The server's own words from the client's "GET /x failed: 422 body.model_id: Field required". */
function serverReason(facts: FailureFacts): string | undefined {
  const first = facts.details?.find((line) => line.trim() !== '');
  if (first) return oneLine(first, reasonChars);
  const match = /\bfailed: \d{3} (.+)$/.exec(facts.message);
  return match ? oneLine(match[1]!, reasonChars) : undefined;
}

/**
 * ` It said: "…".` with the server's reason quoted on one line, or nothing when it said nothing
 * beyond its status's name ("Not Found" for a 404 tells the person nothing new).
 */
function saidBy(reason: string | undefined, status: number): string {
  if (!reason) return '';
  const plain = (text: string): string => text.toLowerCase().replace(/[^a-z]/g, '');
  // node:http is loaded here, when a failure is put into words, not with the activation bundle.
  const { STATUS_CODES } = require('node:http') as typeof import('node:http');
  if (plain(reason) === plain(STATUS_CODES[status] ?? '')) return '';
  return ` It said: ${quoted(reason, reasonChars)}.`;
}

/** A client message without its leading "METHOD /path: ". */
function stripRequest(facts: FailureFacts): string {
  const prefix = facts.method && facts.path ? `${facts.method} ${facts.path}: ` : '';
  return prefix && facts.message.startsWith(prefix) ? facts.message.slice(prefix.length) : facts.message;
}

function sentence(text: string): string {
  const trimmed = oneLine(text, reasonChars);
  if (!trimmed) return trimmed;
  const capital = trimmed[0]!.toUpperCase() + trimmed.slice(1);
  return /[.!?)]$/.test(capital) ? capital : `${capital}.`;
}
