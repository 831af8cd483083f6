import type { PlatformErrorKind } from './errors';
import type { PlatformApi } from './types';

/** What a PlatformClient is built from, and the hooks it reports through. */

export interface CredentialsProvider {
  /** The platform API key, or undefined when the user is signed out. */
  getApiKey(): Promise<string | undefined>;
}

/** One attempt of one call. Never carries headers, keys or bodies. */
export interface RequestLogEntry {
  api: PlatformApi;
  method: string;
  /** The request path without the origin; the query string is kept. */
  path: string;
  /** Absent when no answer arrived (network failure, timeout, cancellation). */
  status?: number;
  /** Time until the answer was read (for streams: until the headers arrived). */
  ms: number;
  /** 1 for the first try, 2 for the first retry, and so on. */
  attempt: number;
  /** The one-line message of the failure of this attempt. */
  error?: string;
  /** The kind of that failure, so a reader can tell a refused connection from a cancelled call. */
  kind?: PlatformErrorKind;
}

export type RequestLogger = (entry: RequestLogEntry) => void;

export interface ClientOptions {
  /** Training API address ending with /v1, e.g. https://host/v1; a trailing slash is tolerated. */
  trainingUrl: string;
  /** Inference API address ending with /v1. */
  inferenceUrl: string;
  credentials: CredentialsProvider;
  /** `team/project`, sent as Compat-Project on inference calls only. */
  project?: string;
  /**
   * The whole of one attempt of a call that is not a stream, from sending the request to the last
   * byte of the answer: a server that drips its answer cannot stretch it. For a chat stream, the
   * wait for the headers. Default 60 000 ms.
   */
  timeoutMs?: number;
  /**
   * A chat stream fails when no byte arrives for this long (keep-alive comments count as bytes).
   * A stream has no total deadline: an answer may legitimately take minutes. Default: timeoutMs.
   */
  streamIdleTimeoutMs?: number;
  /** The largest JSON answer read; a larger one is not read at all. Default 32 MiB. */
  maxJsonBytes?: number;
  /** How much of an error body is read to describe the error; the rest is dropped. Default 64 KiB. */
  maxErrorBodyBytes?: number;
  /**
   * The largest single event of a chat stream, counted in characters of its text (one per byte
   * for the ASCII JSON servers send). A larger one ends the stream. Default 16 MiB.
   */
  maxStreamEventSize?: number;
  /** Open connections per API address at most. Default 16. */
  connectionsPerOrigin?: number;
  /** Default 10 000 ms. */
  connectTimeoutMs?: number;
  /** Retries after the first attempt. Default 3. */
  maxRetries?: number;
  /** First back-off step. Default 500 ms. */
  retryBaseDelayMs?: number;
  /** Upper bound of one back-off, Retry-After included. Default 20 000 ms. */
  retryMaxDelayMs?: number;
  logger?: RequestLogger;
  userAgent?: string;
}

export interface CallOptions {
  signal?: AbortSignal;
}

export interface ResolvedClientOptions {
  timeoutMs: number;
  streamIdleTimeoutMs: number;
  maxJsonBytes: number;
  maxErrorBodyBytes: number;
  maxStreamEventSize: number;
  connectionsPerOrigin: number;
  connectTimeoutMs: number;
  maxRetries: number;
  retryBaseDelayMs: number;
  retryMaxDelayMs: number;
  userAgent: string;
}

export const defaultUserAgent = 'rl-studio';
export const defaultMaxJsonBytes = 32 * 2 ** 20;
export const defaultMaxErrorBodyBytes = 64 * 2 ** 10;
export const defaultMaxStreamEventSize = 16 * 2 ** 20;
export const defaultConnectionsPerOrigin = 16;

export function resolveClientOptions(options: ClientOptions): ResolvedClientOptions {
  const timeoutMs = milliseconds(options.timeoutMs, 60_000);
  return {
    timeoutMs,
    streamIdleTimeoutMs: milliseconds(options.streamIdleTimeoutMs, timeoutMs),
    maxJsonBytes: positive(options.maxJsonBytes, defaultMaxJsonBytes),
    maxErrorBodyBytes: positive(options.maxErrorBodyBytes, defaultMaxErrorBodyBytes),
    maxStreamEventSize: positive(options.maxStreamEventSize, defaultMaxStreamEventSize),
    connectionsPerOrigin: Math.max(1, Math.floor(positive(options.connectionsPerOrigin, defaultConnectionsPerOrigin))),
    connectTimeoutMs: milliseconds(options.connectTimeoutMs, 10_000),
    // Retries are bounded whatever is asked: a setting of 1e9 must not become a loop.
    maxRetries: Math.min(maxRetriesAllowed, Math.floor(nonNegative(options.maxRetries, 3))),
    retryBaseDelayMs: Math.min(maxTimerMs, nonNegative(options.retryBaseDelayMs, 500)),
    retryMaxDelayMs: Math.min(maxTimerMs, nonNegative(options.retryMaxDelayMs, 20_000)),
    userAgent: options.userAgent || defaultUserAgent,
  };
}

/** Node fires a timer of more than 2^31 - 1 ms at once: longer waits are cut to that. */
const maxTimerMs = 2 ** 31 - 1;
const maxRetriesAllowed = 10;

function positive(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
}

function nonNegative(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value >= 0 ? value : fallback;
}

function milliseconds(value: number | undefined, fallback: number): number {
  return Math.min(maxTimerMs, positive(value, fallback));
}
