import type { TrainingJobEvent } from '../../platform/client/types';
import { modelStepOf, type StepAxis } from './jobSteps';
import { largestTriangleThreeBuckets } from '../../platform/charts/downsample';

/**
 * One chart: a metric's values, each with the job step and the model step it was reported at
 * (see jobSteps.ts for the two numberings). `modelSteps` holds NaN where an event reported none.
 */
export interface MetricSeries {
  key: string;
  jobSteps: number[];
  modelSteps: number[];
  values: number[];
}

/** The x values of a series on the given axis. */
export function stepsOn(series: MetricSeries, axis: StepAxis): readonly number[] {
  return axis === 'model' ? series.modelSteps : series.jobSteps;
}

/**
 * A chart is at most a few hundred pixels wide; more points than this only cost memory and drawing
 * time. Past it, a series keeps half its points, chosen to keep its shape (the newest, the highest
 * and the lowest among them).
 */
export const maxPointsPerSeries = 4_000;
/** A server that invents a new metric name per event must not create a chart per event. */
export const maxSeries = 64;

/**
 * Collects every numeric key that `gradient_step` events carry into one series per key.
 * Incremental: `append` takes only new events, so a live chart never re-reads the whole history.
 *
 * Every chart of a job uses one axis, named on the chart: the model step, which checkpoints are
 * named by, while every gradient step reported one and they only went up; else the job step, which
 * always exists. A series never mixes the two.
 */
export class MetricSeriesSet {
  private readonly byKey = new Map<string, MetricSeries>();
  private gradientSteps = 0;
  private lastModelStep = -Infinity;
  private modelAxis = true;

  /** The axis every chart of this set is drawn against. */
  get axis(): StepAxis {
    return this.modelAxis && this.gradientSteps > 0 ? 'model' : 'job';
  }

  /**
   * Adds the gradient steps among `events`. `jobSteps`, parallel to `events`, numbers them as the
   * job's status does (`numberJobSteps`); an event it leaves undefined is not charted. Without it,
   * gradient steps are numbered 1, 2, 3… in the order they arrive.
   */
  append(events: readonly TrainingJobEvent[], jobSteps?: readonly (number | undefined)[]): Set<string> {
    const touched = new Set<string>();
    events.forEach((event, index) => {
      if (event.type !== 'gradient_step' || !event.data) return;
      const jobStep = jobSteps ? jobSteps[index] : this.gradientSteps + 1;
      if (jobStep === undefined) return;
      this.gradientSteps += 1;
      const modelStep = modelStepOf(event);
      if (modelStep === undefined || modelStep <= this.lastModelStep) this.modelAxis = false;
      else this.lastModelStep = modelStep;
      for (const [key, value] of Object.entries(event.data)) {
        if (key === 'step' || typeof value !== 'number' || !Number.isFinite(value)) continue;
        let series = this.byKey.get(key);
        if (!series) {
          if (this.byKey.size >= maxSeries) continue;
          series = { key, jobSteps: [], modelSteps: [], values: [] };
          this.byKey.set(key, series);
        }
        series.jobSteps.push(jobStep);
        series.modelSteps.push(modelStep ?? NaN);
        series.values.push(value);
        if (series.values.length > maxPointsPerSeries) halve(series);
        touched.add(key);
      }
    });
    return touched;
  }

  /** Series in a stable order: the metrics people read first, then the rest alphabetically. */
  list(): MetricSeries[] {
    return [...this.byKey.values()].sort((a, b) => rank(a.key) - rank(b.key) || a.key.localeCompare(b.key));
  }

  get(key: string): MetricSeries | undefined {
    return this.byKey.get(key);
  }
}

/**
 * Keeps half the points, chosen to keep the line's shape: the newest (a live chart always ends at
 * the latest value), the highest and the lowest stay, so no spike is lost.
 */
function halve(series: MetricSeries): void {
  const kept = largestTriangleThreeBuckets(series.jobSteps, series.values, Math.ceil(series.values.length / 2));
  series.jobSteps = kept.map((index) => series.jobSteps[index]!);
  series.modelSteps = kept.map((index) => series.modelSteps[index]!);
  series.values = kept.map((index) => series.values[index]!);
}

const preferred = ['loss', 'reward', 'learning_rate', 'grad_norm', 'num_tokens', 'num_trainable_tokens', 'tokens_per_second'];

function rank(key: string): number {
  const index = preferred.indexOf(key);
  return index < 0 ? preferred.length : index;
}
