/**
 * The evaluation report: header (the set, models, scorers, sampling, the run's progress), the
 * leaderboard with the buttons that ship a checkpoint, the score against step, the failures, the
 * per-sample matrix and one sample side by side. It asks the host for the run when it loads, merges
 * each batch of answers the host pushes while the run goes (drawn once a frame), and keeps its
 * place (filters, order, scroll, the sample shown) in the webview state.
 */
import type { LeaderboardRow } from '../model/evalModel';
import { answersPerPage } from '../model/reportPaging';
import type { ReportHostEvent, ReportHostMethods, ReportPageEvent, ReportPageMethods, ReportSnapshot, RunProgress } from '../protocol';
import { h } from '../../platform/pages/page/dom';
import { RpcEndpoint } from '../../platform/pages/rpc';
import type { WebviewApi } from '../../platform/pages/page/webviewApi';
import { FailuresList } from './failuresList';
import { FilterBar } from './filterBar';
import { Header } from './header';
import { Leaderboard, rankRows } from './leaderboard';
import { ReportIndex, noFilter, type MatrixFilter, type ShownAnswer, type SortOrder } from './reportIndex';
import { SampleMatrix } from './sampleMatrix';
import { parseSamples } from './samples';
import { ScoreChart } from './scoreChart';
import { SideBySide } from './sideBySide';
import { parseViewState, type EvalReportViewState } from './viewState';
import { errorMessage } from '../../platform/client/errorMessage';

/** The place is saved once scrolling or clicking pauses this long. */
const saveDelayMs = 250;
/** Whole answers asked for at most per page load (each is one request; a person reads a few). */
const maxWholeRequests = 2_000;
/** Pages of answers asked for at most per page load: every answer a run may hold (a million). */
const maxAnswerPages = 1_000;

type Host = RpcEndpoint<ReportHostMethods, ReportPageMethods, ReportPageEvent, ReportHostEvent>;

export class EvalReportPage {
  private readonly host: Host;
  private readonly header: Header;
  private readonly leaderboard: Leaderboard;
  private readonly chart: ScoreChart;
  private readonly failures: FailuresList;
  private readonly filterBar: FilterBar;
  private readonly matrix: SampleMatrix;
  private readonly sideBySide: SideBySide;
  private snapshot: ReportSnapshot | undefined;
  private index: ReportIndex | undefined;
  private leaderboardRows: LeaderboardRow[] = [];
  private ranking: string[] = [];
  private filter: MatrixFilter;
  private sort: SortOrder;
  private metric: string | undefined;
  private selected: string | undefined;
  private diff: boolean;
  private pendingScroll: number | undefined;
  private pendingAnswers: ShownAnswer[][] = [];
  private pendingLeaderboard: LeaderboardRow[] | undefined;
  private pendingProgress: { progress: RunProgress | undefined } | undefined;
  private answersFrame = 0;
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly wholeAsked = new Set<string>();
  /** Checkpoints (model ids) deleted since the report was drawn: shown as such, never offered. */
  private gone = new Set<string>();
  private readonly wholeMissing = new Set<string>();

  constructor(
    private readonly app: HTMLElement,
    private readonly api: WebviewApi<EvalReportViewState>,
  ) {
    const saved = parseViewState(api.getState());
    this.filter = saved?.filter ?? noFilter;
    this.sort = saved?.sort ?? 'sample';
    this.metric = saved?.metric;
    this.selected = saved?.selected;
    this.diff = saved?.diff ?? true;
    this.pendingScroll = saved?.scrollTop || undefined;
    this.host = new RpcEndpoint<ReportHostMethods, ReportPageMethods, ReportPageEvent, ReportHostEvent>({
      post: (message) => api.postMessage(message),
      handlers: {},
      onEvent: (event) => this.onEvent(event),
    });
    this.header = new Header(() => this.call('cancel', {}));
    this.leaderboard = new Leaderboard({
      useModel: (model) => this.call('useModel', { model }),
      deleteOthers: (keep) => this.call('deleteOthers', { keep }),
    });
    this.chart = new ScoreChart(
      (metric) => {
        this.metric = metric;
        this.saveSoon();
      },
      (file) => this.call('saveChart', file),
    );
    this.failures = new FailuresList({ retry: (keys) => this.retry(keys), show: (sample, model) => this.select(sample, model, true) });
    this.filterBar = new FilterBar(this.filter, this.sort, {
      filter: (filter) => {
        this.filter = filter;
        this.refreshRows(true);
      },
      sort: (order) => {
        this.sort = order;
        this.refreshRows(true);
      },
    });
    this.matrix = new SampleMatrix({ select: (sample, model) => this.select(sample, model, false), retry: (keys) => this.retry(keys), scrolled: () => this.saveSoon() });
    this.sideBySide = new SideBySide({
      retry: (keys) => this.retry(keys),
      wantWhole: (key) => this.fetchWhole(key),
      wholeMissing: (key) => this.wholeMissing.has(key),
      close: () => this.closeSample(),
      diffChanged: (on) => {
        this.diff = on;
        this.saveSoon();
      },
    });
    this.sideBySide.setDiff(this.diff);
    const summary = h('div', { class: 'summary' }, this.leaderboard.element, this.chart.element);
    const matrixPanel = h(
      'section',
      { class: 'panel matrix-panel', ariaLabel: 'Scores by sample' },
      h('div', { class: 'panel-head' }, h('h2', {}, 'By sample')),
      this.filterBar.element,
      this.matrix.element,
    );
    this.app.replaceChildren(this.header.element, summary, this.failures.element, matrixPanel, this.sideBySide.element);
    document.addEventListener('keydown', (event) => {
      if (event.key !== 'Escape' || event.defaultPrevented || this.sideBySide.shownSample === undefined) return;
      const target = event.target as HTMLElement | null;
      if (target && (target.tagName === 'INPUT' || target.tagName === 'SELECT')) return;
      event.preventDefault();
      this.closeSample();
    });
  }

