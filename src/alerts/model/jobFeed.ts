/**
 * Turns what the job service reports about followed jobs into metric readings for the rule engine:
 * each new gradient step's metrics, numbered by job step. A job already over when this feed first
 * saw it is not news, and none of its history fires a rule; nor does a job not loaded yet. The
 * history of a job still moving when first seen is read too, but only a stretch still going on at
 * its newest step is told: one that came back before is not news either.
 */
import type { AlertContext, AlertEngine, AlertFiring } from './alertRules';

/** One event of a job as the feed reads it (the platform's TrainingJobEvent has this shape). */
export interface FeedEvent {
  type: string;
  data: Record<string, unknown>;
}

export interface FeedChange {
  id: string;
  loaded: boolean;
  /** The job is over (finished, failed or cancelled). */
  over: boolean;
  newEvents: readonly FeedEvent[];
  /** The job step of each new event, undefined for events that are not counted gradient steps. */
  jobSteps: readonly (number | undefined)[];
  context: AlertContext;
}

export interface JobFeedOptions {
  /** The numeric metrics of a gradient step (its data less `step`). */
  metricsOf: (event: FeedEvent) => Record<string, number>;
  /** Jobs remembered at most (as live or as over). */
  maxJobs?: number;
  /** Gradient steps read per change at most: the newest ones, when a change brings more. */
  maxStepsPerChange?: number;
  /** Metrics read per step at most. */
  maxMetricsPerStep?: number;
}

export class AlertJobFeed {
  private readonly seen = new Map<string, 'live' | 'over'>();
  private readonly maxJobs: number;
  private readonly maxStepsPerChange: number;
  private readonly maxMetricsPerStep: number;

  constructor(
    private readonly engine: AlertEngine,
    private readonly options: JobFeedOptions,
  ) {
    this.maxJobs = options.maxJobs ?? 1_000;
    this.maxStepsPerChange = options.maxStepsPerChange ?? 500;
    this.maxMetricsPerStep = options.maxMetricsPerStep ?? 64;
  }

  /** Whether the feed reads this job: seen while it was still moving. */
  isLive(id: string): boolean {
    return this.seen.get(id) === 'live';
  }

  change(change: FeedChange): AlertFiring[] {
    if (!change.loaded) return [];
    let state = this.seen.get(change.id);
    const firstSight = state === undefined;
    if (state === undefined) {
      if (this.seen.size >= this.maxJobs) return [];
      state = change.over ? 'over' : 'live';
      this.seen.set(change.id, state);
      // Its whole history, the last step included, was over before it was followed.
      if (state === 'over') return [];
    }
    if (state === 'over') return [];
    if (change.over) this.seen.set(change.id, 'over');

    const steps: { event: FeedEvent; step: number }[] = [];
    change.newEvents.forEach((event, index) => {
      const step = change.jobSteps[index];
      if (event.type === 'gradient_step' && step !== undefined) steps.push({ event, step });
    });
    const firings: AlertFiring[] = [];
    for (const { event, step } of steps.slice(-this.maxStepsPerChange)) {
      const metrics = Object.entries(this.options.metricsOf(event)).slice(0, this.maxMetricsPerStep);
      for (const [metric, value] of metrics) firings.push(...this.engine.metric(change.id, metric, step, value, { ...change.context, step }));
    }
    if (!firstSight) return firings;
    const ongoing: AlertFiring[] = [];
    for (const firing of firings.reverse()) {
      if (ongoing.some((kept) => kept.rule === firing.rule) || !this.engine.stillBeyond(firing.rule, change.id)) continue;
      ongoing.unshift(firing);
    }
    return ongoing;
  }

  /** The job is no longer followed: it may be followed again later, as new. */
  forget(id: string): void {
    this.seen.delete(id);
  }
}
