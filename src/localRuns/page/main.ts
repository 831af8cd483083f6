import { errorMessage } from '../../platform/client/errorMessage';
import { button, h } from '../../platform/pages/page/dom';
import { webviewApi, type WebviewApi } from '../../platform/pages/page/webviewApi';
import { RpcEndpoint } from '../../platform/pages/rpc';
import type { FlagWords, RunHostEvent, RunHostMethods, RunPageEvent, RunPageMethods, RunSnapshot, RunViewState, StepRow } from '../protocol';
import { RunChart, stepSummary } from './runChart';

/** Steps the list shows at once before it scrolls. */
const listRows = 14;

/**
 * The run view: a model's steps across one split, the chart of mean reward and flagged groups per
 * step, and the list of steps. Figures arrive in batches while the host reads the step files; a
 * step is opened in the rollout inspector from the chart or the list (a click, Enter, or the
 * button).
 */
class RunPage {
  private readonly host: RpcEndpoint<RunHostMethods, RunPageMethods, RunPageEvent, RunHostEvent>;
  private snapshot: RunSnapshot | undefined;
  private readonly rows = new Map<number, StepRow>();
  private flags: FlagWords[] = [];
  private drawPending = false;

  private readonly title = h('h1');
  private readonly folder = h('p', { class: 'muted folder' });
  private readonly splitPicker = h('select', { ariaLabel: 'Split' });
  private readonly progress = h('p', { class: 'muted progress' });
  private readonly chart = new RunChart((step) => this.open(step));
  private readonly legend = h('div', { class: 'legend' });
  private readonly stepList = h('select', { class: 'step-list', ariaLabel: 'Steps' });
  private readonly problem = h('p', { class: 'problem', hidden: true });

  constructor(
    private readonly app: HTMLElement,
    private readonly api: WebviewApi<RunViewState>,
  ) {
    this.host = new RpcEndpoint<RunHostMethods, RunPageMethods, RunPageEvent, RunHostEvent>({
      post: (message) => api.postMessage(message),
      handlers: {},
      onEvent: (event) => this.onEvent(event),
    });
    this.progress.setAttribute('aria-live', 'polite');
    this.stepList.size = listRows;
    this.splitPicker.addEventListener('change', () => void this.choose(this.splitPicker.value));
    // A click on a step chooses and opens it; the arrow keys only move the choice (Enter opens it).
    this.stepList.addEventListener('click', (event) => {
      if (event.target instanceof HTMLOptionElement) this.openSelected();
    });
    this.stepList.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') this.openSelected();
    });
    const openButton = button('Open in Rollout Inspector', () => this.openSelected(), { title: "Open the chosen step's file in the rollout inspector", class: 'primary' });
    const header = h('header', { class: 'run-header' }, this.title, this.folder, h('label', { class: 'split' }, 'Split ', this.splitPicker), this.progress, this.problem);
    const chartSection = h('section', { class: 'chart-section' }, this.chart.element, this.legend);
    const listSection = h('section', { class: 'list-section' }, h('h2', {}, 'Steps'), this.stepList, h('div', { class: 'actions' }, openButton));
    this.app.replaceChildren(header, chartSection, listSection);
    new ResizeObserver(() => {
      if (this.chart.setWidth(chartSection.clientWidth)) this.draw();
    }).observe(chartSection);
  }

  receive(message: unknown): void {
    this.host.receive(message);
  }

  async load(): Promise<void> {
    this.show(await this.host.request('ready', { split: this.api.getState()?.split }));
  }

  private async choose(split: string): Promise<void> {
    this.show(await this.host.request('chooseSplit', { split }));
  }

  private show(snapshot: RunSnapshot): void {
    this.snapshot = snapshot;
    this.flags = snapshot.flags;
    this.api.setState({ folder: snapshot.folder, split: snapshot.split });
    this.title.textContent = snapshot.title;
    this.folder.textContent = snapshot.folder;
    this.splitPicker.replaceChildren(...snapshot.splits.map((split) => h('option', {}, split.name)));
    this.splitPicker.value = snapshot.split;
    this.splitPicker.disabled = snapshot.splits.length < 2;
    this.legend.replaceChildren(
      h('span', { class: 'legend-item reward' }, 'mean reward'),
      ...snapshot.flags.map((flag, index) =>
        h('span', { class: `legend-item flag-${index % 6}`, title: `${flag.label}: ${flag.meaning}` }, h('span', { class: 'badge' }, flag.badge), ` ${flag.label}`),
      ),
    );
    this.rows.clear();
    for (const row of snapshot.steps) this.rows.set(row.step, row);
    this.problem.hidden = snapshot.splits.length > 0;
    this.problem.textContent = snapshot.splits.length > 0 ? '' : 'This trajectories folder has no split folders yet: the official client writes trajectories/<split>/<step>.parquet.';
    this.draw();
  }

  private onEvent(event: RunHostEvent): void {
    if (!this.snapshot || event.split !== this.snapshot.split) return;
    if (event.type === 'steps') {
      for (const row of event.rows) if (this.rows.has(row.step)) this.rows.set(row.step, row);
    } else if (event.type === 'listed') {
      this.rows.clear();
      for (const row of event.steps) this.rows.set(row.step, row);
      this.snapshot.moreSteps = event.moreSteps;
    }
    this.scheduleDraw();
  }

  private scheduleDraw(): void {
    if (this.drawPending) return;
    this.drawPending = true;
    requestAnimationFrame(() => {
      this.drawPending = false;
      this.draw();
    });
  }

  private sortedRows(): StepRow[] {
    return [...this.rows.values()].sort((a, b) => a.step - b.step);
  }

  private draw(): void {
    const rows = this.sortedRows();
    this.chart.render(rows, this.flags);
    const read = rows.filter((row) => row.state !== 'pending').length;
    const failed = rows.filter((row) => row.state === 'failed').length;
    const more = this.snapshot?.moreSteps ? ' (the latest steps only: this split has more files than the view lists)' : '';
    this.progress.textContent = rows.length === 0 ? 'No steps logged in this split yet.' : `${read} of ${rows.length} steps read${failed ? `, ${failed} could not be read` : ''}${more}.`;
    const selected = this.stepList.value;
    this.stepList.replaceChildren(
      ...rows.map((row) => {
        const option = h('option', { class: row.state, title: row.state === 'failed' ? (row.reason ?? '') : row.fileName }, stepSummary(row, this.flags));
        option.value = String(row.step);
        return option;
      }),
    );
    if (selected) this.stepList.value = selected;
  }

  private openSelected(): void {
    const step = Number(this.stepList.value);
    if (this.stepList.value !== '' && Number.isSafeInteger(step)) this.open(step);
  }

  private open(step: number): void {
    if (!this.snapshot) return;
    this.stepList.value = String(step);
    void this.host.request('openStep', { split: this.snapshot.split, step }).catch((error: unknown) => {
      this.problem.hidden = false;
      this.problem.textContent = `Step ${step} could not be opened: ${errorMessage(error)}`;
    });
  }
}

const root = document.getElementById('app');
if (root) {
  const page = new RunPage(root, webviewApi<RunViewState>());
  window.addEventListener('message', (event: MessageEvent) => page.receive(event.data));
  void page.load().catch((error: unknown) => {
    root.replaceChildren(h('p', { class: 'problem' }, `The run could not be read: ${errorMessage(error)}`));
  });
}
