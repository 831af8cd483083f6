/**
 * The rollout inspector's page: header, problems, overview, filter bar, the groups list with its
 * actions, and the open group. It asks the host for the file's state and the first rows at once
 * when it loads, keeps its place (query, scroll, open group, selection) in the webview state, and
 * when the file changes asks the rows on screen again without moving.
 */
import type { GroupFlag } from '../model/groupSummaryShape';
import { defaultQuery, queryLimits, type GroupFilter, type GroupQuery, type RolloutFileState, type SortColumn, type ValueRange } from '../model/inspectorModel';
import type { GroupScope, RolloutHostEvent, RolloutHostMethods, RolloutPageEvent, RolloutPageMethods, RolloutsViewState } from '../protocol';
import { h } from '../../platform/pages/page/dom';
import { RpcEndpoint } from '../../platform/pages/rpc';
import type { WebviewApi } from '../../platform/pages/page/webviewApi';
import { ActionBar } from './actionBar';
import { FilterBar } from './filterBar';
import { GroupList, rowHeight } from './groupList';
import { GroupView } from './groupView';
import { Header } from './header';
import { Overview } from './overview';
import { ProblemsList } from './problemsList';
import { RowSource } from './rowSource';
import { parseViewState } from './viewState';
import { errorMessage } from '../../platform/client/errorMessage';

/** The place is saved once scrolling or clicking pauses this long. */
const saveDelayMs = 250;

type Host = RpcEndpoint<RolloutHostMethods, RolloutPageMethods, RolloutPageEvent, RolloutHostEvent>;

export class RolloutsPage {
  private readonly host: Host;
  private readonly source: RowSource;
  private readonly header = new Header(() => this.call('reopenWith', {}));
  private readonly problems: ProblemsList;
  private readonly overview: Overview;
  private readonly filterBar: FilterBar;
  private readonly list: GroupList;
  private readonly actionBar: ActionBar;
  private readonly groupView: GroupView;
  private state: RolloutFileState | undefined;
  private pendingState: RolloutFileState | undefined;
  private stateFrame = 0;
  private query: GroupQuery;
  private openToken = 0;
  /** The group asked for and not yet drawn (the place to keep while it is on its way). */
  private opening: number | undefined;
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  /** A restored scroll position, applied once the list is tall enough. */
  private pendingScroll: number | undefined;

  constructor(
    private readonly app: HTMLElement,
    private readonly api: WebviewApi<RolloutsViewState>,
  ) {
    const saved = parseViewState(api.getState());
    this.query = saved?.query ?? defaultQuery;
    this.host = new RpcEndpoint<RolloutHostMethods, RolloutPageMethods, RolloutPageEvent, RolloutHostEvent>({
      post: (message) => api.postMessage(message),
      handlers: {},
      onEvent: (event) => this.onEvent(event),
    });
    this.source = new RowSource(
      (query, start, count) => this.host.request('rows', { query, start, count }),
      this.query,
      () => this.rowsChanged(),
    );
    this.problems = new ProblemsList((line) => this.revealLine(line));
    this.overview = new Overview({ addRange: (range) => this.addRange(range), toggleFlag: (flag) => this.toggleFlag(flag) });
    this.filterBar = new FilterBar(this.query.filter, (filter) => this.setFilter(filter));
    this.list = new GroupList(this.source, {
      open: (index) => void this.open(index),
      revealLine: (line) => this.revealLine(line),
      sort: (column) => this.sortBy(column),
      selectionChanged: () => this.selectionChanged(),
      scrolled: () => this.saveSoon(),
      emptyText: () => this.emptyText(),
    });
    this.actionBar = new ActionBar({
      createJob: () => this.call('createJob', { scope: this.scope() }),
      logToModel: () => this.call('logToModel', { scope: this.scope() }),
      exportGroups: () => this.call('exportGroups', { scope: this.scope() }),
      clearSelection: () => this.list.clearSelection(),
    });
    this.groupView = new GroupView({
      close: () => this.closeGroup(),
      revealLine: (line) => this.revealLine(line),
      copyTrajectory: (index, position) => this.call('copyTrajectory', { index, position }),
    });
    this.list.setSort(this.query.sort.column, this.query.sort.descending);
    if (saved) {
      this.list.setSelection(saved.selected);
      this.pendingScroll = saved.scrollTop > 0 ? saved.scrollTop : undefined;
    }
    const workspace = h('div', { class: 'workspace' }, this.filterBar.element, this.actionBar.element, this.list.element, this.groupView.element);
    this.app.replaceChildren(this.header.element, this.problems.element, this.overview.element, workspace);
    this.actionBar.render(this.list.selected.size, undefined);
    document.addEventListener('keydown', (event) => this.onKey(event));
    if (saved?.openGroup !== undefined) void this.open(saved.openGroup, false);
  }

