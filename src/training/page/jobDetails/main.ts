import type { TrainingJob, TrainingJobEvent } from '../../../platform/client/types';
import type { JobAppend, JobDetailsViewState, JobHostEvent, JobHostMethods, JobPageEvent, JobPageMethods, JobSnapshot, JobSummary } from '../../protocol';
import { formatDuration, formatMetric } from '../../../platform/kit/format';
import { elapsedMs, isTerminal, type JobStatus } from '../../model/jobStatus';
import { describeJobProgress, numberJobSteps } from '../../model/jobSteps';
import { MetricSeriesSet } from '../../model/metricSeries';
import { ChartGroup } from '../../../platform/pages/page/chart/chartGroup';
import { chartToolbar } from '../../../platform/pages/page/chart/chartToolbar';
import { chartWidthIn, MetricChart } from '../../../platform/pages/page/chart/metricChart';
import { describePoint } from '../stepNames';
import { stepAxisName } from '../../model/jobSteps';
import { stepsOn, type MetricSeries } from '../../model/metricSeries';
import { button, h } from '../../../platform/pages/page/dom';
import { RpcEndpoint } from '../../../platform/pages/rpc';
import { webviewApi, type WebviewApi } from '../../../platform/pages/page/webviewApi';
import { Timeline } from './timeline';
import { errorMessage } from '../../../platform/client/errorMessage';

/** The host keeps at most this many events per job too; a page open for days stays the same size. */
const maxEventsKept = 5_000;
/** Appends held while the snapshot is on its way; more than this and a fresh snapshot is asked for. */
const maxEarlyAppends = 50;

/**
 * The page of one job: header, live charts, timeline and raw JSON. Built once per snapshot, then
 * updated in place. It asks the host for the snapshot when it loads (again after being unloaded
 * while hidden); appends that overtake the snapshot's reply are newer than it and are applied after.
 */
class JobDetailsPage {
  private readonly host: RpcEndpoint<JobHostMethods, JobPageMethods, JobPageEvent, JobHostEvent>;
  private early: JobAppend[] = [];
  private missedEarly = false;
  private job: JobSummary | undefined;
  private status: JobStatus | undefined;
  private record: TrainingJob | undefined;
  private events: TrainingJobEvent[] = [];
  private series = new MetricSeriesSet();
  private readonly charts = new Map<string, MetricChart>();
  private readonly chartGroup = new ChartGroup();
  private clockOffset = 0;

  private readonly header = h('header', { class: 'job-header' });
  private readonly title = h('h1');
  private readonly pill = h('span', { class: 'pill' });
  private readonly facts = h('div', { class: 'facts' });
  private readonly progress = h('progress');
  private readonly problem = h('div', { class: 'problem' });
  private readonly connection = h('div', { class: 'connection' });
  private readonly chartGrid = h('div', { class: 'charts' });
  private readonly chartsEmpty = h('p', { class: 'muted' }, 'Charts appear with the first gradient step.');
  private readonly timeline = new Timeline();
  private readonly raw = h('details', { class: 'raw' });
  private readonly rawText = h('pre');

  constructor(
    private readonly app: HTMLElement,
    private readonly api: WebviewApi<JobDetailsViewState>,
  ) {
    this.host = new RpcEndpoint<JobHostMethods, JobPageMethods, JobPageEvent, JobHostEvent>({
      post: (message) => api.postMessage(message),
      handlers: {},
      onEvent: (event) => this.onEvent(event),
    });
    const titleRow = h('div', { class: 'title-row' });
    const refresh = button('Refresh', () => void this.call('refresh', {}), { title: "Ask the platform for the job's latest events now" });
    titleRow.append(this.title, this.pill, refresh);
    this.problem.hidden = true;
    this.connection.hidden = true;
    this.progress.hidden = true;
    this.header.append(titleRow, this.facts, this.progress, this.problem, this.connection);

    const summary = h('summary', {}, 'Raw JSON of the job and its events');
    const copy = button('Copy JSON', () => void this.call('copy', { text: this.rawJson() }), { title: 'Copy the job and its events as JSON to the clipboard' });
    this.raw.append(summary, copy, this.rawText);
    this.raw.addEventListener('toggle', () => this.renderRaw());

    const chartsSection = h('section', { class: 'charts-section' });
    chartsSection.append(h('h2', {}, 'Metrics'), chartToolbar(this.chartGroup), this.chartsEmpty, this.chartGrid);
    const timelineSection = h('section');
    timelineSection.append(h('h2', {}, 'Events'), this.timeline.element);
    this.app.replaceChildren(this.header, chartsSection, timelineSection, this.raw);

    new ResizeObserver(() => this.resizeCharts()).observe(this.chartGrid);
    setInterval(() => this.renderFacts(), 1000);
  }

  /** Receives a message posted by the extension. */
  receive(message: unknown): void {
    this.host.receive(message);
  }

  /** Asks for everything known and draws it, then what arrived meanwhile. */
  async load(): Promise<void> {
    do {
      // Until the snapshot is drawn, appends wait for it.
      this.job = undefined;
      this.missedEarly = false;
      this.snapshot(await this.host.request('ready', {}));
      const early = this.early.splice(0);
      for (const message of early) this.append(message);
    } while (this.missedEarly);
  }

  private onEvent(event: JobHostEvent): void {
    if (event?.type !== 'append') return;
    if (this.job) {
      this.append(event);
      return;
    }
    this.early.push(event);
    if (this.early.length > maxEarlyAppends) {
      this.early.shift();
      this.missedEarly = true;
    }
  }

