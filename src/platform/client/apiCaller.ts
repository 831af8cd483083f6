/**
 * Sends the calls of one API (training or inference): builds the request, adds the key, retries
 * what may be retried, logs each attempt, and makes sure every failure leaves as a PlatformError
 * without the key in it.
 */
import { AttemptSignal } from './attemptSignal';
import { resolveApiBase, queryString, type ResolvedBase } from './baseUrl';
import { abandonBody } from './bodyLimits';
import { isPlatformError, PlatformError } from './errors';
import { classifyFailure, seconds, type ClassifiedFailure } from './networkFailures';
import type { CredentialsProvider, RequestLogger, ResolvedClientOptions } from './options';
import { fillPath } from './pathIds';
import { redactSecrets } from './redact';
import { isRedirect, redirectError } from './redirects';
import { mayRetry, retryDelay, sleep } from './retry';
import type { AnswerContext } from './responses';
import type { Transport, TransportResponse } from './transport';
import type { PlatformApi } from './types';

export type HttpMethod = 'GET' | 'POST' | 'DELETE';

export interface CallSpec<T> {
  method: HttpMethod;
  /**
   * Relative to the API address (which carries /v1), e.g. '/preview/models/{modelId}'. Each
   * `{name}` is replaced by `pathIds[name]`, checked and percent-encoded (see pathIds.ts).
   */
  path: string;
  pathIds?: Record<string, string>;
  query?: Record<string, string | number | boolean | undefined>;
  /** Sent as JSON. */
  body?: unknown;
  /** Health, system check and base models need no key. */
  auth: boolean;
  /**
   * Asks for server-sent events instead of JSON. The attempt's deadline then ends when `read`
   * returns (normally on the headers); the stream's reader owns the idle timeout and the
   * caller's signal from there on.
   */
  stream?: boolean;
  signal?: AbortSignal;
  /**
   * Reads the answer of one attempt, within the attempt's deadline; a PlatformError it throws goes
   * through the retry policy. Redirects never reach it.
   */
  read(response: TransportResponse, context: AnswerContext): Promise<T>;
}

export interface CallerShared {
  transport: Transport;
  options: ResolvedClientOptions;
  credentials: CredentialsProvider;
  logger?: RequestLogger;
  /** Compat-Project value, for the inference API only. */
  project?: string;
}

const labels: Record<PlatformApi, string> = { training: 'training API', inference: 'inference API' };

export class ApiCaller {
  private readonly base: ResolvedBase;

  constructor(
    readonly api: PlatformApi,
    address: string,
    private readonly shared: CallerShared,
  ) {
    this.base = resolveApiBase(labels[api], address);
  }

  /** host:port of the API, for connection messages ('' when the address is not usable). */
  get hostAndPort(): string {
    return this.base.ok ? this.base.base.hostAndPort : '';
  }

  get options(): ResolvedClientOptions {
    return this.shared.options;
  }

  async call<T>(spec: CallSpec<T>): Promise<T> {
    const { method } = spec;
    const prefix = this.base.ok ? this.base.base.pathPrefix : '';
    const query = queryString(spec.query);
    const filled = fillPath(spec.path, spec.pathIds);
    const fullPath = prefix + (filled.ok ? filled.path : spec.path) + query;
    // Every error leaves through redactError, the key's removal coming last.
    let secrets: string[] = [];
    const fail = (kind: PlatformError['kind'], message: string) => redactError(new PlatformError({ kind, message, api: this.api, method, path: fullPath }), secrets);

    if (!filled.ok) throw fail('invalid-input', `${method} ${fullPath}: ${filled.problem}`);
    if (!this.base.ok) throw fail('not-configured', this.base.problem);
    const base = this.base.base;
    if (spec.signal?.aborted) throw fail('aborted', `${method} ${fullPath} was cancelled`);

    let key: string | undefined;
    if (spec.auth) {
      try {
        key = await this.shared.credentials.getApiKey();
      } catch {
        throw fail('signed-out', 'the API key could not be read from the secret storage');
      }
      if (!key) throw fail('signed-out', 'not signed in: no API key is set');
    }
    secrets = key ? [key] : [];
    const headers = this.headers(key, spec);
    const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    const { options, transport } = this.shared;
    const context: AnswerContext = {
      api: this.api,
      method,
      path: fullPath,
      secrets,
      limits: { maxJsonBytes: options.maxJsonBytes, maxErrorBodyBytes: options.maxErrorBodyBytes },
    };
    const attempts = options.maxRetries + 1;

    for (let attempt = 1; ; attempt++) {
      // Timed only for the request log: without one, nobody reads the time.
      const started = this.shared.logger ? performance.now() : 0;
      let status: number | undefined;
      const attemptSignal = new AttemptSignal(spec.signal, options.timeoutMs);
      try {
        const response = await transport.request({
          origin: base.origin,
          path: fullPath,
          method,
          headers,
          body,
          signal: attemptSignal.signal,
          // The attempt's deadline is the real bound; these only make undici give up on its side
          // too. A stream's body has no undici timeout: its reader keeps an idle timer of its own.
          headersTimeout: options.timeoutMs,
          bodyTimeout: spec.stream ? 0 : options.timeoutMs,
        });
        status = response.statusCode;
        if (isRedirect(status)) {
          abandonBody(response.body);
          throw redirectError(status, response.headers.location, base.origin + fullPath, context);
        }
        const value = await spec.read(response, context);
        attemptSignal.release();
        this.log(started, { method, path: fullPath, status, attempt });
        return value;
      } catch (raw) {
        attemptSignal.release();
        const classified = this.attemptFailure(raw, attemptSignal, spec, fullPath, status, base.hostAndPort);
        const error = redactError(classified.error, secrets);
        this.log(started, { method, path: fullPath, status: status ?? error.status, attempt, error: error.message, kind: error.kind });
        const failure = { ...classified, error };
        if (attempt >= attempts || !mayRetry(method, spec.path, failure)) throw finalError(error, attempt, secrets);
        try {
          await sleep(retryDelay(attempt, { baseDelayMs: options.retryBaseDelayMs, maxDelayMs: options.retryMaxDelayMs }, error.retryAfterMs), spec.signal);
        } catch {
          throw fail('aborted', `${method} ${fullPath} was cancelled`);
        }
      }
    }
  }

