/**
 * The HTTP front door: splits the two APIs and the control endpoint by path prefix, records API
 * requests, applies latency and faults, checks keys, routes, and renders answers and errors in
 * the shape of the API that was called.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { findRoute, type EmulatorEnv, type Outcome, type RequestContext, type Route } from './context';
import { respondWithFault, takeFault } from './faults';
import { errorBody, HttpError, inferenceErrorBody, type ApiName } from './httpError';
import { advanceAllJobs } from './jobClock';
import { controlRoutes } from './routes/control';
import { inferenceRoutes } from './routes/inference';
import { PUBLIC_TRAINING_PATHS, trainingRoutes } from './routes/training';

export const TRAINING_PREFIX = '/training/v1';
export const INFERENCE_PREFIX = '/inference/v1';
export const CONTROL_PREFIX = '/_emulator';

/** `team/project`, as the inference API expects in `Compat-Project`. */
const PROJECT_HEADER = /^[^/\s]+\/[^/\s]+$/;

type Area = { kind: 'api'; api: ApiName; routes: readonly Route[]; path: string } | { kind: 'control'; path: string };

function areaOf(pathname: string): Area | undefined {
  const inside = (prefix: string) => (pathname === prefix || pathname.startsWith(`${prefix}/`) ? pathname.slice(prefix.length) || '/' : undefined);
  let path = inside(TRAINING_PREFIX);
  if (path !== undefined) return { kind: 'api', api: 'training', routes: trainingRoutes, path };
  path = inside(INFERENCE_PREFIX);
  if (path !== undefined) return { kind: 'api', api: 'inference', routes: inferenceRoutes, path };
  path = inside(CONTROL_PREFIX);
  if (path !== undefined) return { kind: 'control', path };
  return undefined;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
  res.end(text);
}

function sendError(res: ServerResponse, api: ApiName, error: HttpError): void {
  // The inference API is OpenAI-compatible: it reports invalid requests as 400, not FastAPI's 422.
  if (api === 'inference' && error.status === 422) {
    sendJson(res, 400, inferenceErrorBody(400, error.message, 'invalid_request'), error.headers);
    return;
  }
  sendJson(res, error.status, errorBody(api, error), error.headers);
}

function checkAuth(env: EmulatorEnv, api: ApiName, path: string, req: IncomingMessage): void {
  if (api === 'training' && PUBLIC_TRAINING_PATHS.has(path)) return;
  const header = req.headers.authorization;
  const challenge = { 'www-authenticate': 'Bearer' };
  if (!header) throw new HttpError(401, 'Not authenticated: send Authorization: Bearer <API key>', 'missing_api_key', challenge);
  const match = /^Bearer\s+(.+)$/i.exec(header);
  if (!match || match[1]!.trim() !== env.settings.apiKey) throw new HttpError(401, 'Invalid API key', 'invalid_api_key', challenge);
  if (api === 'inference') {
    const project = req.headers['compat-project'];
    if (project !== undefined && (typeof project !== 'string' || !PROJECT_HEADER.test(project))) {
      throw new HttpError(401, `Invalid Compat-Project header '${String(project)}': expected team/project`, 'invalid_project');
    }
  }
}

async function dispatch(ctx: RequestContext, routes: readonly Route[]): Promise<Outcome> {
  const match = findRoute(routes, ctx.method, ctx.path);
  if (!match) throw new HttpError(404, 'Not Found');
  if ('methodNotAllowed' in match) throw new HttpError(405, 'Method Not Allowed');
  return match.route.handle(ctx, match.params);
}

export interface ServerHooks {
  /** Called once per finished request, for the CLI's log. */
  onResponse?: (line: string) => void;
}

export function createRequestListener(env: EmulatorEnv, hooks: ServerHooks = {}) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const started = env.now();
    if (hooks.onResponse) {
      const log = hooks.onResponse;
      res.on('close', () => log(`${req.method} ${req.url} ${res.headersSent ? res.statusCode : 'reset'} ${env.now() - started}ms`));
    }
    handle(env, req, res).catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      if (!res.headersSent) sendJson(res, 500, { detail: `Internal emulator error: ${message}` });
      else res.destroy();
    });
  };
}

async function handle(env: EmulatorEnv, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const method = (req.method ?? 'GET').toUpperCase();
  const rawBody = await readBody(req);
  const area = areaOf(url.pathname);
  if (!area) {
    sendJson(res, 404, { detail: 'Not Found' });
    return;
  }
  const base = { method, path: area.path, query: url.searchParams, headers: req.headers, rawBody, req, res, env };
  if (area.kind === 'control') {
    advanceAllJobs(env.state, env.now(), env.settings.secondsPerStep);
    // Control answers use the training API's plain `{"detail": ...}` error shape.
    await answer({ ...base, api: 'training', cutStreamAfter: undefined }, controlRoutes);
    return;
  }

  env.state.recordRequest({ method, path: url.pathname, query: Object.fromEntries(url.searchParams), headers: { ...req.headers }, body: rawBody, at: env.now() });
  if (env.state.latencyMs > 0) await env.sleep(env.state.latencyMs);
  if (env.isClosed()) {
    res.destroy();
    return;
  }
  const fault = takeFault(env.state, method, url.pathname);
  if (fault && respondWithFault(res, area.api, fault, env.state.random)) return;
  const ctx: RequestContext = { ...base, api: area.api, cutStreamAfter: fault?.kind === 'cut-stream' ? fault.afterChunks : undefined };
  advanceAllJobs(env.state, env.now(), env.settings.secondsPerStep);
  await answer(ctx, area.routes, () => checkAuth(env, area.api, area.path, req));
}

/** Routes the request and writes its answer; `check` runs first (authentication) inside the same error handling. */
async function answer(ctx: RequestContext, routes: readonly Route[], check?: () => void): Promise<void> {
  try {
    check?.();
    const outcome = await dispatch(ctx, routes);
    if (outcome !== 'handled') sendJson(ctx.res, outcome.status ?? 200, outcome.body, outcome.headers);
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    if (ctx.res.headersSent) ctx.res.destroy();
    else sendError(ctx.res, ctx.api, error);
  }
}