  receive(message: unknown): void {
    this.host.receive(message);
  }

  async load(): Promise<void> {
    this.applySnapshot(await this.host.request('ready', {}));
  }

  private onEvent(event: ReportHostEvent): void {
    if (typeof event !== 'object' || event === null) return;
    if (event.type === 'snapshot') {
      this.applySnapshot(event.snapshot);
    } else if (event.type === 'provenance') {
      this.header.renderProvenance(event.provenance);
    } else if (event.type === 'checkpoints') {
      if (Array.isArray(event.gone)) this.gone = new Set(event.gone.filter((model) => typeof model === 'string'));
      if (this.index && this.snapshot) this.renderSummary();
    } else if (event.type === 'answers') {
      // Batches may come faster than frames: they are merged together once per frame.
      if (Array.isArray(event.answers)) this.pendingAnswers.push(event.answers);
      if (Array.isArray(event.leaderboard)) this.pendingLeaderboard = event.leaderboard;
      this.pendingProgress = { progress: event.progress };
      if (!this.answersFrame) this.answersFrame = requestAnimationFrame(() => this.applyAnswers());
    }
  }

  private applySnapshot(snapshot: ReportSnapshot): void {
    this.snapshot = snapshot;
    this.pendingAnswers = [];
    this.pendingLeaderboard = undefined;
    this.pendingProgress = undefined;
    const samples = parseSamples(snapshot.samples);
    this.index = new ReportIndex(snapshot.run, samples, snapshot.primaryScorer);
    this.leaderboardRows = Array.isArray(snapshot.leaderboard) ? snapshot.leaderboard : [];
    this.gone = new Set(Array.isArray(snapshot.gone) ? snapshot.gone : []);
    this.header.render(snapshot, this.index.sampleCount);
    this.renderSummary();
    this.matrix.setModels(this.index.models, this.ranking[0]);
    this.refreshRows(false);
    this.matrix.schedule(true);
    if (this.pendingScroll !== undefined) {
      this.matrix.scrollTop = this.pendingScroll;
      this.pendingScroll = undefined;
    }
    const shown = this.selected !== undefined ? this.index.sampleIndex(this.selected) : undefined;
    if (shown !== undefined) this.sideBySide.show(this.index, shown, undefined, this.ranking);
    else this.sideBySide.hide();
    this.matrix.setSelected(shown);
    const answerCount = typeof snapshot.answerCount === 'number' ? snapshot.answerCount : snapshot.run.answers.length;
    if (answerCount > snapshot.run.answers.length) void this.fetchPages(this.index, snapshot.run.answers.length, answerCount);
  }

  /**
   * Asks the host for the answers past the first page, one page at a time, each merged as the answers
   * of a run are (drawn once a frame); stops when the report was loaded again.
   */
  private async fetchPages(index: ReportIndex, offset: number, total: number): Promise<void> {
    this.header.renderLoading(offset, total);
    for (let page = 0; page < maxAnswerPages && offset < total; page++) {
      let reply: { answers: ShownAnswer[]; total: number };
      try {
        reply = await this.host.request('answers', { offset, limit: answersPerPage });
      } catch (error) {
        if (index === this.index) this.header.renderLoading(offset, total, errorMessage(error));
        return;
      }
      if (index !== this.index) return;
      if (!Array.isArray(reply.answers) || reply.answers.length === 0) break;
      offset += reply.answers.length;
      if (typeof reply.total === 'number') total = reply.total;
      this.pendingAnswers.push(reply.answers);
      if (!this.answersFrame) this.answersFrame = requestAnimationFrame(() => this.applyAnswers());
      this.header.renderLoading(offset, total);
    }
    this.header.renderLoading(total, total);
  }

