import type { TrainingJobEvent } from '../api/types';

/** One chart: a metric's values against the gradient step they were reported at. */
export interface MetricSeries {
  key: string;
  steps: number[];
  values: number[];
}

/**
 * A chart is at most a few hundred pixels wide; more points than this only cost memory and drawing
 * time. Past it, a series keeps every other point (the whole run's shape stays, at half the detail).
 */
export const maxPointsPerSeries = 4_000;
/** A server that invents a new metric name per event must not create a chart per event. */
export const maxSeries = 64;

/**
 * Collects every numeric key that `gradient_step` events carry into one series per key. The
 * x value is the event's own `step` when it has one, else its position among gradient steps.
 * Incremental: `append` takes only new events, so a live chart never re-reads the whole history.
 */
export class MetricSeriesSet {
  private readonly byKey = new Map<string, MetricSeries>();
  private gradientSteps = 0;

  append(events: readonly TrainingJobEvent[]): Set<string> {
    const touched = new Set<string>();
    for (const event of events) {
      if (event.type !== 'gradient_step' || !event.data) continue;
      this.gradientSteps += 1;
      const own = event.data.step;
      const x = typeof own === 'number' && Number.isFinite(own) ? own : this.gradientSteps;
      for (const [key, value] of Object.entries(event.data)) {
        if (key === 'step' || typeof value !== 'number' || !Number.isFinite(value)) continue;
        let series = this.byKey.get(key);
        if (!series) {
          if (this.byKey.size >= maxSeries) continue;
          series = { key, steps: [], values: [] };
          this.byKey.set(key, series);
        }
        series.steps.push(x);
        series.values.push(value);
        if (series.steps.length > maxPointsPerSeries) halve(series);
        touched.add(key);
      }
    }
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

function halve(series: MetricSeries): void {
  // The newest point stays, so a live chart always ends at the latest value.
  const last = series.steps.length - 1;
  const keep = (_: number, index: number) => index % 2 === last % 2;
  series.steps = series.steps.filter(keep);
  series.values = series.values.filter(keep);
}

const preferred = ['loss', 'reward', 'learning_rate', 'grad_norm', 'num_tokens', 'num_trainable_tokens', 'tokens_per_second'];

function rank(key: string): number {
  const index = preferred.indexOf(key);
  return index < 0 ? preferred.length : index;
}
