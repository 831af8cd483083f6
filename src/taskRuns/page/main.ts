import type { TaskRunHostEvent, TaskRunHostMethods, TaskRunSnapshot, TaskRunViewState } from '../protocol';
import type { RunState, StepState } from '../model/runState';
import { budgetShares, describeCurrent, heldOutSeries, noSignalSeries, rewardSeries, type DashboardSeries } from '../model/dashboardModel';
import { ChartGroup } from '../../platform/pages/page/chart/chartGroup';
import { chartToolbar } from '../../platform/pages/page/chart/chartToolbar';
import { chartWidthIn, MetricChart } from '../../platform/pages/page/chart/metricChart';
import { h } from '../../platform/pages/page/dom';
import { RpcEndpoint } from '../../platform/pages/rpc';
import type { NoMethods } from '../../platform/pages/wire';
import { webviewApi, type WebviewApi } from '../../platform/pages/page/webviewApi';
import { formatMetric } from '../../platform/kit/format';
import { errorMessage } from '../../platform/client/errorMessage';

/**
 * A training run from a task file, as it goes: its status, what it spent against its budget, the
 * current step, reward per step, the share of groups with no signal and the held-out score on shared
 * charts, and each step's rollouts, job and checkpoint one click away. Drawn again from each
 * snapshot the host sends when run.json changes. Everything from the file is set as text.
 */
class TaskRunPage {
  private readonly host: RpcEndpoint<TaskRunHostMethods, NoMethods, never, TaskRunHostEvent>;
  private readonly group = new ChartGroup();
  private readonly charts = new Map<string, MetricChart>();
  private readonly title = h('h1');
  private readonly status = h('span', { class: 'pill' });
  private readonly facts = h('div', { class: 'facts' });
  private readonly failure = h('div', { class: 'failure' });
  private readonly current = h('p', { class: 'current' });
  private readonly spend = h('div', { class: 'spend' });
  private readonly stopButton = h('button', { type: 'button' }, 'Stop');
  private readonly grid = h('div', { class: 'charts' });
  private readonly steps = h('tbody');
  private readonly heldOutLink = h('button', { type: 'button', class: 'link-button' }, 'Open the held-out results in the evaluation report');

  constructor(
    app: HTMLElement,
    private readonly api: WebviewApi<TaskRunViewState>,
  ) {
    this.host = new RpcEndpoint<TaskRunHostMethods, NoMethods, never, TaskRunHostEvent>({
      post: (message) => api.postMessage(message),
      handlers: {},
      onEvent: (event) => {
        if (event?.type === 'update') this.draw(event.snapshot);
      },
    });
    this.failure.hidden = true;
    this.stopButton.addEventListener('click', () => void this.ask('stop', {}));
    this.heldOutLink.addEventListener('click', () => void this.ask('openHeldOut', {}));
    const header = h('header', { class: 'run-header' }, h('div', { class: 'title-row' }, this.title, this.status, this.stopButton), this.facts, this.failure, this.current, this.spend);
    const table = h(
      'table',
      { class: 'steps' },
      h('thead', {}, h('tr', {}, ...['Step', 'State', 'Groups', 'No signal', 'Left out', 'Mean reward', 'Requests', ''].map((label) => h('th', {}, label)))),
      this.steps,
    );
    app.replaceChildren(header, h('section', {}, h('h2', {}, 'Per step'), chartToolbar(this.group), this.grid), h('section', {}, h('h2', {}, 'Steps'), table, this.heldOutLink));
    new ResizeObserver(() => this.resize()).observe(this.grid);
  }

  receive(message: unknown): void {
    this.host.receive(message);
  }

  async load(): Promise<void> {
    this.draw(await this.host.request('ready', {}));
  }

  private async ask<K extends keyof TaskRunHostMethods>(method: K, params: TaskRunHostMethods[K]['params']): Promise<void> {
    try {
      await this.host.request(method, params);
    } catch (error) {
      this.current.textContent = `That did not work: ${errorMessage(error)}`;
    }
  }

  private draw(snapshot: TaskRunSnapshot): void {
    const state = snapshot.state;
    this.api.setState({ folder: snapshot.folderUri });
    this.stopButton.hidden = !snapshot.running;
    if (!state) {
      this.title.textContent = snapshot.folder;
      this.status.textContent = 'unreadable';
      this.status.className = 'pill failed';
      this.facts.textContent = `The run file cannot be read: ${snapshot.problem ?? 'it is missing'}`;
      return;
    }
    document.title = `Run ${state.name}`;
    this.title.textContent = `Run ${state.name}`;
    this.status.textContent = state.status;
    this.status.className = `pill ${state.status}`;
    this.facts.textContent = `Model ${state.modelName} · task ${state.task} · ${snapshot.folder}`;
    this.failure.hidden = state.failure === undefined;
    if (state.failure) this.failure.textContent = `Step ${state.failure.step}: “${state.failure.message}”`;
    this.current.textContent = describeCurrent(state);
    this.drawSpend(state);
    this.drawCharts(state);
    this.drawSteps(state);
    this.heldOutLink.hidden = state.heldOut.length === 0;
  }