  private applyAnswers(): void {
    this.answersFrame = 0;
    const index = this.index;
    if (!index || !this.snapshot) return;
    for (const batch of this.pendingAnswers) index.merge(batch);
    this.pendingAnswers = [];
    if (this.pendingLeaderboard) this.leaderboardRows = this.pendingLeaderboard;
    this.pendingLeaderboard = undefined;
    if (this.pendingProgress) {
      this.snapshot = { ...this.snapshot, progress: this.pendingProgress.progress };
      this.header.renderProgress(this.pendingProgress.progress);
    }
    this.pendingProgress = undefined;
    const best = this.ranking[0];
    this.renderSummary();
    if (best !== this.ranking[0]) this.matrix.setModels(index.models, this.ranking[0]);
    this.refreshRows(false);
    this.sideBySide.refresh(index, this.ranking);
  }

  private renderSummary(): void {
    const index = this.index!;
    const snapshot = this.snapshot!;
    this.ranking = rankRows(this.leaderboardRows)
      .filter((row) => row.scored > 0)
      .map((row) => row.model);
    this.leaderboard.render(this.leaderboardRows, index.models, snapshot.canPromote === true, snapshot.primaryScorer, this.gone);
    this.chart.render(this.leaderboardRows, index.models, this.metric);
    this.failures.render(index);
  }

  /** The matrix's rows for the filter and order; back to the top when they changed. */
  private refreshRows(reset: boolean): void {
    const index = this.index;
    if (!index) return;
    const rows = index.rows(this.filter, this.sort);
    const filtered = this.filter.disagree || this.filter.failures || this.filter.text.trim() !== '';
    const empty = filtered ? 'No samples match the filter.' : index.sampleCount === 0 ? 'No samples yet.' : '';
    this.matrix.setRows(index, rows, empty);
    this.filterBar.showCount(rows.length, index.sampleCount);
    if (reset) {
      this.matrix.scrollTop = 0;
      this.saveSoon();
    }
  }

  private select(sample: number, model: number | undefined, reveal: boolean): void {
    const index = this.index;
    if (!index) return;
    this.selected = index.samples[sample]?.id;
    this.matrix.setSelected(sample);
    if (reveal) this.matrix.reveal(sample);
    this.sideBySide.show(index, sample, model, this.ranking);
    this.saveSoon();
  }

  private closeSample(): void {
    this.selected = undefined;
    this.sideBySide.hide();
    this.matrix.setSelected(undefined);
    this.saveSoon();
  }

  private retry(keys: string[]): void {
    if (keys.length) this.call('retry', { keys });
  }

  /** Asks the host for a cut answer whole, once; the side-by-side view is drawn again when it comes. */
  private fetchWhole(key: string): void {
    if (this.wholeAsked.has(key) || this.wholeAsked.size >= maxWholeRequests) return;
    this.wholeAsked.add(key);
    const index = this.index;
    if (!index) return;
    this.host.request('answer', { key }).then(
      (answer) => {
        if (index !== this.index) return;
        if (answer && answer.key === key) index.replaceWhole({ ...answer, cut: false } as ShownAnswer);
        else this.wholeMissing.add(key);
        this.refreshRows(false);
        this.sideBySide.refresh(index, this.ranking);
      },
      () => {
        this.wholeMissing.add(key);
        if (index === this.index) this.sideBySide.refresh(index, this.ranking);
      },
    );
  }

  /** Sends a request; the host tells the user itself when one fails. */
  private call<K extends keyof ReportHostMethods & string>(method: K, params: ReportHostMethods[K]['params']): void {
    void this.host.request(method, params).catch(() => undefined);
  }

  private saveSoon(): void {
    clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => this.save(), saveDelayMs);
  }

  private save(): void {
    const state: EvalReportViewState = { filter: this.filter, sort: this.sort, scrollTop: this.matrix.scrollTop, diff: this.diff };
    if (this.selected !== undefined) state.selected = this.selected;
    if (this.metric !== undefined) state.metric = this.metric;
    this.api.setState(state);
  }
}
