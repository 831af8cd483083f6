/**
 * The one error type of the platform client. Every failure a caller can see (HTTP status, timeout,
 * lost connection, cancelled call, unreadable or oversized answer, missing configuration or key,
 * unusable input) is a PlatformError whose message is a single human-readable line.
 */

export type PlatformErrorKind =
  | 'http'
  | 'timeout'
  | 'network'
  | 'aborted'
  | 'invalid-response'
  | 'stream-cut'
  | 'not-configured'
  | 'signed-out'
  /** An answer, an error body or one stream event was larger than the client reads. */
  | 'too-large'
  /** A value the caller passed cannot be sent (an id that would change the request's path). */
  | 'invalid-input';

/** Which side the failed call talked to; 'webhook' is a raw send to a user's endpoint. */
export type ApiName = 'training' | 'inference' | 'webhook';

/** Why a connection failed ('network' errors), for advice that depends on it: never read from the message. */
export type ConnectionProblem = 'refused' | 'host-unreachable' | 'unknown-host' | 'tls' | 'dropped';

export interface PlatformErrorInit {
  kind: PlatformErrorKind;
  message: string;
  api: ApiName;
  method: string;
  path: string;
  status?: number;
  retryAfterMs?: number;
  details?: string[];
  connection?: ConnectionProblem;
  cause?: unknown;
}

export class PlatformError extends Error {
  readonly kind: PlatformErrorKind;
  readonly status?: number;
  readonly method: string;
  readonly path: string;
  readonly api: ApiName;
  readonly retryAfterMs?: number;
  readonly details?: string[];
  readonly connection?: ConnectionProblem;

  constructor(init: PlatformErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'PlatformError';
    this.kind = init.kind;
    this.method = init.method;
    this.path = init.path;
    this.api = init.api;
    if (init.status !== undefined) this.status = init.status;
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
    if (init.connection !== undefined) this.connection = init.connection;
    if (init.details !== undefined) this.details = init.details;
  }

  /** A copy with another message (used to note how many attempts were made). */
  withMessage(message: string): PlatformError {
    return new PlatformError({ ...this.init(), message });
  }

  private init(): PlatformErrorInit {
    return {
      kind: this.kind,
      message: this.message,
      api: this.api,
      method: this.method,
      path: this.path,
      status: this.status,
      retryAfterMs: this.retryAfterMs,
      details: this.details,
      connection: this.connection,
      cause: this.cause,
    };
  }
}

/**
 * This module ships once, in dist/extension.js (activation uses it), which every other bundle
 * requires (see esbuild.host.mjs), so there is one PlatformError class at run time and `instanceof`
 * answers for errors thrown in any of them.
 */
export function isPlatformError(value: unknown): value is PlatformError {
  return value instanceof PlatformError;
}