  /** Sends a request; the host tells the user itself when one fails. */
  private async call<K extends keyof JobHostMethods & string>(method: K, params: JobHostMethods[K]['params']): Promise<void> {
    await this.host.request(method, params).catch(() => undefined);
  }

  private snapshot(message: JobSnapshot): void {
    this.job = message.job;
    this.api.setState({ jobId: message.job.id });
    this.title.textContent = message.job.label;
    this.title.title = `Training job ${message.job.id}${message.job.modelId ? `\nModel ${message.job.modelId}` : ''}`;
    document.title = message.job.label;
    this.events = message.events.slice(-maxEventsKept);
    this.series = new MetricSeriesSet();
    for (const chart of this.charts.values()) chart.dispose();
    this.charts.clear();
    this.chartGrid.replaceChildren();
    const jobSteps = numberJobSteps(this.events, message.status.step);
    this.timeline.reset(this.events, jobSteps);
    this.apply(message, this.events, jobSteps);
  }

  private append(message: JobAppend): void {
    for (const event of message.events) this.events.push(event);
    if (this.events.length > maxEventsKept) this.events.splice(0, this.events.length - maxEventsKept);
    // Numbered over the kept history, so the newest gradient step is the status's job step.
    const jobSteps = numberJobSteps(this.events, message.status.step);
    const freshCount = Math.min(message.events.length, this.events.length);
    this.timeline.prepend(freshCount, this.events, jobSteps);
    this.apply(message, this.events.slice(this.events.length - freshCount), jobSteps.slice(jobSteps.length - freshCount));
  }

  private apply(message: JobSnapshot | JobAppend, fresh: readonly TrainingJobEvent[], jobSteps: readonly (number | undefined)[]): void {
    this.status = message.status;
    this.record = message.record ?? this.record;
    this.clockOffset = message.now - Date.now();
    this.problem.hidden = message.status.phase !== 'failed';
    this.problem.textContent = message.status.phase === 'failed' ? `Failed: ${message.status.errorMessage ?? 'no message'}` : '';
    this.connection.hidden = !message.connectionError;
    this.connection.textContent = message.connectionError ? `${message.connectionError} — retrying` : '';
    const axisBefore = this.series.axis;
    const touched = this.series.append(fresh, jobSteps);
    // Every chart of a job shares one step axis: when it changes, all of them are drawn again.
    const redrawAll = this.series.axis !== axisBefore;
    for (const series of this.series.list()) {
      let chart = this.charts.get(series.key);
      if (!chart) {
        const set = this.series;
        chart = new MetricChart(
          this.chartGroup,
          series.key,
          () => stepAxisName(set.axis),
          (file) => void this.call('saveChart', file),
        );
        this.charts.set(series.key, chart);
        this.chartGrid.append(chart.element);
        chart.setWidth(chartWidthIn(this.chartGrid));
        chart.setLines([this.lineOf(series, this.charts.size - 1)]);
      } else if (redrawAll || touched.has(series.key)) {
        chart.setLines([this.lineOf(series, [...this.charts.keys()].indexOf(series.key))]);
      }
    }
    this.chartsEmpty.hidden = this.charts.size > 0;
    this.renderFacts();
    if (this.raw.open) this.renderRaw();
  }

  /** A metric's series as its chart draws it, against the step axis every chart of the job shares. */
  private lineOf(series: MetricSeries, colorIndex: number) {
    const axis = this.series.axis;
    return {
      key: series.key,
      label: series.key,
      xs: stepsOn(series, axis),
      ys: series.values,
      colorIndex,
      describeX: (index: number) => describePoint({ jobStep: series.jobSteps[index]!, modelStep: series.modelSteps[index]! }, axis),
    };
  }

  private renderFacts(): void {
    const status = this.status;
    if (!status) return;
    this.pill.textContent = status.phase;
    this.pill.className = `pill phase-${status.phase}`;
    const facts: string[] = [describeJobProgress(status)];
    const elapsed = elapsedMs(status, Date.now() + this.clockOffset);
    if (elapsed !== undefined) facts.push(`${isTerminal(status) ? 'took' : 'running for'} ${formatDuration(elapsed)}`);
    const loss = status.latestMetrics.loss;
    if (loss !== undefined) facts.push(`loss ${formatMetric(loss)}`);
    facts.push(`${status.eventCount} event${status.eventCount === 1 ? '' : 's'}`);
    if (this.job?.modelId) facts.push(`model ${this.job.modelId}`);
    this.facts.textContent = facts.join(' · ');
    const total = status.totalSteps;
    this.progress.hidden = total === undefined || total <= 0;
    if (total !== undefined && total > 0) {
      this.progress.max = total;
      this.progress.value = status.phase === 'succeeded' ? total : Math.min(status.step, total);
    }
  }

  private renderRaw(): void {
    if (this.raw.open) this.rawText.textContent = this.rawJson();
  }

  private rawJson(): string {
    return JSON.stringify({ job: this.record ?? { id: this.job?.id }, events: this.events }, null, 2);
  }

  private resizeCharts(): void {
    const width = chartWidthIn(this.chartGrid);
    for (const chart of this.charts.values()) chart.setWidth(width);
  }
}

const root = document.getElementById('app');
if (root) {
  const page = new JobDetailsPage(root, webviewApi<JobDetailsViewState>());
  // The extension's messages arrive as window messages; the protocol parser drops anything else.
  window.addEventListener('message', (event: MessageEvent) => page.receive(event.data));
  void page.load().catch((error: unknown) => {
    root.textContent = `The job details could not load: ${errorMessage(error)}`;
  });
}
