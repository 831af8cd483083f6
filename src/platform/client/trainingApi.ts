/** The calls of the training API (models, checkpoints, training jobs, health). */
import { ChatCompletionsApi } from './chatCompletionsApi';
import type { CallOptions } from './options';
import { discardBody, errorFromResponse, header, httpError, isSuccess, parseJsonAnswer, readAnswerText, readErrorText } from './responses';
import { hasId, isObject, isPage, readShaped, unexpectedShape } from './shapes';
import type {
  Checkpoint,
  CheckpointQuery,
  CreatedJob,
  CreateModelRequest,
  CreateSftJobRequest,
  CreateTrainingJobRequest,
  DeleteCheckpointsResult,
  DeleteModelResult,
  LogRequest,
  Page,
  PageQuery,
  SystemCheck,
  TrainingJob,
  TrainingJobEvent,
  TrainingModel,
} from './types';

export interface SystemCheckResult {
  /** Every check passed (the server answered 200 and no check reports a failure). */
  healthy: boolean;
  /** 200, or 503 when a check failed. */
  status: number;
  checks: SystemCheck;
}

// Ids are filled in by the caller, which refuses any id that could change the path (pathIds.ts).
const modelPath = '/preview/models/{modelId}';
const jobPath = '/preview/training-jobs/{jobId}';

// Built once: they are the same for every call.
const readModel = readShaped((value): value is TrainingModel => hasId(value), 'a model');
const readCheckpointPage = readShaped((value): value is Page<Checkpoint> => isPage(value), 'a page of checkpoints');
const readJob = readShaped((value): value is TrainingJob => hasId(value), 'a training job');
const readEventPage = readShaped((value): value is Page<TrainingJobEvent> => isPage(value), 'a page of training-job events');
const readAnyJson = readShaped((_value): _value is unknown => true, 'JSON');
const readCreatedJob = readShaped((value): value is CreatedJob => hasId(value), 'a created job');
const readNameList = readShaped((list): list is unknown[] => Array.isArray(list), 'a list of model names');
const readDeletedModel = readShaped((value): value is DeleteModelResult => isObject(value), 'a deletion result');
const readDeletedCheckpoints = readShaped((value): value is DeleteCheckpointsResult => isObject(value), 'a deletion result');

export class TrainingApi extends ChatCompletionsApi {
  createModel(request: CreateModelRequest, options?: CallOptions): Promise<TrainingModel> {
    return this.caller.call({
      method: 'POST',
      path: '/preview/models',
      body: request,
      auth: true,
      signal: options?.signal,
      read: readModel,
    });
  }

  deleteModel(modelId: string, options?: CallOptions): Promise<DeleteModelResult> {
    return this.caller.call({
      method: 'DELETE',
      path: modelPath,
      pathIds: { modelId },
      auth: true,
      signal: options?.signal,
      read: readDeletedModel,
    });
  }

  listCheckpoints(modelId: string, query: CheckpointQuery = {}, options?: CallOptions): Promise<Page<Checkpoint>> {
    return this.caller.call({
      method: 'GET',
      path: `${modelPath}/checkpoints`,
      pathIds: { modelId },
      query: { after: query.after, limit: query.limit, order: query.order },
      auth: true,
      signal: options?.signal,
      read: readCheckpointPage,
    });
  }

  deleteCheckpoints(modelId: string, steps: number[], options?: CallOptions): Promise<DeleteCheckpointsResult> {
    return this.caller.call({
      method: 'DELETE',
      path: `${modelPath}/checkpoints`,
      pathIds: { modelId },
      body: { steps },
      auth: true,
      signal: options?.signal,
      read: readDeletedCheckpoints,
    });
  }

  log(modelId: string, request: LogRequest, options?: CallOptions): Promise<void> {
    return this.caller.call({
      method: 'POST',
      path: `${modelPath}/log`,
      pathIds: { modelId },
      // The model's id in the body too, as the official client sends it.
      body: { model_id: modelId, ...request },
      auth: true,
      signal: options?.signal,
      read: async (response, context) => {
        if (!isSuccess(response.statusCode)) throw await errorFromResponse(response, context);
        // The answer is an empty object; only success matters.
        await discardBody(response);
      },
    });
  }

  createTrainingJob(request: CreateTrainingJobRequest, options?: CallOptions): Promise<CreatedJob> {
    return this.createJob('/preview/training-jobs', request, options);
  }

  createSftJob(request: CreateSftJobRequest, options?: CallOptions): Promise<CreatedJob> {
    return this.createJob('/preview/sft-training-jobs', request, options);
  }

  getTrainingJob(jobId: string, options?: CallOptions): Promise<TrainingJob> {
    return this.caller.call({
      method: 'GET',
      path: jobPath,
      pathIds: { jobId },
      auth: true,
      signal: options?.signal,
      read: readJob,
    });
  }

  listTrainingJobEvents(jobId: string, query: PageQuery = {}, options?: CallOptions): Promise<Page<TrainingJobEvent>> {
    return this.caller.call({
      method: 'GET',
      path: `${jobPath}/events`,
      pathIds: { jobId },
      query: { after: query.after, limit: query.limit },
      auth: true,
      signal: options?.signal,
      read: readEventPage,
    });
  }

  /** The base models new models can start from; undefined when the server has no such endpoint. */
  baseModels(options?: CallOptions): Promise<string[] | undefined> {
    return this.caller.call({
      method: 'GET',
      path: '/preview/base-models',
      auth: false,
      signal: options?.signal,
      read: async (response, context) => {
        if (response.statusCode === 404 || response.statusCode === 405) {
          await discardBody(response);
          return undefined;
        }
        const value = await readNameList(response, context);
        return value.filter((name): name is string => typeof name === 'string');
      },
    });
  }

  health(options?: CallOptions): Promise<unknown> {
    return this.caller.call({
      method: 'GET',
      path: '/health',
      auth: false,
      signal: options?.signal,
      read: readAnyJson,
    });
  }

  /** A 503 that carries the checks is an answer (something is unhealthy), not a failure. */
  systemCheck(options?: CallOptions): Promise<SystemCheckResult> {
    return this.caller.call({
      method: 'GET',
      path: '/system-check',
      auth: false,
      signal: options?.signal,
      read: async (response, context) => {
        const status = response.statusCode;
        if (status === 503) {
          const text = await readErrorText(response, context).catch(() => '');
          const checks = checksIn(safeParse(text));
          if (checks) return { healthy: false, status, checks };
          throw httpError(status, text, response.headers, context);
        }
        if (!isSuccess(status)) throw await errorFromResponse(response, context);
        const checks = checksIn(parseJsonAnswer<unknown>(await readAnswerText(response, context), status, header(response, 'content-type'), context));
        if (!checks) throw unexpectedShape(context, 'a system check', status);
        return { healthy: Object.values(checks).every((entry) => !isObject(entry) || entry.success !== false), status, checks };
      },
    });
  }

  private createJob(path: string, body: unknown, options: CallOptions | undefined): Promise<CreatedJob> {
    return this.caller.call({
      method: 'POST',
      path,
      body,
      auth: true,
      signal: options?.signal,
      read: readCreatedJob,
    });
  }
}

/** The checks of a system-check answer: the body itself, or its `checks` member when nested. */
function checksIn(value: unknown): SystemCheck | undefined {
  if (!isObject(value)) return undefined;
  if (isObject(value.checks)) return value.checks as SystemCheck;
  return value as SystemCheck;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
