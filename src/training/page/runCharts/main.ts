import type { RunChartsHostEvent, RunChartsHostMethods, RunChartsSnapshot, RunChartsViewState, RunSeries } from '../../protocol';
import { ChartGroup } from '../../../platform/pages/page/chart/chartGroup';
import { chartToolbar } from '../../../platform/pages/page/chart/chartToolbar';
import { chartWidthIn, MetricChart, type ChartSeriesData } from '../../../platform/pages/page/chart/metricChart';
import { h } from '../../../platform/pages/page/dom';
import { RpcEndpoint } from '../../../platform/pages/rpc';
import type { NoMethods } from '../../../platform/pages/wire';
import { webviewApi, type WebviewApi } from '../../../platform/pages/page/webviewApi';
import { formatMetric } from '../../../platform/kit/format';
import { errorMessage } from '../../../platform/client/errorMessage';

/**
 * Runs on shared charts: a model's whole training (its checkpoints by model step, its followed jobs
 * marked where they started, a click opens one), or several models and jobs overlaid to compare
 * them, one line per run, each run's steps named in its label and the hover. One smoothing, scale,
 * zoom and hover for all. Drawn again from each snapshot the host sends as runs move.
 */
class RunChartsPage {
  private readonly host: RpcEndpoint<RunChartsHostMethods, NoMethods, never, RunChartsHostEvent>;
  private readonly group = new ChartGroup();
  private readonly charts = new Map<string, MetricChart>();
  private readonly title = h('h1');
  private readonly facts = h('div', { class: 'facts' });
  private readonly problems = h('div', { class: 'connection' });
  private readonly runs = h('ul', { class: 'run-list' });
  private readonly runsHeading = h('h2');
  private readonly grid = h('div', { class: 'charts' });
  private readonly empty = h('p', { class: 'muted' }, 'No metrics yet: charts appear with the first checkpoint or gradient step.');

  constructor(
    app: HTMLElement,
    private readonly api: WebviewApi<RunChartsViewState>,
  ) {
    this.host = new RpcEndpoint<RunChartsHostMethods, NoMethods, never, RunChartsHostEvent>({
      post: (message) => api.postMessage(message),
      handlers: {},
      onEvent: (event) => {
        if (event?.type === 'update') this.draw(event.snapshot);
      },
    });
    this.problems.hidden = true;
    const header = h('header', { class: 'job-header' }, this.title, this.facts, this.problems);
    const charts = h('section', { class: 'charts-section' }, h('h2', {}, 'Metrics'), chartToolbar(this.group), this.empty, this.grid);
    app.replaceChildren(header, charts, h('section', {}, this.runsHeading, this.runs));
    new ResizeObserver(() => this.resize()).observe(this.grid);
  }

  receive(message: unknown): void {
    this.host.receive(message);
  }

  async load(): Promise<void> {
    this.draw(await this.host.request('ready', {}));
  }

  private draw(snapshot: RunChartsSnapshot): void {
    this.api.setState({ models: snapshot.runs.filter((run) => run.kind === 'model').map((run) => run.id), jobs: snapshot.runs.filter((run) => run.kind === 'job').map((run) => run.id) });
    this.title.textContent = snapshot.title;
    document.title = snapshot.title;
    const comparing = snapshot.runs.length > 1;
    this.facts.textContent = snapshot.runs.map((run) => `${run.label}: ${describeRun(run)}`).join(' · ');
    const failed = snapshot.runs.filter((run) => run.error !== undefined);
    this.problems.hidden = failed.length === 0;
    this.problems.textContent = failed.map((run) => `${run.label} could not be read: ${run.error}`).join(' ');

    // One chart per metric, one line per run that has it; each run keeps its colour on every chart.
    const keys = new Map<string, ChartSeriesData[]>();
    snapshot.runs.forEach((run, index) => {
      for (const [key, metric] of Object.entries(run.metrics)) {
        const lines = keys.get(key) ?? [];
        const label = comparing ? `${run.label} (${run.axis})` : run.label;
        lines.push({ key: `${run.kind}:${run.id}:${key}`, label, xs: metric.xs, ys: metric.ys, colorIndex: index, describeX: (at) => `${run.axis} ${formatMetric(metric.xs[at]!)}` });
        keys.set(key, lines);
      }
    });
    // Every chart spans the same steps, so a metric that starts late (a canary's score) lines up with the others.
    const span = stepSpan(snapshot);
    const shown = this.group.view.xSpan;
    if (span && (!shown || shown[0] !== span[0] || shown[1] !== span[1])) this.group.setView({ xSpan: span });
    const axes = new Set(snapshot.runs.map((run) => run.axis));
    const xName = axes.size === 1 ? [...axes][0]! : 'step (model step for models, the job’s own for jobs)';
    for (const [key, lines] of keys) {
      let chart = this.charts.get(key);
      if (!chart) {
        chart = new MetricChart(
          this.group,
          key,
          () => xName,
          (file) => void this.host.request('saveChart', file).catch(() => undefined),
        );
        this.charts.set(key, chart);
        this.grid.append(chart.element);
        chart.setWidth(chartWidthIn(this.grid));
      }
      chart.setMarkers(snapshot.jobs.map((job) => ({ x: job.firstStep, label: `${job.label}: model steps ${job.firstStep} to ${job.lastStep} (${job.phase})` })));
      chart.setLines(lines);
    }
    this.empty.hidden = this.charts.size > 0;
    this.drawRuns(snapshot, comparing);
  }

