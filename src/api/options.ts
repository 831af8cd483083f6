/** What a PlatformClient is built from, and the hooks it reports through. */

export interface CredentialsProvider {
  /** The platform API key, or undefined when the user is signed out. */
  getApiKey(): Promise<string | undefined>;
}

/** One attempt of one call. Never carries headers, keys or bodies. */
export interface RequestLogEntry {
  api: 'training' | 'inference';
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
  /** Wait for the headers, and between two reads of the body. Default 60 000 ms. */
  timeoutMs?: number;
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
  connectTimeoutMs: number;
  maxRetries: number;
  retryBaseDelayMs: number;
  retryMaxDelayMs: number;
  userAgent: string;
}

export const defaultUserAgent = 'rl-studio';

export function resolveClientOptions(options: ClientOptions): ResolvedClientOptions {
  return {
    timeoutMs: positive(options.timeoutMs, 60_000),
    connectTimeoutMs: positive(options.connectTimeoutMs, 10_000),
    maxRetries: Math.max(0, Math.floor(options.maxRetries ?? 3)),
    retryBaseDelayMs: Math.max(0, options.retryBaseDelayMs ?? 500),
    retryMaxDelayMs: Math.max(0, options.retryMaxDelayMs ?? 20_000),
    userAgent: options.userAgent || defaultUserAgent,
  };
}

function positive(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
}
