/**
 * Score against step: each checkpoint's mean score with its 95 % interval as a band, by training
 * step, and on a second axis (right) a training metric of the same checkpoints (a reward when one
 * is recorded; a select picks another). The base model is the dashed line from step 0, catalogue
 * models dotted lines across: what training has to beat. Drawn on the shared chart, so it reads as
 * the training charts do: a drag zooms on steps (a double-click shows them all), a log scale for the
 * metric, one hover naming every line at a step, and its data as CSV or itself as a PNG.
 */
import type { EvalModelRef, LeaderboardRow } from '../model/evalModel';
import { formatMetric } from '../../platform/kit/format';
import { h } from '../../platform/pages/page/dom';
import { ChartGroup } from '../../platform/pages/page/chart/chartGroup';
import { chartToolbar } from '../../platform/pages/page/chart/chartToolbar';
import { MetricChart, type ChartFile, type ChartSeriesData } from '../../platform/pages/page/chart/metricChart';
import { formatScore, modelLabel, shortLabel } from './labels';
import { metricChoices, scoreChartCsv, scoreChartData, type ScoreChartData, type ScoredModel } from './scoreChartData';

const height = 230;
/** Colours of the shared palette (pageBase.css): the score blue, the metric orange, the base green, catalogue models purple. */
const colors = { score: 0, base: 1, metric: 2, catalogue: 3 };

export class ScoreChart {
  readonly element: HTMLElement;
  private readonly group = new ChartGroup();
  private readonly chart: MetricChart;
  private readonly toolbar: HTMLElement;
  private readonly select = h('select', { ariaLabel: 'Training metric on the right axis' });
  private readonly legend = h('div', { class: 'chart-legend' });
  private readonly empty = h('p', { class: 'muted', hidden: true }, 'No checkpoint with a step in this run: nothing to draw against the step.');
  private data: ScoreChartData = { checkpoints: [], catalogue: [] };
  private rows: readonly LeaderboardRow[] = [];
  private models: readonly EvalModelRef[] = [];
  private metric: string | undefined;
  private metricKeys: string[] = [];

  constructor(
    private readonly metricChanged: (metric: string) => void,
    exportFile: (file: ChartFile) => void,
  ) {
    this.chart = new MetricChart(this.group, 'Score against step', () => 'training step', exportFile, {
      height,
      logAxis: 'right',
      formatY: (value) => formatScore(value),
      csv: () => scoreChartCsv(this.data),
      describe: () => this.describe(),
    });
    this.chart.element.classList.add('score-chart');
    this.toolbar = chartToolbar(this.group, {
      smoothing: false,
      logLabel: 'Log scale (right axis)',
      logTitle: 'Draw the training metric on a logarithmic scale (values at or below zero are left out); the scores stay linear',
    });
    this.select.addEventListener('change', () => {
      this.metric = this.select.value || undefined;
      if (this.metric) this.metricChanged(this.metric);
      this.draw();
    });
    const metricLabel = h('label', { class: 'metric-pick', title: 'A training metric recorded with each checkpoint, drawn against the right axis' }, 'Right axis ', this.select);
    const head = h('div', { class: 'panel-head' }, h('h2', {}, 'Score against step'), metricLabel);
    this.element = h('section', { class: 'panel chart-panel', ariaLabel: 'Score against step' }, head, this.toolbar, this.chart.element, this.legend, this.empty);
    new ResizeObserver(() => this.chart.setWidth(this.element.clientWidth - 24)).observe(this.element);
  }

  render(rows: readonly LeaderboardRow[], models: readonly EvalModelRef[], savedMetric: string | undefined): void {
    this.rows = rows;
    this.models = models;
    const { keys, preferred } = metricChoices(models);
    if (keys.join('\n') !== this.metricKeys.join('\n')) {
      this.metricKeys = keys;
      this.select.replaceChildren(...keys.map((key) => h('option', {}, key)));
      for (const option of this.select.options) option.value = option.textContent ?? '';
    }
    if (!this.metric || !keys.includes(this.metric)) this.metric = savedMetric && keys.includes(savedMetric) ? savedMetric : preferred;
    this.select.value = this.metric ?? '';
    (this.select.parentElement as HTMLElement).hidden = keys.length === 0;
    this.draw();
  }

