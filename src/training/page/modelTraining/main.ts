import type { ModelTrainingHostEvent, ModelTrainingHostMethods, ModelTrainingSnapshot, ModelTrainingViewState } from '../../protocol';
import { checkpointSeries } from '../../model/modelTimeline';
import { ChartGroup } from '../../../platform/pages/page/chart/chartGroup';
import { chartToolbar } from '../../../platform/pages/page/chart/chartToolbar';
import { MetricChart } from '../../../platform/pages/page/chart/metricChart';
import { h } from '../../../platform/pages/page/dom';
import { RpcEndpoint } from '../../../platform/pages/rpc';
import type { NoMethods } from '../../../platform/pages/wire';
import { webviewApi, type WebviewApi } from '../../../platform/pages/page/webviewApi';
import { formatMetric } from '../../../platform/kit/format';
import { errorMessage } from '../../../platform/client/errorMessage';

/**
 * A model's whole training: a chart per checkpoint metric against the model step, the followed
 * jobs marked as the steps they covered (a click opens one), read together with one smoothing,
 * scale, zoom and hover. Drawn again from each snapshot the host sends as checkpoints arrive.
 */
class ModelTrainingPage {
  private readonly host: RpcEndpoint<ModelTrainingHostMethods, NoMethods, never, ModelTrainingHostEvent>;
  private readonly group = new ChartGroup();
  private readonly charts = new Map<string, MetricChart>();
  private readonly title = h('h1');
  private readonly facts = h('div', { class: 'facts' });
  private readonly problem = h('div', { class: 'connection' });
  private readonly jobs = h('ul', { class: 'job-spans' });
  private readonly grid = h('div', { class: 'charts' });
  private readonly empty = h('p', { class: 'muted' }, 'No checkpoint has metrics yet: charts appear with the first.');

  constructor(
    app: HTMLElement,
    private readonly api: WebviewApi<ModelTrainingViewState>,
  ) {
    this.host = new RpcEndpoint<ModelTrainingHostMethods, NoMethods, never, ModelTrainingHostEvent>({
      post: (message) => api.postMessage(message),
      handlers: {},
      onEvent: (event) => {
        if (event?.type === 'update') this.draw(event.snapshot);
      },
    });
    this.problem.hidden = true;
    const header = h('header', { class: 'job-header' }, this.title, this.facts, this.problem);
    const charts = h('section', { class: 'charts-section' }, h('h2', {}, 'Checkpoint metrics by model step'), chartToolbar(this.group), this.empty, this.grid);
    const jobs = h('section', {}, h('h2', {}, 'Followed jobs of this model'), this.jobs);
    app.replaceChildren(header, charts, jobs);
    new ResizeObserver(() => this.resize()).observe(this.grid);
  }

  receive(message: unknown): void {
    this.host.receive(message);
  }

  async load(): Promise<void> {
    this.draw(await this.host.request('ready', {}));
  }

  private draw(snapshot: ModelTrainingSnapshot): void {
    this.api.setState({ modelId: snapshot.model.id });
    this.title.textContent = snapshot.model.label;
    document.title = snapshot.model.label;
    const steps = snapshot.checkpoints.map((point) => point.step);
    const facts = [`${snapshot.checkpoints.length.toLocaleString('en-US')} checkpoint${snapshot.checkpoints.length === 1 ? '' : 's'}`];
    if (steps.length) facts.push(`model steps ${formatMetric(steps[0]!)} to ${formatMetric(steps[steps.length - 1]!)}`);
    if (snapshot.truncated) facts.push('the newest are charted, the oldest left out');
    facts.push(`${snapshot.jobs.length} followed job${snapshot.jobs.length === 1 ? '' : 's'}`);
    this.facts.textContent = facts.join(' · ');
    this.problem.hidden = snapshot.error === undefined;
    this.problem.textContent = snapshot.error ? `The checkpoints could not be read: ${snapshot.error}` : '';

    const series = checkpointSeries(snapshot.checkpoints);
    let index = 0;
    for (const [key, line] of series) {
      let chart = this.charts.get(key);
      if (!chart) {
        chart = new MetricChart(
          this.group,
          key,
          () => 'model step',
          (file) => void this.host.request('saveChart', file).catch(() => undefined),
        );
        this.charts.set(key, chart);
        this.grid.append(chart.element);
        chart.setWidth(this.chartWidth());
      }
      chart.setMarkers(snapshot.jobs.map((job) => ({ x: job.firstStep, label: `${job.label}: model steps ${job.firstStep} to ${job.lastStep} (${job.phase})` })));
      chart.setLines([{ key, label: key, xs: line.xs, ys: line.ys, colorIndex: index++ }]);
    }
    this.empty.hidden = this.charts.size > 0;
    this.jobs.replaceChildren(
      ...snapshot.jobs.map((job) => {
        const open = h('button', { type: 'button', class: 'link-button', title: 'Open this job’s details' }, job.label);
        open.addEventListener('click', () => void this.host.request('openJob', { jobId: job.id }).catch(() => undefined));
        return h('li', {}, open, ` · model steps ${formatMetric(job.firstStep)} to ${formatMetric(job.lastStep)} · ${job.phase}`);
      }),
    );
    if (snapshot.jobs.length === 0) this.jobs.append(h('li', { class: 'muted' }, 'None followed here: jobs started elsewhere (from Python, say) show only through their checkpoints.'));
  }

  private chartWidth(): number {
    const width = this.grid.clientWidth || 640;
    const columns = width >= 760 ? 2 : 1;
    return (width - (columns - 1) * 12) / columns - 2;
  }

  private resize(): void {
    for (const chart of this.charts.values()) chart.setWidth(this.chartWidth());
  }
}

const root = document.getElementById('app');
if (root) {
  const page = new ModelTrainingPage(root, webviewApi<ModelTrainingViewState>());
  window.addEventListener('message', (event: MessageEvent) => page.receive(event.data));
  void page.load().catch((error: unknown) => {
    root.textContent = `The model's training could not load: ${errorMessage(error)}`;
  });
}