  /** Below the charts: the runs compared, or a model's followed jobs (a click opens a job). */
  private drawRuns(snapshot: RunChartsSnapshot, comparing: boolean): void {
    const jobButton = (id: string, label: string) => {
      const open = h('button', { type: 'button', class: 'link-button', title: 'Open this job’s details' }, label);
      open.addEventListener('click', () => void this.host.request('openJob', { jobId: id }).catch(() => undefined));
      return open;
    };
    if (comparing) {
      this.runsHeading.textContent = 'Runs compared';
      this.runs.replaceChildren(
        ...snapshot.runs.map((run, index) =>
          h('li', { class: `run series-${index % 6}` }, h('span', { class: 'swatch' }), run.kind === 'job' ? jobButton(run.id, run.label) : run.label, ` · ${run.kind} · ${describeRun(run)}`),
        ),
      );
      return;
    }
    this.runsHeading.textContent = 'Followed jobs of this model';
    this.runs.replaceChildren(
      ...snapshot.jobs.map((job) => h('li', {}, jobButton(job.id, job.label), ` · model steps ${formatMetric(job.firstStep)} to ${formatMetric(job.lastStep)} · ${job.phase}`)),
    );
    if (snapshot.jobs.length === 0) this.runs.append(h('li', { class: 'muted' }, 'None followed here: jobs started elsewhere (from Python, say) show through their checkpoints.'));
  }

  private resize(): void {
    for (const chart of this.charts.values()) chart.setWidth(chartWidthIn(this.grid));
  }
}

/** "120 checkpoints, model steps 1 to 120" or "34 gradient steps". */
function describeRun(run: RunSeries): string {
  const steps = new Set<number>();
  for (const metric of Object.values(run.metrics)) for (const x of metric.xs) steps.add(x);
  const sorted = [...steps].sort((a, b) => a - b);
  const what =
    run.kind === 'model'
      ? `${sorted.length.toLocaleString('en-US')} checkpoint${sorted.length === 1 ? '' : 's'}`
      : `${sorted.length.toLocaleString('en-US')} gradient step${sorted.length === 1 ? '' : 's'}`;
  const range = sorted.length ? `, ${run.axis}s ${formatMetric(sorted[0]!)} to ${formatMetric(sorted[sorted.length - 1]!)}` : '';
  return `${what}${range}${run.truncated ? ' (the newest; older ones left out)' : ''}`;
}

const root = document.getElementById('app');
if (root) {
  const page = new RunChartsPage(root, webviewApi<RunChartsViewState>());
  window.addEventListener('message', (event: MessageEvent) => page.receive(event.data));
  void page.load().catch((error: unknown) => {
    root.textContent = `The charts could not load: ${errorMessage(error)}`;
  });
}

/** The first and last step of every run's metrics (each metric's steps ascend), or undefined when there is none. */
function stepSpan(snapshot: RunChartsSnapshot): [number, number] | undefined {
  let first = Infinity;
  let last = -Infinity;
  for (const run of snapshot.runs)
    for (const metric of Object.values(run.metrics)) {
      if (metric.xs.length === 0) continue;
      first = Math.min(first, metric.xs[0]!);
      last = Math.max(last, metric.xs[metric.xs.length - 1]!);
    }
  return first <= last ? [first, last] : undefined;
}
