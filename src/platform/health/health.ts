/**
 * The health of both APIs as RL Studio last saw it: from the status bar's checks and from every
 * call any feature made. A refused connection anywhere marks that API unreachable at once; an
 * answer anywhere marks it reachable again. Views and the status bar read the same state, so they
 * never disagree about whether the platform answers.
 */
import { describeFacts, duration, failureLabel, isConnectionFailure, type Failure, type FailureContext } from '../client/describeFailure';
import type { PlatformErrorKind } from '../client/errors';
import type { PlatformApi } from '../client/types';
import { systemClock, type Clock } from '../kit/clock';
import { codeText, escapeMarkdown } from '../kit/markdownText';

export type HealthLevel = 'healthy' | 'degraded' | 'down' | 'unknown';

export interface SystemCheckLike {
  healthy: boolean;
  status: number;
  checks: Record<string, unknown>;
}

/** What one API answered to a check: a result, a failure, or nothing because it was not asked. */
export type ApiProbe<T> = { state: 'ok'; value: T; ms: number } | { state: 'error'; failure: Failure } | { state: 'skipped'; reason: string };

/** What is known about one API. */
export type ApiCondition =
  | { readonly state: 'unknown' }
  | { readonly state: 'skipped'; readonly reason: string }
  /** It answered; `system` is the training API's last system check, when one was read. */
  | { readonly state: 'reachable'; readonly at: number; readonly ms?: number; readonly system?: SystemCheckLike }
  /** Its calls fail for a reason that concerns the whole API (no connection, 5xx, 429, key refused). */
  | { readonly state: 'failing'; readonly failure: Failure; readonly at: number; readonly since: number };

export interface HealthSummary {
  level: HealthLevel;
  /** Short text for the status bar. */
  text: string;
  /** Markdown lines for the tooltip. */
  detail: string[];
  /**
   * Something fails that may pass by itself (no connection, 5xx, 429, a failing system check): worth
   * checking again within seconds. A refused key is not: it stays refused until someone signs in.
   */
  retrySoon?: boolean;
}

export interface HealthChange {
  readonly api: PlatformApi;
  readonly previous: ApiCondition;
  readonly current: ApiCondition;
  /** It was failing and answers again: views that failed should read again now. */
  readonly recovered: boolean;
}

/** What one call's outcome says about its API. */
export type CallVerdict = 'answered' | 'down' | 'degraded' | 'rejected' | 'none';

/**
 * How a failure bears on the whole API: no connection is "down", a refused key "rejected", a
 * server that answers with errors or asks to slow down "degraded" (a 429 is never "down"). A
 * refusal of one request (404, 422) proves the server answers; a call that never left (signed
 * out, cancelled) says nothing.
 */
export function verdictOf(failure: Failure): CallVerdict {
  if (isConnectionFailure(failure)) return 'down';
  switch (failure.kind) {
    case 'rejected':
      return 'rejected';
    case 'rate-limited':
    case 'unavailable':
    case 'server-error':
    case 'bad-answer':
      return 'degraded';
    case 'forbidden':
    case 'not-found':
    case 'refused-request':
    case 'too-large':
    case 'stream-cut':
      return 'answered';
    default:
      return 'none';
  }
}

/** One attempt as the client's request log reports it. */
export interface CallOutcome {
  api: PlatformApi;
  method: string;
  path: string;
  status?: number;
  ms?: number;
  error?: string;
  kind?: PlatformErrorKind;
}

/** The shared health state. Never throws to its listeners; a failing listener does not stop the others. */
export class PlatformHealth {
  private readonly conditions: Record<PlatformApi, ApiCondition> = { training: { state: 'unknown' }, inference: { state: 'unknown' } };
  private readonly listeners = new Set<(change: HealthChange) => void>();
  private nextCheck: number | undefined;
  private readonly clock: Clock;
  /** The API addresses for connection messages, read when a failure is described. */
  private readonly context: () => FailureContext;

  constructor(options: { clock?: Clock; context?: () => FailureContext } = {}) {
    this.clock = options.clock ?? systemClock;
    this.context = options.context ?? (() => ({}));
  }

  condition(api: PlatformApi): ApiCondition {
    return this.conditions[api];
  }

  /** The failure an API is failing with now, if it is. */
  failure(api: PlatformApi): Failure | undefined {
    const condition = this.conditions[api];
    return condition.state === 'failing' ? condition.failure : undefined;
  }

  /** When the next check runs (epoch ms), while one is scheduled: views say "retrying in N s". */
  get nextCheckAt(): number | undefined {
    return this.nextCheck;
  }

  set nextCheckAt(at: number | undefined) {
    this.nextCheck = at;
  }

