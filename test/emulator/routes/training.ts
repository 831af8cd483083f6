/** Routes of the training API (`/training/v1`): models, checkpoints, logs, training jobs, health. */
import { pageFrom } from '../paging';
import { route, type EmulatorEnv, type RequestContext, type Route } from '../context';
import { HttpError, ValidationError } from '../httpError';
import { createJob, rlJobSpec, sftJobSpec } from '../jobs';
import { describeJob } from '../jobClock';
import { afterQuery, jsonBody, limitQuery, orderQuery } from '../requestParsing';
import { createModelBody, createSftJobBody, createTrainingJobBody, deleteCheckpointsBody, logBody } from '../schemas';
import { DEFAULT_ENTITY, type JobRecord, type ModelRecord } from '../state';
import { validateBody } from '../validation';
import { chatCompletion } from './chat';

/** Paths reachable without an API key. */
export const PUBLIC_TRAINING_PATHS = new Set(['/health', '/system-check', '/preview/base-models']);

function modelOrThrow(ctx: RequestContext, id: string): ModelRecord {
  const model = ctx.env.state.models.get(id);
  if (!model) throw new HttpError(404, 'Model not found');
  return model;
}

function jobOrThrow(ctx: RequestContext, id: string): JobRecord {
  const job = ctx.env.state.jobs.get(id);
  if (!job) throw new HttpError(404, 'Training job not found');
  return job;
}

function describeModel(model: ModelRecord): Record<string, unknown> {
  return { id: model.id, entity: model.entity, project: model.project, name: model.name, base_model: model.base_model, run_id: model.run_id };
}

function unsupportedBaseModel(env: EmulatorEnv, baseModel: string): HttpError {
  return new HttpError(400, `Base model '${baseModel}' is not supported. Supported base models: ${env.baseModels.join(', ')}`);
}

function createModel(ctx: RequestContext) {
  const body = validateBody<{ project: string; name: string; base_model: string; entity?: string | null; return_existing?: boolean }>(jsonBody(ctx), createModelBody);
  const { state } = ctx.env;
  const entity = body.entity ?? DEFAULT_ENTITY;
  const existing = state.findModelByName(entity, body.project, body.name);
  if (existing) {
    if (body.return_existing) return { body: describeModel(existing) };
    throw new HttpError(409, `Model ${entity}/${body.project}/${body.name} already exists`);
  }
  if (!ctx.env.baseModels.includes(body.base_model)) throw unsupportedBaseModel(ctx.env, body.base_model);
  return { body: describeModel(state.createModel(entity, body.project, body.name, body.base_model)) };
}

function deleteModel(ctx: RequestContext, [id]: string[]) {
  const model = ctx.env.state.deleteModel(id!);
  if (!model) throw new HttpError(404, 'Model not found');
  return { body: { model_id: model.id, deleted_checkpoints: model.checkpoints.size, deleted_run: true } };
}

function listCheckpoints(ctx: RequestContext, [id]: string[]) {
  const model = modelOrThrow(ctx, id!);
  const limit = limitQuery(ctx);
  const order = orderQuery(ctx);
  const after = afterQuery(ctx);
  const page = model.checkpoints.page(after, limit, order);
  // An unknown cursor is a client mistake (or a checkpoint deleted meanwhile); it is reported as a
  // 422 on the `after` query parameter, so it cannot be mistaken for a missing model (404).
  if (!page) throw unknownCursor(after!, 'checkpoint', 'this model');
  return { body: page };
}

function unknownCursor(after: string, what: string, where: string): ValidationError {
  return new ValidationError([{ type: 'value_error', loc: ['query', 'after'], msg: `Value error, no ${what} with id '${after}' in ${where}`, input: after }]);
}

function deleteCheckpoints(ctx: RequestContext, [id]: string[]) {
  const model = modelOrThrow(ctx, id!);
  const body = validateBody<{ steps: number[] }>(jsonBody(ctx), deleteCheckpointsBody);
  const result = model.checkpoints.deleteSteps(body.steps);
  return { body: { deleted_count: result.deletedCount, not_found_steps: result.notFoundSteps } };
}

