import type { ChartView } from '../../../charts/chartGeometry';

/** What a chart of a group draws again when the group's view or hover changes. */
export interface GroupedChart {
  render(): void;
  showHover(x: number | undefined): void;
}

/**
 * The charts of one page read together, as training dashboards draw them: one smoothing, one
 * scale, one zoom on steps, and one hover that shows every chart's values at the same step.
 */
export class ChartGroup {
  private current: ChartView = { smoothing: 0, logScale: false };
  private readonly charts = new Set<GroupedChart>();
  private readonly listeners = new Set<(view: ChartView) => void>();

  constructor(initial?: Partial<ChartView>) {
    if (initial) this.current = { ...this.current, ...initial };
  }

  get view(): ChartView {
    return this.current;
  }

  add(chart: GroupedChart): void {
    this.charts.add(chart);
  }

  remove(chart: GroupedChart): void {
    this.charts.delete(chart);
  }

  clear(): void {
    this.charts.clear();
  }

  /** Changes the view (a zoom of undefined is the whole range) and draws every chart again. */
  setView(change: Partial<ChartView>): void {
    const next: ChartView = { ...this.current, ...change };
    if ('xRange' in change && change.xRange === undefined) delete next.xRange;
    this.current = next;
    for (const chart of this.charts) chart.render();
    for (const listener of this.listeners) listener(next);
  }

  onDidChangeView(listener: (view: ChartView) => void): void {
    this.listeners.add(listener);
  }

  hover(x: number | undefined): void {
    for (const chart of this.charts) chart.showHover(x);
  }
}
