import type { TrainingJob, TrainingJobEvent } from '../../api/types';
import type { AppendMessage, HostMessage, JobSummary, SnapshotMessage, WebviewMessage } from './protocol';
import { formatDuration, formatMetric } from '../../core/format';
import { elapsedMs, isTerminal, type JobStatus } from '../../core/jobStatus';
import { describeJobProgress, numberJobSteps } from '../../core/jobSteps';
import { MetricSeriesSet } from '../../core/metricSeries';
import { LineChart } from './chart';
import { el } from './dom';
import { Timeline } from './timeline';

interface VsCodeApi {
  postMessage(message: WebviewMessage): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
/** The host keeps at most this many events per job too; a page open for days stays the same size. */
const maxEventsKept = 5_000;
const app = document.getElementById('app')!;

/** The page of one job: header, live charts, timeline and raw JSON. Built once per snapshot, then updated in place. */
class JobDetailsPage {
  private job: JobSummary | undefined;
  private status: JobStatus | undefined;
  private record: TrainingJob | undefined;
  private events: TrainingJobEvent[] = [];
  private series = new MetricSeriesSet();
  private readonly charts = new Map<string, LineChart>();
  private clockOffset = 0;

  private readonly header = el('header', 'job-header');
  private readonly title = el('h1');
  private readonly pill = el('span', 'pill');
  private readonly facts = el('div', 'facts');
  private readonly progress = el('progress');
  private readonly problem = el('div', 'problem');
  private readonly connection = el('div', 'connection');
  private readonly chartGrid = el('div', 'charts');
  private readonly chartsEmpty = el('p', 'muted', 'Charts appear with the first gradient step.');
  private readonly timeline = new Timeline();
  private readonly raw = el('details', 'raw');
  private readonly rawText = el('pre');

  constructor() {
    const titleRow = el('div', 'title-row');
    const refresh = el('button', 'secondary', 'Refresh');
    refresh.addEventListener('click', () => vscode.postMessage({ type: 'refresh' }));
    titleRow.append(this.title, this.pill, refresh);
    this.problem.hidden = true;
    this.connection.hidden = true;
    this.progress.hidden = true;
    this.header.append(titleRow, this.facts, this.progress, this.problem, this.connection);

    const summary = el('summary', undefined, 'Raw JSON of the job and its events');
    const copy = el('button', 'secondary', 'Copy JSON');
    copy.addEventListener('click', () => vscode.postMessage({ type: 'copy', text: this.rawJson() }));
    this.raw.append(summary, copy, this.rawText);
    this.raw.addEventListener('toggle', () => this.renderRaw());

    const chartsSection = el('section', 'charts-section');
    chartsSection.append(el('h2', undefined, 'Metrics'), this.chartsEmpty, this.chartGrid);
    const timelineSection = el('section');
    timelineSection.append(el('h2', undefined, 'Events'), this.timeline.element);
    app.replaceChildren(this.header, chartsSection, timelineSection, this.raw);

    new ResizeObserver(() => this.resizeCharts()).observe(this.chartGrid);
    setInterval(() => this.renderFacts(), 1000);
  }

  snapshot(message: SnapshotMessage): void {
    this.job = message.job;
    vscode.setState({ jobId: message.job.id });
    this.title.textContent = message.job.label;
    this.title.title = `Training job ${message.job.id}${message.job.modelId ? `\nModel ${message.job.modelId}` : ''}`;
    document.title = message.job.label;
    this.events = message.events.slice(-maxEventsKept);
    this.series = new MetricSeriesSet();
    this.charts.clear();
    this.chartGrid.replaceChildren();
    const jobSteps = numberJobSteps(this.events, message.status.step);
    this.timeline.reset(this.events, jobSteps);
    this.apply(message, this.events, jobSteps);
  }

  append(message: AppendMessage): void {
    if (!this.job) return;
    for (const event of message.events) this.events.push(event);
    if (this.events.length > maxEventsKept) this.events.splice(0, this.events.length - maxEventsKept);
    // Numbered over the kept history, so the newest gradient step is the status's job step.
    const jobSteps = numberJobSteps(this.events, message.status.step);
    const freshCount = Math.min(message.events.length, this.events.length);
    this.timeline.prepend(freshCount, this.events, jobSteps);
    this.apply(message, this.events.slice(this.events.length - freshCount), jobSteps.slice(jobSteps.length - freshCount));
  }

  private apply(message: SnapshotMessage | AppendMessage, fresh: readonly TrainingJobEvent[], jobSteps: readonly (number | undefined)[]): void {
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
        chart = new LineChart(series, this.charts.size, () => set.axis);
        this.charts.set(series.key, chart);
        this.chartGrid.append(chart.element);
        chart.setWidth(this.chartWidth());
        chart.render();
      } else if (redrawAll || touched.has(series.key)) {
        chart.render();
      }
    }
    this.chartsEmpty.hidden = this.charts.size > 0;
    this.renderFacts();
    if (this.raw.open) this.renderRaw();
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

  private chartWidth(): number {
    const width = this.chartGrid.clientWidth || 640;
    const columns = width >= 760 ? 2 : 1;
    return (width - (columns - 1) * 12) / columns - 2;
  }

  private resizeCharts(): void {
    const width = this.chartWidth();
    for (const chart of this.charts.values()) chart.setWidth(width);
  }
}

const page = new JobDetailsPage();

window.addEventListener('message', (event: MessageEvent<HostMessage>) => {
  const message = event.data;
  if (message?.type === 'snapshot') page.snapshot(message);
  else if (message?.type === 'append') page.append(message);
});

vscode.postMessage({ type: 'ready' });
