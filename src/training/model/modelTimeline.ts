/**
 * A model's training as one timeline: its checkpoints by step (wherever the jobs that made them were
 * started: from here, from Python, from another machine), and the followed jobs as the model steps
 * they covered. Pure; the host reads the checkpoints and the jobs, the page charts them.
 */
import type { Checkpoint, TrainingJobEvent } from '../../platform/client/types';
import type { JobSpan } from '../protocol';
import { modelStepOf, numberJobSteps } from './jobSteps';
import { MetricSeriesSet, stepsOn } from './metricSeries';
import type { JobPhase } from './jobStatus';

/** Metric keys charted per model at most (a server that names a metric per checkpoint makes no more charts). */
export const maxMetricKeys = 64;

/** A checkpoint as the charts read it: its step and its numeric metrics. */
export interface CheckpointPoint {
  step: number;
  metrics: Record<string, number>;
}

/** The checkpoints read so far, by step; a page read again (the newest, while a job trains) adds what is new. */
export class CheckpointTimeline {
  private readonly byStep = new Map<number, CheckpointPoint>();
  private readonly keys = new Set<string>();

  constructor(private readonly maxCheckpoints: number) {}

  /** Adds a page of checkpoints; true when anything changed. */
  add(checkpoints: readonly Checkpoint[]): boolean {
    let changed = false;
    for (const checkpoint of checkpoints) {
      if (typeof checkpoint.step !== 'number' || !Number.isFinite(checkpoint.step)) continue;
      const metrics: Record<string, number> = {};
      for (const [key, value] of Object.entries(checkpoint.metrics ?? {})) {
        // A checkpoint's own step is its x, not a metric to chart.
        if (key === 'step' || typeof value !== 'number' || !Number.isFinite(value)) continue;
        if (!this.keys.has(key)) {
          if (this.keys.size >= maxMetricKeys) continue;
          this.keys.add(key);
        }
        metrics[key] = value;
      }
      const before = this.byStep.get(checkpoint.step);
      if (before && sameMetrics(before.metrics, metrics)) continue;
      this.byStep.set(checkpoint.step, { step: checkpoint.step, metrics });
      changed = true;
    }
    // The newest are kept when there are too many: the oldest steps go first.
    if (this.byStep.size > this.maxCheckpoints) {
      const steps = [...this.byStep.keys()].sort((a, b) => a - b);
      for (const step of steps.slice(0, steps.length - this.maxCheckpoints)) this.byStep.delete(step);
    }
    return changed;
  }

  get size(): number {
    return this.byStep.size;
  }

  /** Ascending by step. */
  points(): CheckpointPoint[] {
    return [...this.byStep.values()].sort((a, b) => a.step - b.step);
  }
}

function sameMetrics(a: Record<string, number>, b: Record<string, number>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

/** The model steps a job's gradient steps reported, first and last; undefined when none reported one. */
export function jobSpanOf(job: { id: string; label: string; phase: JobPhase }, events: readonly TrainingJobEvent[]): JobSpan | undefined {
  let first = Infinity;
  let last = -Infinity;
  for (const event of events) {
    if (event.type !== 'gradient_step') continue;
    const step = modelStepOf(event);
    if (step === undefined) continue;
    if (step < first) first = step;
    if (step > last) last = step;
  }
  if (!Number.isFinite(first)) return undefined;
  return { id: job.id, label: job.label, firstStep: first, lastStep: last, phase: job.phase };
}

/** Each metric key's series across the checkpoints: steps and values, only where a checkpoint has the key. */
export function checkpointSeries(points: readonly CheckpointPoint[]): Map<string, { xs: number[]; ys: number[] }> {
  const series = new Map<string, { xs: number[]; ys: number[] }>();
  for (const point of points) {
    for (const [key, value] of Object.entries(point.metrics)) {
      let line = series.get(key);
      if (!line) {
        line = { xs: [], ys: [] };
        series.set(key, line);
      }
      line.xs.push(point.step);
      line.ys.push(value);
    }
  }
  return series;
}

/** Points of a job's metric charted at most: the newest are kept (a job's events are bounded too). */
const maxJobPoints = 20_000;

/** A job's gradient-step metrics, by model step when every step reported one in order, else by job step. */
export function jobRunMetrics(events: readonly TrainingJobEvent[], countedSteps: number): { axis: 'model step' | 'job step'; metrics: Record<string, { xs: number[]; ys: number[] }> } {
  const set = new MetricSeriesSet();
  set.append(events, numberJobSteps(events, countedSteps));
  const axis = set.axis;
  const metrics: Record<string, { xs: number[]; ys: number[] }> = {};
  for (const series of set.list()) {
    const xs = [...stepsOn(series, axis)].slice(-maxJobPoints);
    metrics[series.key] = { xs, ys: series.values.slice(-maxJobPoints) };
  }
  return { axis: axis === 'model' ? 'model step' : 'job step', metrics };
}