  private draw(): void {
    const data = scoreChartData(this.rows, this.models, this.metric);
    this.data = data;
    const points = data.checkpoints;
    this.empty.hidden = points.length > 0;
    this.chart.element.hidden = points.length === 0;
    this.toolbar.hidden = points.length === 0;
    if (points.length === 0) {
      this.chart.setLines([]);
      this.legend.replaceChildren();
      return;
    }
    const steps = points.map((point) => point.step);
    const describeX = (at: number) => `training step ${formatMetric(steps[at]!)} · ${modelLabel(points[at]!.model)}`;
    const lines: ChartSeriesData[] = [
      {
        key: 'score',
        label: 'mean score',
        colorIndex: colors.score,
        xs: steps,
        ys: points.map((point) => point.row.mean),
        band: { low: points.map((point) => point.row.low), high: points.map((point) => point.row.high) },
        dotEveryPoint: true,
        describeX,
        describePoint: (at) => `mean score ${formatScore(points[at]!.row.mean, 3)} (95 % CI ${formatScore(points[at]!.row.low, 3)} to ${formatScore(points[at]!.row.high, 3)})`,
      },
    ];
    const metric = data.metric;
    if (metric !== undefined) {
      const charted = points.filter((point) => Number.isFinite(point.metric));
      lines.push({
        key: 'metric',
        label: metric,
        colorIndex: colors.metric,
        axis: 'right',
        xs: charted.map((point) => point.step),
        ys: charted.map((point) => point.metric),
        dotEveryPoint: true,
        describeX: (at) => `training step ${formatMetric(charted[at]!.step)} · ${modelLabel(charted[at]!.model)}`,
        describePoint: (at) => `${metric} ${formatMetric(charted[at]!.metric)} (training, right axis)`,
      });
    }
    // The levels to beat span the steps: the base model's from step 0, where training started.
    const last = steps[steps.length - 1]!;
    const level = (key: string, { model, row }: ScoredModel, from: number, colorIndex: number, reference: 'dashed' | 'dotted', name: string): ChartSeriesData => ({
      key,
      label: name,
      colorIndex,
      reference,
      xs: from === last ? [from] : [from, last],
      ys: from === last ? [row.mean] : [row.mean, row.mean],
      describePoint: () => `${name} (${model.id}): ${formatScore(row.mean, 3)} (95 % CI ${formatScore(row.low, 3)} to ${formatScore(row.high, 3)})`,
    });
    if (data.base) lines.push(level('base', data.base, Math.min(0, steps[0]!), colors.base, 'dashed', 'base'));
    data.catalogue.forEach((each, index) => lines.push(level(`catalogue:${index}`, each, steps[0]!, colors.catalogue, 'dotted', shortLabel(each.model))));
    this.chart.setLines(lines);

    const keys = [legendItem('key-score', 'mean score (95 % CI band)')];
    if (metric !== undefined) keys.push(legendItem('key-metric', `${metric} (training, right axis)`));
    if (data.base) keys.push(legendItem('key-base', 'base model'));
    if (data.catalogue.length) keys.push(legendItem('key-catalogue', 'catalogue models'));
    this.legend.replaceChildren(...keys);
  }

  private describe(): string {
    const points = this.data.checkpoints;
    if (points.length === 0) return 'No checkpoint scored yet';
    const best = points.reduce((top, point) => (point.row.mean > top.row.mean ? point : top), points[0]!);
    const metric = this.data.metric;
    return `Mean score of ${points.length} checkpoints by step, best ${modelLabel(best.model)} at ${formatScore(best.row.mean, 3)}${metric !== undefined ? `, with ${metric} on the right axis` : ''}`;
  }
}

function legendItem(key: string, label: string): HTMLElement {
  return h('span', { class: 'legend-item' }, h('span', { class: `legend-key ${key}` }), label);
}