  /** Milliseconds until the next check, when one is scheduled. */
  nextCheckIn(): number | undefined {
    return this.nextCheck === undefined ? undefined : Math.max(0, this.nextCheck - this.clock.now());
  }

  /** Feeds one attempt of one call (the client's request log). */
  noteCall(outcome: CallOutcome): void {
    if (!outcome.error) {
      // An answer without an error: the API answers, whatever the status said.
      this.noteAnswer(outcome.api, { ms: outcome.ms });
      return;
    }
    const failure = describeFacts(
      { kind: outcome.kind ?? (outcome.status !== undefined ? 'http' : 'network'), api: outcome.api, method: outcome.method, path: outcome.path, status: outcome.status, message: outcome.error },
      this.context(),
    );
    this.noteFailure(outcome.api, failure);
  }

  /** The API answered. A known system check is kept unless a new one is given. */
  noteAnswer(api: PlatformApi, answer: { ms?: number; system?: SystemCheckLike } = {}): void {
    const previous = this.conditions[api];
    const system = answer.system ?? (previous.state === 'reachable' ? previous.system : undefined);
    this.set(api, { state: 'reachable', at: this.clock.now(), ...(answer.ms === undefined ? {} : { ms: answer.ms }), ...(system ? { system } : {}) });
  }

  /** A call failed: only failures that concern the whole API change its condition. */
  noteFailure(api: PlatformApi, failure: Failure): void {
    const verdict = verdictOf(failure);
    if (verdict === 'none') return;
    if (verdict === 'answered') {
      this.noteAnswer(api);
      return;
    }
    const previous = this.conditions[api];
    const now = this.clock.now();
    const since = previous.state === 'failing' ? previous.since : now;
    this.set(api, { state: 'failing', failure, at: now, since });
  }

  skip(api: PlatformApi, reason: string): void {
    this.set(api, { state: 'skipped', reason });
  }

  /** The connection changed (settings, key): nothing known holds. */
  reset(): void {
    this.nextCheck = undefined;
    for (const api of ['training', 'inference'] as const) this.set(api, { state: 'unknown' });
  }

  summary(): HealthSummary {
    return summarizeConditions(this.conditions.training, this.conditions.inference, this.nextCheckIn());
  }

