/** The emulator's in-memory store: models with their checkpoints and logs, training jobs. */
import { CheckpointList } from './checkpointList';
import type { Fault, RecordedRequest } from './contract';
import { Prng } from './prng';
import { newRateLimitState, type RateLimitState } from './rateLimit';

export interface LoggedGroups {
  split: string;
  trajectoryGroups: unknown[];
  at: number;
}

export interface ModelRecord {
  id: string;
  entity: string;
  project: string;
  name: string;
  base_model: string;
  run_id: string;
  checkpoints: CheckpointList;
  logs: LoggedGroups[];
}

export interface JobEvent {
  id: string;
  type: 'training_started' | 'gradient_step' | 'training_ended' | 'training_failed';
  data: Record<string, unknown>;
}

export interface JobRecord {
  id: string;
  modelId: string;
  kind: 'rl' | 'sft';
  /** Wall time (ms) the job was queued; the whole timeline is derived from it. */
  createdAt: number;
  /** Gradient steps announced by `training_started`. */
  totalSteps: number;
  /** When set, the job fails after this many gradient steps with `errorMessage`. */
  failAfterStep?: number;
  errorMessage?: string;
  learningRate: number;
  /** Tokens per gradient step, grows with the size of the input. */
  tokensPerStep: number;
  events: JobEvent[];
  eventIndexById: Map<string, number>;
  startedAt?: number;
  endedAt?: number;
  input: unknown;
  /** This job's pace, when it differs from the emulator's current one (see setSecondsPerStep). */
  secondsPerStep?: number;
}

export interface ActiveFault {
  fault: Fault;
  /** Matching requests still to spoil; -1 = until cleared. */
  remaining: number;
}

export type SystemCheckName = 'api' | 'database' | 'cpu_queue' | 'gpu_queue';

export const DEFAULT_ENTITY = 'emulator-entity';

/**
 * A demo left running for days must not grow without bound: past this many recorded requests the
 * oldest tenth is dropped (in one go, so that recording stays cheap).
 */
const MAX_RECORDED_REQUESTS = 100_000;

export class EmulatorState {
  readonly models = new Map<string, ModelRecord>();
  readonly jobs = new Map<string, JobRecord>();
  readonly requests: RecordedRequest[] = [];
  /** Faults waiting for their requests, in the order they were added. */
  readonly faults: ActiveFault[] = [];
  latencyMs = 0;
  /** Extra time of every chat completion (after the rate limit, before the answer). */
  completionLatencyMs = 0;
  readonly rateLimit: RateLimitState = newRateLimitState();
  /** Chat streams sent to the end, and those the client closed before the end (Stop, cancel). */
  readonly streams = { completed: 0, closedByClient: 0 };
  systemCheckFailure: SystemCheckName | undefined;
  /** Ids and other random-looking values come from one seeded generator. */
  readonly random = new Prng(0x5eed);
  private readonly modelIdByName = new Map<string, string>();

  recordRequest(request: RecordedRequest): void {
    this.requests.push(request);
    if (this.requests.length > MAX_RECORDED_REQUESTS) this.requests.splice(0, MAX_RECORDED_REQUESTS / 10);
  }

  static nameKey(entity: string, project: string, name: string): string {
    return `${entity}/${project}/${name}`;
  }

  findModelByName(entity: string, project: string, name: string): ModelRecord | undefined {
    const id = this.modelIdByName.get(EmulatorState.nameKey(entity, project, name));
    return id === undefined ? undefined : this.models.get(id);
  }

  /** Creates a model with its untrained step-0 checkpoint. */
  createModel(entity: string, project: string, name: string, baseModel: string): ModelRecord {
    const model: ModelRecord = {
      id: this.random.uuid(),
      entity,
      project,
      name,
      base_model: baseModel,
      run_id: this.random.alphanumeric(8).toLowerCase(),
      checkpoints: new CheckpointList(),
      logs: [],
    };
    model.checkpoints.add({ id: this.random.uuid(), step: 0, metrics: {} });
    this.models.set(model.id, model);
    this.modelIdByName.set(EmulatorState.nameKey(entity, project, name), model.id);
    return model;
  }

  deleteModel(id: string): ModelRecord | undefined {
    const model = this.models.get(id);
    if (!model) return undefined;
    this.models.delete(id);
    this.modelIdByName.delete(EmulatorState.nameKey(model.entity, model.project, model.name));
    return model;
  }

  checkpointCount(): number {
    let count = 0;
    for (const model of this.models.values()) count += model.checkpoints.size;
    return count;
  }
}
