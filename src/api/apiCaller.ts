/**
 * Sends the calls of one API (training or inference): builds the request, adds the key, retries
 * what may be retried, logs each attempt, and makes sure every failure leaves as a PlatformError
 * without the key in it.
 */
import { resolveApiBase, queryString, type ResolvedBase } from './baseUrl';
import { PlatformError } from './errors';
import { classifyFailure } from './failures';
import type { CredentialsProvider, RequestLogger, ResolvedClientOptions } from './options';
import { redactSecrets } from './redact';
import { mayRetry, retryDelay, sleep } from './retry';
import type { AnswerContext } from './responses';
import type { Transport, TransportResponse } from './transport';

export type PlatformApi = 'training' | 'inference';
export type HttpMethod = 'GET' | 'POST' | 'DELETE';

export interface CallSpec<T> {
  method: HttpMethod;
  /** Relative to the API address (which carries /v1), e.g. '/preview/models'. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  /** Sent as JSON. */
  body?: unknown;
  /** Health, system check and base models need no key. */
  auth: boolean;
  /** Asks for server-sent events instead of JSON. */
  stream?: boolean;
  signal?: AbortSignal;
  /** Reads the answer of one attempt; a PlatformError it throws goes through the retry policy. */
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
    const fullPath = (this.base.ok ? this.base.base.pathPrefix : '') + spec.path + queryString(spec.query);
    const fail = (kind: PlatformError['kind'], message: string) =>
      new PlatformError({ kind, message, api: this.api, method, path: fullPath });

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
    const secrets = key ? [key] : [];
    const headers = this.headers(key, spec);
    const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    const { options, transport } = this.shared;
    const context: AnswerContext = { api: this.api, method, path: fullPath, secrets };
    const attempts = options.maxRetries + 1;

    for (let attempt = 1; ; attempt++) {
      const started = performance.now();
      let status: number | undefined;
      try {
        const response = await transport.request({
          origin: base.origin,
          path: fullPath,
          method,
          headers,
          body,
          signal: spec.signal,
          headersTimeout: options.timeoutMs,
          bodyTimeout: options.timeoutMs,
        });
        status = response.statusCode;
        const value = await spec.read(response, context);
        this.log({ method, path: fullPath, status, ms: performance.now() - started, attempt });
        return value;
      } catch (raw) {
        const failure = classifyFailure(raw, {
          api: this.api,
          method,
          path: fullPath,
          hostAndPort: base.hostAndPort,
          timeoutMs: options.timeoutMs,
          connectTimeoutMs: options.connectTimeoutMs,
          signal: spec.signal,
        });
        const error = redactError(failure.error, secrets);
        this.log({ method, path: fullPath, status: status ?? error.status, ms: performance.now() - started, attempt, error: error.message });
        if (attempt >= attempts || !mayRetry(method, spec.path, failure)) throw finalError(error, attempt);
        try {
          await sleep(retryDelay(attempt, { baseDelayMs: options.retryBaseDelayMs, maxDelayMs: options.retryMaxDelayMs }, error.retryAfterMs), spec.signal);
        } catch {
          throw fail('aborted', `${method} ${fullPath} was cancelled`);
        }
      }
    }
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

  private log(entry: { method: string; path: string; status?: number; ms: number; attempt: number; error?: string }): void {
    const logger = this.shared.logger;
    if (!logger) return;
    try {
      logger({ api: this.api, ...entry, ms: Math.round(entry.ms * 10) / 10 });
    } catch {
      // A broken log sink must not break the call it describes.
    }
  }
}

/** Removes the key from everything a failure carries that a person may read. */
export function redactError(error: PlatformError, secrets: string[]): PlatformError {
  if (secrets.length === 0) return error;
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
  });
}

function finalError(error: PlatformError, attempts: number): PlatformError {
  if (attempts <= 1 || error.kind === 'aborted') return error;
  return error.withMessage(`${error.message} (gave up after ${attempts} attempts)`);
}