  receive(message: unknown): void {
    this.host.receive(message);
  }

  /** Asks for the state and the rows of the first screen at once: the first paint needs both. */
  async load(): Promise<void> {
    const top = this.pendingScroll ?? 0;
    const screen = Math.ceil(window.innerHeight / rowHeight) + 10;
    this.source.want(Math.floor(top / rowHeight), Math.floor(top / rowHeight) + screen);
    this.applyState(await this.host.request('ready', {}));
  }

  private onEvent(event: RolloutHostEvent): void {
    if (typeof event !== 'object' || event === null) return;
    if (event.type === 'state') {
      // States may come with every chunk read: the latest one is drawn once per frame.
      this.pendingState = event.state;
      if (!this.stateFrame)
        this.stateFrame = requestAnimationFrame(() => {
          this.stateFrame = 0;
          const state = this.pendingState;
          this.pendingState = undefined;
          if (state) this.applyState(state);
        });
    } else if (event.type === 'search') {
      if (this.source.busy) this.filterBar.showSearch(event);
    } else if (event.type === 'reveal') {
      if (Number.isSafeInteger(event.index) && event.index >= 0) void this.open(event.index);
    }
  }

  private applyState(state: RolloutFileState): void {
    const previous = this.state;
    // A state older than the one drawn (a reply overtaken by an event) changes nothing.
    if (previous && state.version < previous.version) return;
    this.state = state;
    // A file that cannot be read at all shows why, and no dashboard of zeros beneath.
    document.body.classList.toggle('unreadable', state.unreadable === true);
    // A Parquet log has rows, not lines, and no text editor to reveal them in.
    document.body.classList.toggle('placed-by-rows', state.format === 'parquet');
    this.groupView.placedByRows = state.format === 'parquet';
    this.list.placedByRows(state.format === 'parquet');
    this.header.render(state);
    this.problems.render(state);
    this.overview.render(state);
    this.filterBar.setMetadataChoices(state.metadata);
    this.list.schedule();
    if (previous && state.version !== previous.version) {
      this.source.setVersion(state.version);
      // A group already listed does not change while the rest of the file is read; once the
      // file is read again (changed on disk), the open group is asked again and drawn in place.
      const open = this.groupView.openIndex;
      if (open !== undefined && !state.reading) void this.open(open, false);
    } else {
      this.source.setVersion(state.version);
    }
  }

  private rowsChanged(): void {
    if (this.pendingScroll !== undefined && this.source.total !== undefined) {
      this.list.restoreScroll(this.pendingScroll);
      this.pendingScroll = undefined;
    }
    this.list.schedule();
    this.actionBar.render(this.list.selected.size, this.source.total);
    if (!this.source.busy) this.filterBar.showSearch(undefined);
  }

  private setFilter(filter: GroupFilter): void {
    this.setQuery({ ...this.query, filter });
  }

  private setQuery(query: GroupQuery): void {
    this.query = query;
    this.filterBar.render(query.filter);
    this.list.setSort(query.sort.column, query.sort.descending);
    this.source.setQuery(query);
    this.list.reset();
    this.actionBar.render(this.list.selected.size, undefined);
    this.saveSoon();
  }

  private sortBy(column: SortColumn): void {
    const current = this.query.sort;
    // A new column starts with the largest first (highest variance, longest completion), the position with the first.
    const descending = current.column === column ? !current.descending : column !== 'index';
    this.setQuery({ ...this.query, sort: { column, descending } });
  }

