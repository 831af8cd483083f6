/**
 * Raw HTTP servers on 127.0.0.1 that play a training API's job endpoints (and a model's checkpoint
 * list), well or badly, for the polling fault cases and the polling benchmark. They count what the
 * client did: requests per job and when (on the test's clock), how many were open at once, and
 * which ones the client gave up.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PlatformClient } from '../../../src/platform/client';
import type { JobSource } from '../../../src/training/model/jobTracker';

export interface WireEvent {
  id: string;
  type: string;
  data: Record<string, unknown>;
}

export interface WirePage {
  data: WireEvent[];
  has_more: boolean;
  last_id?: string;
}

/** What the server answers to GET …/training-jobs/{id}/events?after=…&limit=…. */
export type EventsBehaviour = (jobId: string, after: string | undefined, limit: number) => WirePage;

export interface WireCheckpoint {
  id: string;
  step: number;
  metrics: Record<string, number>;
}

/** What the server answers to GET …/models/{id}/checkpoints?after=…&limit=…&order=desc (newest first). */
export type CheckpointsBehaviour = (modelId: string, after: string | undefined, limit: number) => { data: WireCheckpoint[]; has_more: boolean };

export interface RecordedRequest {
  /** `events`, `job`, `checkpoints` or `system-check`. */
  kind: 'events' | 'job' | 'checkpoints' | 'system-check' | 'other';
  jobId?: string;
  modelId?: string;
  after?: string;
  /** The test's clock when the request arrived. */
  at: number;
}

export interface PollingServerOptions {
  events?: EventsBehaviour;
  checkpoints?: CheckpointsBehaviour;
  /** The test's clock, for request times (defaults to Date.now). */
  now?: () => number;
  /** Requests matching this are held open, never answered, until the client gives up or the server closes. */
  hold?(request: RecordedRequest): boolean;
  /** Keep at most this many recorded requests (the counts go on). */
  keepRequests?: number;
  /** Real milliseconds before each answer, so requests overlap as on a network (0: the next turn of the event loop). */
  answerDelayMs?: number;
}

export class PollingServer {
  readonly requests: RecordedRequest[] = [];
  /** Requests received, all kinds. */
  received = 0;
  open = 0;
  maxOpen = 0;
  /** Requests the client closed before an answer. */
  abandoned = 0;
  private readonly perJob = new Map<string, number>();
  private readonly held = new Set<ServerResponse>();
  private readonly server = createServer((request, response) => this.handle(request, response));
  private port = 0;

  constructor(private readonly options: PollingServerOptions) {}