  onDidChange(listener: (change: HealthChange) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  private set(api: PlatformApi, current: ApiCondition): void {
    const previous = this.conditions[api];
    this.conditions[api] = current;
    if (sameCondition(previous, current)) return;
    const change: HealthChange = { api, previous, current, recovered: previous.state === 'failing' && current.state === 'reachable' };
    for (const listener of [...this.listeners]) {
      try {
        listener(change);
      } catch {
        // One broken view must not keep the others (or the status bar) from hearing.
      }
    }
  }
}

/** Whether a change is worth telling: a new state, a new reason, or a new system check. */
function sameCondition(a: ApiCondition, b: ApiCondition): boolean {
  if (a.state !== b.state) return false;
  if (a.state === 'failing' && b.state === 'failing') return a.failure.kind === b.failure.kind && a.failure.message === b.failure.message && a.failure.status === b.failure.status;
  if (a.state === 'reachable' && b.state === 'reachable') return a.system?.healthy === b.system?.healthy && a.system?.status === b.system?.status;
  if (a.state === 'skipped' && b.state === 'skipped') return a.reason === b.reason;
  return true;
}

/** The summary of two check results (the status bar's probe, and the tests). */
export function summarizeHealth(training: ApiProbe<SystemCheckLike>, inference: ApiProbe<unknown>): HealthSummary {
  return summarizeConditions(conditionOf(training, true), conditionOf(inference, false));
}

function conditionOf(probe: ApiProbe<unknown>, isTraining: boolean): ApiCondition {
  if (probe.state === 'skipped') return { state: 'skipped', reason: probe.reason };
  if (probe.state === 'error') return { state: 'failing', failure: probe.failure, at: 0, since: 0 };
  return { state: 'reachable', at: 0, ms: probe.ms, ...(isTraining ? { system: probe.value as SystemCheckLike } : {}) };
}

export function levelOf(condition: ApiCondition): HealthLevel {
  switch (condition.state) {
    case 'unknown':
    case 'skipped':
      return 'unknown';
    case 'reachable':
      return condition.system && !condition.system.healthy ? 'degraded' : 'healthy';
    case 'failing': {
      const verdict = verdictOf(condition.failure);
      return verdict === 'down' || verdict === 'rejected' ? 'down' : 'degraded';
    }
  }
}

export function summarizeConditions(training: ApiCondition, inference: ApiCondition, nextCheckInMs?: number): HealthSummary {
  const level = worst([levelOf(training), levelOf(inference)]);
  const detail = [`**Training API**: ${describeCondition(training, nextCheckInMs)}`, ...checkLines(training), `**Inference API**: ${describeCondition(inference, nextCheckInMs)}`];
  const mayPass = (condition: ApiCondition) =>
    (condition.state === 'failing' && condition.failure.retryable) || (condition.state === 'reachable' && condition.system !== undefined && !condition.system.healthy);
  return { level, text: statusText(level, training, inference), detail, retrySoon: mayPass(training) || mayPass(inference) };
}

/**
 * The status bar's words: the state of the API that fails, in describeFailure's terms ("inference
 * API rate limited", "platform unreachable", "key rejected"), so they match what the views and the
 * chat say about the same failure. "degraded" is left for a system check that reports a problem.
 */
function statusText(level: HealthLevel, training: ApiCondition, inference: ApiCondition): string {
  if (level === 'healthy') return 'RL Studio';
  if (level === 'unknown') return 'RL Studio: not checked';
  const failing: Array<{ api: PlatformApi; failure: Failure }> = [];
  if (training.state === 'failing') failing.push({ api: 'training', failure: training.failure });
  if (inference.state === 'failing') failing.push({ api: 'inference', failure: inference.failure });
  if (failing.length === 0) return 'RL Studio: degraded';
  if (failing.some(({ failure }) => failure.kind === 'rejected')) return `RL Studio: ${failureLabel('rejected')}`;
  // No answer at all says more than an answer with errors.
  const first = failing.find(({ failure }) => verdictOf(failure) === 'down') ?? failing[0]!;
  const label = failureLabel(first.failure.kind);
  const both = failing.length === 2 && failing.every(({ failure }) => failureLabel(failure.kind) === label);
  return `RL Studio: ${both ? 'platform' : `${first.api} API`} ${label}`;
}

const order: HealthLevel[] = ['healthy', 'unknown', 'degraded', 'down'];

function worst(levels: HealthLevel[]): HealthLevel {
  const known = levels.filter((level) => level !== 'unknown');
  if (known.length === 0) return 'unknown';
  return known.reduce((a, b) => (order.indexOf(b) > order.indexOf(a) ? b : a));
}

function describeCondition(condition: ApiCondition, nextCheckInMs: number | undefined): string {
  switch (condition.state) {
    case 'unknown':
      return 'not checked yet';
    case 'skipped':
      return condition.reason;
    case 'reachable': {
      const time = condition.ms === undefined ? '' : ` (${Math.round(condition.ms)} ms)`;
      if (condition.system && !condition.system.healthy) return `degraded (system check ${condition.system.status})`;
      return `healthy${time}`;
    }
    case 'failing': {
      const next = condition.failure.retryable && nextCheckInMs !== undefined ? ` Checking again in ${duration(nextCheckInMs)}.` : '';
      return `${escapeMarkdown(condition.failure.message)}${next}`;
    }
  }
}

/** What one part of a system check says: it passed only when it says `success: true`. */
function checkPart(raw: unknown): { success?: unknown; duration?: unknown; error?: unknown } {
  return typeof raw === 'object' && raw !== null ? (raw as { success?: unknown; duration?: unknown; error?: unknown }) : {};
}

/**
 * A system check in one line, as the agent's status tool says it: passed, or the parts that did
 * not pass (each through `quote`, as the caller shows foreign names), or the status it answered.
 */
export function systemCheckLine(system: SystemCheckLike, quote: (name: string) => string): string {
  if (system.healthy) return 'system check passed';
  const failing = Object.entries(system.checks).filter(([, raw]) => checkPart(raw).success !== true);
  return `system check failing: ${failing.map(([name]) => quote(name)).join(', ') || `status ${quote(String(system.status))}`}`;
}

function checkLines(condition: ApiCondition): string[] {
  if (condition.state !== 'reachable' || !condition.system) return [];
  return Object.entries(condition.system.checks).map(([name, raw]) => {
    const check = checkPart(raw);
    const ok = check.success === true;
    const duration = typeof check.duration === 'number' ? ` ${formatSeconds(check.duration)}` : '';
    const error = typeof check.error === 'string' && check.error !== '' ? ` — ${escapeMarkdown(check.error)}` : '';
    return `- ${ok ? '✓' : '✗'} ${codeText(name)}${duration}${error}`;
  });
}

function formatSeconds(duration: number): string {
  // The wire reference does not say the unit; values below 100 read as seconds, larger as ms.
  return duration < 100 ? `${Math.round(duration * 1000)} ms` : `${Math.round(duration)} ms`;
}
