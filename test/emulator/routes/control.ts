/**
 * The control endpoint under `/_emulator/` (no auth, never faulted): lets the demo and tests in
 * another process inspect the emulator and inject faults.
 */
import { route, type RequestContext, type Route } from '../context';
import type { Fault, RateLimit } from '../contract';
import { addFault, faultProblem } from '../faults';
import { HttpError } from '../httpError';
import { changePace } from '../jobClock';
import { rateLimitProblem, setRateLimit } from '../rateLimit';
import { jsonBody } from '../requestParsing';
import { createModelWithCheckpoints } from '../seed';
import type { SystemCheckName } from '../state';
import { isPlainObject } from '../validation';

const CHECK_NAMES = new Set(['api', 'database', 'cpu_queue', 'gpu_queue']);

function objectBody(ctx: RequestContext): Record<string, unknown> {
  const body = jsonBody(ctx);
  if (!isPlainObject(body)) throw new HttpError(400, 'Send a JSON object');
  return body;
}

function describeState(ctx: RequestContext) {
  const { state, settings, seeded } = ctx.env;
  return {
    body: {
      seeded: seeded ?? null,
      counts: { models: state.models.size, checkpoints: state.checkpointCount(), jobs: state.jobs.size, requests: state.requests.length, faults: state.faults.length },
      models: [...state.models.values()].map((model) => ({ id: model.id, entity: model.entity, project: model.project, name: model.name, checkpoints: model.checkpoints.size })),
      jobs: [...state.jobs.values()].map((job) => ({ id: job.id, model_id: job.modelId, events: job.events.length })),
      secondsPerStep: settings.secondsPerStep,
      latencyMs: state.latencyMs,
      completionLatencyMs: state.completionLatencyMs,
      rateLimit: state.rateLimit.limit ?? null,
      rateLimited: state.rateLimit.answered,
      streamChunkDelayMs: settings.streamChunkDelayMs,
      streams: state.streams,
      systemCheckFailure: state.systemCheckFailure ?? null,
    },
  };
}

function postFault(ctx: RequestContext) {
  const body = objectBody(ctx);
  const problem = faultProblem(body);
  if (problem) throw new HttpError(400, problem);
  addFault(ctx.env.state, body as unknown as Fault);
  return { body: { faults: ctx.env.state.faults.length } };
}

function postLatency(ctx: RequestContext) {
  const { ms } = objectBody(ctx);
  if (typeof ms !== 'number' || !(ms >= 0)) throw new HttpError(400, 'Send {"ms": number >= 0}');
  ctx.env.state.latencyMs = ms;
  return { body: { latencyMs: ms } };
}

function postCompletionLatency(ctx: RequestContext) {
  const { ms } = objectBody(ctx);
  if (typeof ms !== 'number' || !(ms >= 0)) throw new HttpError(400, 'Send {"ms": number >= 0}');
  ctx.env.state.completionLatencyMs = ms;
  return { body: { completionLatencyMs: ms } };
}

function postRateLimit(ctx: RequestContext) {
  const body = objectBody(ctx);
  const problem = rateLimitProblem(body);
  if (problem) throw new HttpError(400, problem);
  setRateLimit(ctx.env.state, body as unknown as RateLimit);
  return { body: { rateLimit: ctx.env.state.rateLimit.limit ?? null } };
}

function postStreamDelay(ctx: RequestContext) {
  const { ms } = objectBody(ctx);
  if (typeof ms !== 'number' || !(ms >= 0)) throw new HttpError(400, 'Send {"ms": number >= 0}');
  ctx.env.settings.streamChunkDelayMs = ms;
  return { body: { streamChunkDelayMs: ms } };
}

function postSystemCheck(ctx: RequestContext) {
  const { fail } = objectBody(ctx);
  if (fail !== null && fail !== undefined && (typeof fail !== 'string' || !CHECK_NAMES.has(fail))) throw new HttpError(400, `fail must be null or one of ${[...CHECK_NAMES].join(', ')}`);
  ctx.env.state.systemCheckFailure = (fail ?? undefined) as SystemCheckName | undefined;
  return { body: { fail: fail ?? null } };
}

/** Longest outage the control endpoint takes: a typo must not take the emulator away for a day. */
const MAX_OUTAGE_SECONDS = 600;

function postOutage(ctx: RequestContext) {
  const { seconds } = objectBody(ctx);
  if (typeof seconds !== 'number' || !(seconds > 0) || seconds > MAX_OUTAGE_SECONDS) throw new HttpError(400, `Send {"seconds": number} between 0 and ${MAX_OUTAGE_SECONDS}`);
  const outage = ctx.env.outage;
  if (!outage) throw new HttpError(501, 'This emulator cannot go down');
  // Down only once this answer has left: going down closes this connection too.
  ctx.res.once('finish', () => outage(seconds * 1000));
  return { body: { down: true, seconds } };
}

function postPace(ctx: RequestContext) {
  const { secondsPerStep } = objectBody(ctx);
  if (typeof secondsPerStep !== 'number' || !(secondsPerStep > 0) || secondsPerStep > 3600) throw new HttpError(400, 'Send {"secondsPerStep": number} between 0 and 3600');
  changePace(ctx.env.state, ctx.env.settings, secondsPerStep);
  return { body: { secondsPerStep } };
}

function postModelWithCheckpoints(ctx: RequestContext) {
  const { name, count } = objectBody(ctx);
  if (typeof name !== 'string' || typeof count !== 'number' || !Number.isInteger(count) || count < 1) throw new HttpError(400, 'Send {"name": string, "count": integer >= 1}');
  try {
    return { body: { id: createModelWithCheckpoints(ctx.env, name, count).id } };
  } catch (error) {
    throw new HttpError(409, error instanceof Error ? error.message : String(error));
  }
}

export const controlRoutes: readonly Route[] = [
  route('GET', '/state', describeState),
  route('POST', '/faults', postFault),
  route('DELETE', '/faults', (ctx) => {
    ctx.env.state.faults.length = 0;
    return { body: { faults: 0 } };
  }),
  route('POST', '/latency', postLatency),
  route('POST', '/stream-delay', postStreamDelay),
  route('POST', '/completion-latency', postCompletionLatency),
  route('POST', '/rate-limit', postRateLimit),
  route('DELETE', '/rate-limit', (ctx) => {
    setRateLimit(ctx.env.state, undefined);
    return { body: { rateLimit: null } };
  }),
  route('POST', '/system-check', postSystemCheck),
  route('POST', '/models-with-checkpoints', postModelWithCheckpoints),
  route('POST', '/outage', postOutage),
  route('POST', '/pace', postPace),
  route('GET', '/requests', (ctx) => ({ body: ctx.env.state.requests })),
  route('DELETE', '/requests', (ctx) => {
    // Emptied in place: `emulator.requests` is the same array.
    ctx.env.state.requests.length = 0;
    return { body: { requests: 0 } };
  }),
];