  private addRange(range: ValueRange): void {
    const filter = this.query.filter;
    if (filter.ranges.some((each) => each.series === range.series && each.min === range.min && each.max === range.max)) return;
    this.setFilter({ ...filter, ranges: [...filter.ranges, range].slice(-queryLimits.ranges) });
  }

  private toggleFlag(flag: GroupFlag): void {
    const filter = this.query.filter;
    const flags = filter.flags.includes(flag) ? filter.flags.filter((each) => each !== flag) : [...filter.flags, flag];
    this.setFilter({ ...filter, flags });
  }

  private async open(index: number, scroll = true): Promise<void> {
    const token = ++this.openToken;
    const redraw = this.groupView.openIndex === index;
    this.opening = index;
    if (!redraw) this.groupView.showLoading(index);
    this.list.setOpen(index);
    this.saveSoon();
    if (scroll) this.bringIntoView();
    let detail;
    try {
      detail = await this.host.request('group', { index });
    } catch (error) {
      if (token === this.openToken) this.groupView.showMissing(index, `The group could not be read: ${errorMessage(error)}`);
      return;
    } finally {
      if (token === this.openToken) this.opening = undefined;
    }
    if (token !== this.openToken) return;
    if (detail) this.groupView.show(detail);
    else this.groupView.showMissing(index, 'This group is no longer in the file: the file changed since it was read.');
    // Again once drawn: the page may not have been long enough to scroll while the group was read.
    if (scroll) this.bringIntoView();
  }

  /**
   * The opened group where it can be read: its start in the upper half of the window, so most of the
   * window shows it, and the opened row still in sight in the list above it. (Only the group's heading
   * showed at the bottom of the window when it opened from the list's last rows.)
   */
  private bringIntoView(): void {
    const view = this.groupView.element.getBoundingClientRect();
    const wantedTop = Math.max(160, Math.round(window.innerHeight * 0.45));
    if (view.top <= wantedTop) return;
    window.scrollBy({ top: view.top - wantedTop, behavior: 'instant' });
    this.list.keepOpenRowInSight(0);
  }

  private closeGroup(): void {
    this.openToken++;
    this.opening = undefined;
    this.groupView.hide();
    this.list.setOpen(undefined);
    this.list.focus();
    this.saveSoon();
  }

  private onKey(event: KeyboardEvent): void {
    if (event.key !== 'Escape' || event.defaultPrevented) return;
    const target = event.target as HTMLElement | null;
    if (target && (target.tagName === 'INPUT' || target.tagName === 'SELECT')) return;
    if (this.groupView.openIndex === undefined && this.opening === undefined && this.groupView.element.hidden) return;
    event.preventDefault();
    this.closeGroup();
  }

  private emptyText(): string {
    const { flags, ranges, metadata, text } = this.query.filter;
    if (flags.length || ranges.length || metadata.length || text) return 'No groups match the filter.';
    if (this.state?.reading) return 'No trajectory groups read yet.';
    return this.state?.groupsNotKept ? 'No groups are listed.' : 'The file has no trajectory groups.';
  }

  private selectionChanged(): void {
    this.actionBar.render(this.list.selected.size, this.source.total);
    this.saveSoon();
  }

  private scope(): GroupScope {
    return this.list.selected.size > 0 ? { kind: 'selected', indices: [...this.list.selected] } : { kind: 'matching', query: this.query };
  }

  private revealLine(line: number): void {
    this.call('revealLine', { line });
  }

  /** Sends a request; the host tells the user itself when one fails. */
  private call<K extends keyof RolloutHostMethods & string>(method: K, params: RolloutHostMethods[K]['params']): void {
    void this.host.request(method, params).catch(() => undefined);
  }

  private saveSoon(): void {
    clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => this.save(), saveDelayMs);
  }

  private save(): void {
    const openGroup = this.opening ?? this.groupView.openIndex;
    const state: RolloutsViewState = { query: this.query, scrollTop: this.pendingScroll ?? this.list.scrollTop, selected: [...this.list.selected] };
    if (openGroup !== undefined) state.openGroup = openGroup;
    this.api.setState(state);
  }
}