function logTrajectories(ctx: RequestContext, [id]: string[]) {
  const model = modelOrThrow(ctx, id!);
  const body = validateBody<{ model_id?: string; split: string; trajectory_groups: unknown[] }>(jsonBody(ctx), logBody);
  // A body naming another model than its path is a client's mistake, not a log to keep.
  if (body.model_id !== undefined && body.model_id !== id) {
    throw new ValidationError([{ type: 'value_error', loc: ['body', 'model_id'], msg: `Value error, the body names model '${body.model_id}' but the path names '${id}'`, input: body.model_id }]);
  }
  model.logs.push({ split: body.split, trajectoryGroups: body.trajectory_groups, at: ctx.env.now() });
  return { body: {} };
}

function createTrainingJob(ctx: RequestContext) {
  const body = validateBody<{ model_id: string; trajectory_groups: unknown[]; experimental_config?: unknown }>(jsonBody(ctx), createTrainingJobBody);
  modelOrThrow(ctx, body.model_id);
  return { body: { id: createJob(ctx.env.state, rlJobSpec(body, ctx.env.now())).id } };
}

function createSftJob(ctx: RequestContext) {
  const body = validateBody<{ model_id: string; training_data_url: string; config?: unknown }>(jsonBody(ctx), createSftJobBody);
  modelOrThrow(ctx, body.model_id);
  return { body: { id: createJob(ctx.env.state, sftJobSpec(body, ctx.env.now())).id } };
}

function getJob(ctx: RequestContext, [id]: string[]) {
  return { body: describeJob(jobOrThrow(ctx, id!)) };
}

function listJobEvents(ctx: RequestContext, [id]: string[]) {
  const job = jobOrThrow(ctx, id!);
  const limit = limitQuery(ctx);
  const after = afterQuery(ctx);
  let start = 0;
  if (after !== undefined) {
    const index = job.eventIndexById.get(after);
    // Same rule as checkpoints: an unknown cursor is a 422 on `after`.
    if (index === undefined) throw unknownCursor(after, 'event', 'this training job');
    start = index + 1;
  }
  return { body: pageFrom(job.events.length, (index) => job.events[index]!, start, 1, limit) };
}

const CHECKS = ['api', 'database', 'cpu_queue', 'gpu_queue'] as const;
const checkErrors: Record<(typeof CHECKS)[number], string> = {
  api: 'API process is not answering',
  database: 'Database connection timed out',
  cpu_queue: 'CPU queue is not accepting work',
  gpu_queue: 'GPU queue has no available workers',
};

function systemCheck(ctx: RequestContext) {
  const failing = ctx.env.state.systemCheckFailure;
  const body = Object.fromEntries(
    CHECKS.map((check, index) => [check, { success: check !== failing, duration: Math.round((0.002 + index * 0.003) * 1000) / 1000, error: check === failing ? checkErrors[check] : null }]),
  );
  return { status: failing ? 503 : 200, body };
}

export const trainingRoutes: readonly Route[] = [
  route('GET', '/health', () => ({ body: { status: 'ok' } })),
  route('GET', '/system-check', systemCheck),
  route('GET', '/preview/base-models', (ctx) => ({ body: [...ctx.env.baseModels] })),
  route('POST', '/chat/completions', (ctx) => chatCompletion(ctx)),
  route('POST', '/chat/completions/', (ctx) => chatCompletion(ctx)),
  route('POST', '/preview/models', createModel),
  route('DELETE', '/preview/models/:id', deleteModel),
  route('GET', '/preview/models/:id/checkpoints', listCheckpoints),
  route('DELETE', '/preview/models/:id/checkpoints', deleteCheckpoints),
  route('POST', '/preview/models/:id/log', logTrajectories),
  route('POST', '/preview/training-jobs', createTrainingJob),
  route('POST', '/preview/sft-training-jobs', createSftJob),
  route('GET', '/preview/training-jobs/:id', getJob),
  route('GET', '/preview/training-jobs/:id/events', listJobEvents),
];
