/** What a route handler gets: the parsed request, the store and the emulator's settings. */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { SeededIds } from './contract';
import type { ApiName } from './httpError';
import type { EmulatorState } from './state';

export interface InferenceModel {
  id: string;
  created: number;
  owned_by: string;
  root: string;
  /** The context in tokens, sent as `max_model_len` as vLLM servers do; absent for a model that does not say. */
  maxModelLen?: number;
}

export interface EmulatorSettings {
  apiKey: string;
  secondsPerStep: number;
  streamChunkDelayMs: number;
}

/** Shared by every request of one emulator. */
export interface EmulatorEnv {
  readonly state: EmulatorState;
  readonly settings: EmulatorSettings;
  readonly baseModels: readonly string[];
  readonly inferenceModels: readonly InferenceModel[];
  seeded: SeededIds | undefined;
  now(): number;
  /** A wait that does not keep the process alive and ends early when the emulator closes. */
  sleep(ms: number): Promise<void>;
  isClosed(): boolean;
  /** Stops listening for `ms` and then listens again on the same port (the control endpoint's outage). */
  outage?(ms: number): void;
}

export interface RequestContext {
  readonly api: ApiName;
  readonly method: string;
  /** Path inside the API, e.g. `/preview/models` (no `/training/v1` prefix). */
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  readonly rawBody: string;
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly env: EmulatorEnv;
  /** Set by a `cut-stream` fault: the stream is cut after this many chunks. */
  readonly cutStreamAfter: number | undefined;
}

/** A JSON answer, or 'handled' when the handler wrote the response itself (streams). */
export type Outcome = { status?: number; body: unknown; headers?: Record<string, string> } | 'handled';

export type Handler = (ctx: RequestContext, params: string[]) => Outcome | Promise<Outcome>;

export interface Route {
  method: string;
  pattern: RegExp;
  handle: Handler;
}

/** A route from a template such as `/preview/models/:id/checkpoints`; `:name` matches one path segment. */
export function route(method: string, template: string, handle: Handler): Route {
  const source = template.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[a-z_]+/g, '([^/]+)');
  return { method, pattern: new RegExp(`^${source}$`), handle };
}

export type RouteMatch = { route: Route; params: string[] } | { methodNotAllowed: true } | undefined;

export function findRoute(routes: readonly Route[], method: string, path: string): RouteMatch {
  let pathMatched = false;
  for (const candidate of routes) {
    const match = candidate.pattern.exec(path);
    if (!match) continue;
    pathMatched = true;
    if (candidate.method === method) return { route: candidate, params: match.slice(1).map((part) => decodeURIComponent(part)) };
  }
  return pathMatched ? { methodNotAllowed: true } : undefined;
}