  /** What one failed attempt amounts to: its own deadline, or whatever undici or a reader threw. */
  private attemptFailure(raw: unknown, attemptSignal: AttemptSignal, spec: CallSpec<unknown>, path: string, status: number | undefined, hostAndPort: string): ClassifiedFailure {
    const { method } = spec;
    const { timeoutMs, connectTimeoutMs } = this.shared.options;
    // An error status read before the deadline passed stays what it is; anything else that ended
    // after the deadline aborted the attempt is the deadline.
    if (attemptSignal.timedOut && !spec.signal?.aborted && !isPlatformError(raw)) {
      const still = status === undefined ? '' : ' (the answer was still arriving)';
      return {
        error: new PlatformError({ kind: 'timeout', message: `${method} ${path} timed out after ${seconds(timeoutMs)}${still}`, api: this.api, method, path, cause: raw }),
        beforeSend: false,
        transient: false,
      };
    }
    return classifyFailure(raw, { api: this.api, method, path, hostAndPort, timeoutMs, connectTimeoutMs, signal: spec.signal });
  }

  private headers(key: string | undefined, spec: CallSpec<unknown>): Record<string, string> {
    const headers: Record<string, string> = {
      'user-agent': this.shared.options.userAgent,
      accept: spec.stream ? 'text/event-stream' : 'application/json',
    };
    if (key) headers.authorization = `Bearer ${key}`;
    if (spec.body !== undefined) headers['content-type'] = 'application/json';
    if (this.api === 'inference' && this.shared.project) headers['compat-project'] = this.shared.project;
    return headers;
  }

  private log(started: number, entry: { method: string; path: string; status?: number; attempt: number; error?: string; kind?: PlatformError['kind'] }): void {
    const logger = this.shared.logger;
    if (!logger) return;
    try {
      logger({ api: this.api, ...entry, ms: Math.round((performance.now() - started) * 10) / 10 });
    } catch {
      // A broken log sink must not break the call it describes.
    }
  }
}

/**
 * Removes the key from everything a failure carries that a person may read. It runs on every
 * error that leaves the client, even when no key was read: redactSecrets also masks what merely
 * looks like a credential (a bearer token a server echoed back).
 */
export function redactError(error: PlatformError, secrets: string[]): PlatformError {
  const message = redactSecrets(error.message, secrets);
  const details = error.details?.map((line) => redactSecrets(line, secrets));
  const changed = message !== error.message || details?.some((line, index) => line !== error.details?.[index]);
  if (!changed) return error;
  return new PlatformError({
    kind: error.kind,
    message,
    api: error.api,
    method: error.method,
    path: error.path,
    status: error.status,
    retryAfterMs: error.retryAfterMs,
    details,
    connection: error.connection,
  });
}

/** The error of the last attempt, noting how many were made; redacted again after the note. */
function finalError(error: PlatformError, attempts: number, secrets: string[]): PlatformError {
  if (attempts <= 1 || error.kind === 'aborted') return error;
  return redactError(error.withMessage(`${error.message} (gave up after ${attempts} attempts)`), secrets);
}