  private drawSpend(state: RunState): void {
    const shares = budgetShares(state);
    const tokens = state.spent.promptTokens + state.spent.completionTokens;
    const bar = (label: string, share: number, text: string) => {
      const fill = h('span', { class: 'fill' });
      // CSSOM, not a style attribute: the content security policy allows it.
      fill.style.width = `${Math.min(100, Math.round(share * 100))}%`;
      return h('div', { class: 'budget' }, h('span', { class: 'budget-label' }, label), h('span', { class: `bar${share >= 1 ? ' spent' : ''}` }, fill), h('span', {}, text));
    };
    this.spend.replaceChildren(
      bar('Requests', shares.requests, `${state.spent.requests.toLocaleString('en-US')} of ${state.budget.requests.toLocaleString('en-US')}`),
      bar('Tokens', shares.tokens, `${tokens.toLocaleString('en-US')} of ${state.budget.tokens.toLocaleString('en-US')}`),
    );
  }

  private drawCharts(state: RunState): void {
    const charts: [key: string, title: string, label: string, series: DashboardSeries][] = [
      ['reward', 'reward per step', 'mean reward (band: one standard deviation)', rewardSeries(state)],
      ['noSignal', 'groups with no signal', 'share of groups whose answers all got the same reward', noSignalSeries(state)],
      ['heldOut', 'held-out score', 'mean score (band: 95 % interval)', heldOutSeries(state)],
    ];
    for (const [key, title, label, series] of charts) {
      let chart = this.charts.get(key);
      if (!chart) {
        chart = new MetricChart(
          this.group,
          title,
          () => (key === 'heldOut' ? 'step (0: before the first)' : 'step'),
          (file) => void this.ask('saveChart', file),
        );
        chart.element.dataset.metric = key;
        this.charts.set(key, chart);
        this.grid.append(chart.element);
        chart.setWidth(chartWidthIn(this.grid));
      }
      chart.setLines([
        {
          key,
          label,
          xs: series.xs,
          ys: series.ys,
          colorIndex: key === 'heldOut' ? 2 : key === 'noSignal' ? 1 : 0,
          ...(series.band ? { band: series.band } : {}),
          dotEveryPoint: true,
          describeX: (at) => `step ${series.xs[at]}`,
        },
      ]);
    }
  }

  private drawSteps(state: RunState): void {
    this.steps.replaceChildren(...state.steps.map((step) => this.stepRow(step)));
  }

  private stepRow(step: StepState): HTMLElement {
    const link = (label: string, title: string, run: () => void) => {
      const button = h('button', { type: 'button', class: 'link-button', title }, label);
      button.addEventListener('click', run);
      return button;
    };
    const links = h(
      'td',
      { class: 'links' },
      link('rollouts', `Open ${step.file} in the rollout inspector`, () => void this.ask('openStep', { index: step.index })),
    );
    if (step.jobId)
      links.append(
        ' · ',
        link('job', `Open the details of job ${step.jobId}`, () => void this.ask('openJob', { jobId: step.jobId! })),
      );
    if (step.checkpointStep !== undefined)
      links.append(
        ' · ',
        link(`checkpoint ${step.checkpointStep}`, 'Copy the checkpoint’s model id', () => void this.ask('copyCheckpoint', { step: step.checkpointStep! })),
      );
    return h(
      'tr',
      { class: `phase-${step.phase}` },
      h('td', {}, String(step.index)),
      h('td', {}, step.phase),
      h('td', {}, String(step.groups)),
      h('td', {}, String(step.noSignalGroups)),
      h('td', {}, String(step.leftOut)),
      h('td', {}, step.reward ? formatMetric(Math.round(step.reward.mean * 1000) / 1000) : '–'),
      h('td', {}, step.spent.requests.toLocaleString('en-US')),
      links,
    );
  }

  private resize(): void {
    for (const chart of this.charts.values()) chart.setWidth(chartWidthIn(this.grid));
  }
}

const root = document.getElementById('app');
if (root) {
  const page = new TaskRunPage(root, webviewApi<TaskRunViewState>());
  window.addEventListener('message', (event: MessageEvent) => page.receive(event.data));
  void page.load();
}