  /** The training API address, ending with /v1. */
  get url(): string {
    return `http://127.0.0.1:${this.port}/v1`;
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  /** Events requests for one job so far. */
  count(jobId: string): number {
    return this.perJob.get(jobId) ?? 0;
  }

  /** Jobs whose events were asked for at least once. */
  jobsAsked(): number {
    return this.perJob.size;
  }

  async close(): Promise<void> {
    for (const response of this.held) response.destroy();
    this.held.clear();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const recorded = this.record(url);
    this.received++;
    this.open++;
    this.maxOpen = Math.max(this.maxOpen, this.open);
    let answered = false;
    response.on('finish', () => {
      answered = true;
    });
    response.on('close', () => {
      this.open--;
      this.held.delete(response);
      if (!answered) this.abandoned++;
    });
    if (this.options.hold?.(recorded)) {
      this.held.add(response);
      return;
    }
    const delay = this.options.answerDelayMs;
    if (delay === undefined) this.answer(url, recorded, response);
    else if (delay <= 0) setImmediate(() => this.answer(url, recorded, response));
    else setTimeout(() => this.answer(url, recorded, response), delay);
  }

  private answer(url: URL, recorded: RecordedRequest, response: ServerResponse): void {
    if (response.destroyed) return;
    if (recorded.kind === 'events' && recorded.jobId !== undefined) {
      const limit = Number(url.searchParams.get('limit') ?? 20);
      const page = (this.options.events ?? emptyEvents)(recorded.jobId, recorded.after, limit);
      return json(response, 200, { object: 'list', data: page.data, first_id: page.data[0]?.id ?? '', last_id: page.last_id ?? page.data.at(-1)?.id ?? '', has_more: page.has_more });
    }
    if (recorded.kind === 'checkpoints' && recorded.modelId !== undefined && this.options.checkpoints) {
      const page = this.options.checkpoints(recorded.modelId, recorded.after, Number(url.searchParams.get('limit') ?? 20));
      return json(response, 200, { object: 'list', data: page.data, first_id: page.data[0]?.id ?? '', last_id: page.data.at(-1)?.id ?? '', has_more: page.has_more });
    }
    if (recorded.kind === 'job') return json(response, 200, { id: recorded.jobId, status: 'running' });
    if (recorded.kind === 'system-check') return json(response, 200, { checks: { api: { success: true, duration: 0.01 } } });
    json(response, 404, { detail: 'Not Found' });
  }

  private record(url: URL): RecordedRequest {
    const now = (this.options.now ?? Date.now)();
    const events = /\/v1\/preview\/training-jobs\/([^/]+)\/events$/.exec(url.pathname);
    const job = /\/v1\/preview\/training-jobs\/([^/]+)$/.exec(url.pathname);
    const checkpoints = /\/v1\/preview\/models\/([^/]+)\/checkpoints$/.exec(url.pathname);
    let recorded: RecordedRequest;
    if (events) {
      const jobId = decodeURIComponent(events[1]!);
      recorded = { kind: 'events', jobId, after: url.searchParams.get('after') ?? undefined, at: now };
      this.perJob.set(jobId, (this.perJob.get(jobId) ?? 0) + 1);
    } else if (job) recorded = { kind: 'job', jobId: decodeURIComponent(job[1]!), at: now };
    else if (checkpoints) recorded = { kind: 'checkpoints', modelId: decodeURIComponent(checkpoints[1]!), after: url.searchParams.get('after') ?? undefined, at: now };
    else if (url.pathname.endsWith('/system-check')) recorded = { kind: 'system-check', at: now };
    else recorded = { kind: 'other', at: now };
    if (this.requests.length < (this.options.keepRequests ?? 100_000)) this.requests.push(recorded);
    return recorded;
  }
}

function json(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

const emptyEvents: EventsBehaviour = () => ({ data: [], has_more: false });

/** A gradient step as the platform sends it. */
export function gradientStep(id: string, step: number): WireEvent {
  return { id, type: 'gradient_step', data: { loss: 1 / (step + 1), learning_rate: 1e-5, num_tokens: 2048 } };
}

/**
 * A job's timeline as a function of how many events exist: event 0 is `training_started`
 * announcing `total` steps, then gradient steps. Ids are `<job>-e<index>`, so pages are cut without
 * keeping millions of events in memory.
 */
export function timeline(jobId: string, index: number, total: number): WireEvent {
  if (index === 0) return { id: `${jobId}-e0`, type: 'training_started', data: { num_sequences: total } };
  return gradientStep(`${jobId}-e${index}`, index);
}

function indexOf(jobId: string, after: string | undefined): number {
  if (!after) return 0;
  const match = new RegExp(`^${jobId.replace(/[^\w-]/g, '\\$&')}-e(\\d+)$`).exec(after);
  return match ? Number(match[1]) + 1 : 0;
}

/** Honours `after`: the events that exist now (`count(jobId)` of them), a page at a time. */
export function wellBehaved(count: (jobId: string) => number, total = 1000): EventsBehaviour {
  return (jobId, after, limit) => {
    const existing = count(jobId);
    const start = indexOf(jobId, after);
    const data: WireEvent[] = [];
    for (let index = start; index < existing && data.length < limit; index++) data.push(timeline(jobId, index, total));
    return { data, has_more: start + data.length < existing };
  };
}

/** Ignores `after`: always the first page of the events that exist now. */
export function ignoresAfter(count: (jobId: string) => number, total = 1000): EventsBehaviour {
  const honest = wellBehaved(count, total);
  return (jobId, _after, limit) => honest(jobId, undefined, limit);
}

/** Says has_more for ever, with the cursors A, B, A, B… and a page of events never seen before each time. */
export function alternatingCursors(): EventsBehaviour {
  let made = 0;
  let flip = false;
  return (jobId, _after, limit) => {
    flip = !flip;
    const data = Array.from({ length: limit }, () => gradientStep(`${jobId}-made${++made}`, made));
    return { data, has_more: true, last_id: flip ? 'cursor-A' : 'cursor-B' };
  };
}

/** The real client pointed at a server, with no retries: every request the tracker makes is one the server sees. */
export function clientFor(server: PollingServer): PlatformClient {
  return new PlatformClient({ trainingUrl: server.url, inferenceUrl: server.url, credentials: { getApiKey: async () => 'fault-key' }, maxRetries: 0 });
}

/** A job source over the real client, as the extension builds it. */
export function sourceFor(client: PlatformClient): JobSource {
  return {
    events: (jobId, query, signal) => client.training.listTrainingJobEvents(jobId, query, { signal }),
    job: (jobId, signal) => client.training.getTrainingJob(jobId, { signal }),
  };
}
