/**
 * The programmatic surface of the local platform emulator. Tests, the benchmark and the demo
 * depend on this file only; the implementation lives beside it.
 *
 * One HTTP server on 127.0.0.1 serves both APIs under path prefixes:
 *   training API  = `${url}/training/v1`
 *   inference API = `${url}/inference/v1`
 * and a control endpoint under `${url}/_emulator/` (see below).
 */

export interface EmulatorOptions {
  /** Port on 127.0.0.1; 0 (default) picks a free one. */
  port?: number;
  /** The only API key accepted (Bearer). Default 'emulator-key'. */
  apiKey?: string;
  /** Seconds of emulated time per gradient step. Default 0.05 (tests); the demo uses about 2. */
  secondsPerStep?: number;
  /** Seed the demo data (base models, a model with checkpoints, a running job, a failed job). Default true. */
  seed?: boolean;
  /** Delay between streamed chat chunks in ms. Default 0. */
  streamChunkDelayMs?: number;
  /** Fixed extra time every chat completion takes before it answers, in ms (benchmarks). Default 0. */
  completionLatencyMs?: number;
  /** Called with one line per finished request (method, path, status, duration), e.g. for a console log. */
  onRequest?: (line: string) => void;
}

export type FaultMatch = {
  /** Upper-case method, e.g. 'GET'. Any when absent. */
  method?: string;
  /** Substring of the path (including the /training/v1 or /inference/v1 prefix). Any when absent. */
  path?: string;
};

/**
 * A fault applies to the next `times` matching requests (default 1; -1 = until cleared).
 * Faults are checked in the order they were added; the first matching one is used up.
 */
export type Fault = FaultMatch & { times?: number } & (
    | { kind: 'status'; status: number; retryAfter?: number; body?: 'json-error' | 'detail-string' | 'empty' }
    | { kind: 'html'; status: number }
    | { kind: 'truncated-json' }
    | { kind: 'garbage' }
    | { kind: 'reset' }
    | { kind: 'cut-stream'; afterChunks: number }
  );

/**
 * Chat completions answered 429 with Retry-After: the requests whose body hashes under `fraction`
 * (the same ones every run), each `times` times in a row (default 1) before it passes.
 */
export interface RateLimit {
  /** Between 0 (no limit) and 1 (every request). */
  fraction: number;
  /** Whole seconds sent in Retry-After. Default 1. */
  retryAfterSeconds?: number;
  times?: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  at: number;
}

export interface SeededIds {
  baseModels: string[];
  /** Inference catalogue model ids. */
  inferenceModels: string[];
  /** A training model that already has checkpoints. */
  trainedModelId: string;
  trainedModelEntity: string;
  trainedModelProject: string;
  trainedModelName: string;
  runningJobId: string;
  failedJobId: string;
  succeededJobId: string;
}

export interface Emulator {
  readonly url: string;
  readonly trainingUrl: string;
  readonly inferenceUrl: string;
  readonly apiKey: string;
  readonly seeded: SeededIds | undefined;
  /** Every request received, oldest first (also at GET /_emulator/requests). */
  readonly requests: RecordedRequest[];
  addFault(fault: Fault): void;
  clearFaults(): void;
  /** Extra latency before every response, in ms. */
  setLatency(ms: number): void;
  /** Delay between streamed chat chunks from now on, in ms (also POST /_emulator/stream-delay {ms}). */
  setStreamChunkDelay(ms: number): void;
  /** Fixed extra time every chat completion takes from now on, in ms (also POST /_emulator/completion-latency {ms}). */
  setCompletionLatency(ms: number): void;
  /** Answers a fraction of chat completions 429 (also POST /_emulator/rate-limit); undefined or a fraction of 0 lifts it. */
  setRateLimit(limit: RateLimit | undefined): void;
  /** Chat completions answered 429 by the rate limit so far (also `rateLimited` in GET /_emulator/state). */
  rateLimitedCount(): number;
  /** Chat streams sent to the end, and those the client closed before the end (also in GET /_emulator/state). */
  streamStats(): { completed: number; closedByClient: number };
  /** Make one system check fail (503 from /system-check) or pass again. */
  setSystemCheckFailure(check: 'api' | 'database' | 'cpu_queue' | 'gpu_queue' | undefined): void;
  /** Create a model with `count` checkpoints directly (for paging tests and benchmarks). */
  createModelWithCheckpoints(name: string, count: number): Promise<string>;
  /**
   * Emulated seconds per gradient step of the jobs created from now on; jobs created before keep
   * their pace (a test that wants to watch a job run slows the next one down).
   */
  setSecondsPerStep(seconds: number): void;
  /**
   * Takes the platform down (false) or brings it back (true), as an outage looks to a client:
   * down, the server stops listening and drops every open connection, so calls fail with
   * "connection refused"; back, it listens on the same port again with everything it held. Jobs go
   * on meanwhile, as on a real platform. Resolves once the change is done.
   * (From another process: `POST /_emulator/outage {"seconds": n}` goes down for n seconds.)
   */
  setReachable(reachable: boolean): Promise<void>;
  /** False while taken down with setReachable(false) or an outage. */
  readonly reachable: boolean;
  close(): Promise<void>;
}

export type StartEmulator = (options?: EmulatorOptions) => Promise<Emulator>;
