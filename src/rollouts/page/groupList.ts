/**
 * The groups list: a grid of fixed-height rows of which only those on screen (and a small margin)
 * exist, positioned over a spacer as tall as the whole list, so a file of 100,000 groups costs the
 * page what one of 30 does. Rows are recycled as the list scrolls, and redrawn at most once per
 * animation frame. Click opens a group; ctrl/cmd-click and shift-click select; the keyboard moves a
 * cursor (up/down/page/home/end), Enter opens, Space selects.
 */
import type { SortColumn } from '../model/inspectorModel';
import { maxSelectedGroups } from '../protocol';
import { h } from '../../platform/pages/page/dom';
import type { RowSource } from './rowSource';
import { columns, createRowElement, metadataLines, writeRowCells, type RowElement } from './groupListRows';

export const rowHeight = 26;
/** Rows drawn above and below the screen, so a short scroll shows rows at once. */
const marginRows = 10;
/** However tall the window, no more rows than this exist. */
const maxDomRows = 240;
/**
 * A list moving more than this many screens a frame (too fast to read) is flung or its scroll bar dragged:
 * rows are asked for once it slows down or stops for `settleMs`, not for every screen it passes.
 */
const fastScreensPerFrame = 1;
/** The name of the performance measure of each draw of the list. */
export const renderMeasure = 'rl-rollouts:rows';
const settleMs = 60;

export interface GroupListEvents {
  open(index: number): void;
  revealLine(line: number): void;
  sort(column: SortColumn): void;
  selectionChanged(): void;
  scrolled(): void;
  /** What to say when no group is listed: no filter matches, or the file has none (yet). */
  emptyText(): string;
}

export class GroupList {
  readonly element: HTMLElement;
  private readonly grid: HTMLElement;
  private readonly headerRow: HTMLElement;
  private readonly headerCells: HTMLElement[] = [];
  private readonly spacer: HTMLElement;
  private readonly status: HTMLElement;
  private readonly rows = new Map<number, RowElement>();
  private frame = 0;
  private viewportHeight = 400;
  private spacerTotal = -1;
  private lastTop = 0;
  /** Draws measured (the benchmark reads them); cleared now and then so the timeline stays small. */
  private measured = 0;
  private settleTimer: ReturnType<typeof setTimeout> | undefined;
  /** The row the keyboard acts on, as a position in the list. */
  private cursor = 0;
  /** Where a shift-click's range starts. */
  private anchor: number | undefined;
  private openIndex: number | undefined;
  readonly selected = new Set<number>();

  constructor(
    private readonly source: RowSource,
    private readonly events: GroupListEvents,
  ) {
    this.grid = h('div', { class: 'grid', ariaLabel: 'Trajectory groups' });
    this.grid.setAttribute('role', 'grid');
    this.grid.setAttribute('aria-multiselectable', 'true');
    this.grid.setAttribute('aria-colcount', String(columns.length));
    this.grid.tabIndex = 0;
    this.headerRow = h('div', { class: 'grid-row grid-header' });
    this.headerRow.setAttribute('role', 'row');
    this.headerRow.setAttribute('aria-rowindex', '1');
    for (const column of columns) {
      const cell = h('div', { class: `cell col-${column.key}${column.numeric ? ' numeric' : ''}`, title: column.title });
      cell.setAttribute('role', 'columnheader');
      if (column.sort) {
        const sort = column.sort;
        const sortButton = h('button', { type: 'button', class: 'sort', title: `${column.title}: click to sort by it, again to reverse` }, column.label, h('span', { class: 'sort-mark' }));
        sortButton.addEventListener('click', () => this.events.sort(sort));
        cell.append(sortButton);
      } else {
        cell.textContent = column.label;
        if (column.key === 'reveal') cell.setAttribute('aria-label', 'Reveal line');
      }
      this.headerCells.push(cell);
      this.headerRow.append(cell);
    }
    const rowGroup = h('div', { class: 'grid-rows' });
    rowGroup.setAttribute('role', 'rowgroup');
    this.spacer = rowGroup;
    const headerGroup = h('div', { class: 'grid-head' }, this.headerRow);
    headerGroup.setAttribute('role', 'rowgroup');
    this.grid.append(headerGroup, this.spacer);
    this.status = h('div', { class: 'list-status muted' });
    this.status.setAttribute('role', 'status');
    this.status.hidden = true;
    this.element = h('div', { class: 'list-pane' }, this.grid, this.status);

    this.grid.addEventListener('scroll', () => {
      this.schedule();
      this.events.scrolled();
    });
    this.grid.addEventListener('click', (event) => this.onClick(event));
    this.grid.addEventListener('mouseover', (event) => this.onHover(event));
    this.grid.addEventListener('keydown', (event) => this.onKey(event));
    this.grid.addEventListener('focus', () => this.markCursor());
    new ResizeObserver(() => {
      this.viewportHeight = this.grid.clientHeight || this.viewportHeight;
      this.schedule();
    }).observe(this.grid);
  }

  get scrollTop(): number {
    return this.grid.scrollTop;
  }

  /** Scrolls to `top` once the list is tall enough to (the rows of a restored place may come later). */
  restoreScroll(top: number): void {
    this.ensureSpacer();
    this.grid.scrollTop = top;
    this.schedule();
  }

  /** Names the place column "Row" for a Parquet log (its groups are placed by rows), else "Line". */
  placedByRows(byRows: boolean): void {
    const at = columns.findIndex((column) => column.key === 'line');
    const label = this.headerCells[at]?.querySelector('button.sort')?.firstChild;
    if (label && label.nodeType === Node.TEXT_NODE) label.textContent = byRows ? 'Row' : 'Line';
  }

  setSort(column: SortColumn, descending: boolean): void {
    columns.forEach((definition, at) => {
      const cell = this.headerCells[at]!;
      const active = definition.sort === column && (definition.key !== 'line' || column !== 'index');
      if (definition.sort) cell.setAttribute('aria-sort', active ? (descending ? 'descending' : 'ascending') : 'none');
      const mark = cell.querySelector('.sort-mark');
      if (mark) mark.textContent = active ? (descending ? ' ▼' : ' ▲') : '';
    });
  }

  setOpen(index: number | undefined): void {
    this.openIndex = index;
    this.refreshAll();
  }

  /**
   * After the page scrolled, the open row back in the part of the list that is still on screen
   * (from `visibleTop`, a window coordinate, down), by scrolling the list itself.
   */
  keepOpenRowInSight(visibleTop: number): void {
    const row = this.grid.querySelector<HTMLElement>('.grid-row.open');
    if (!row) return;
    const top = Math.max(visibleTop, this.grid.getBoundingClientRect().top + this.headerRow.offsetHeight);
    const rowTop = row.getBoundingClientRect().top;
    if (rowTop >= top) return;
    this.grid.scrollTop = Math.max(0, this.grid.scrollTop - (top - rowTop));
    this.schedule();
  }

  setSelection(indices: Iterable<number>): void {
    this.selected.clear();
    for (const index of indices) {
      if (this.selected.size >= maxSelectedGroups) break;
      this.selected.add(index);
    }
    this.refreshAll();
  }

  clearSelection(): void {
    this.selected.clear();
    this.anchor = undefined;
    this.refreshAll();
    this.events.selectionChanged();
  }

  /** A new query: back to the top. */
  reset(): void {
    this.cursor = 0;
    this.anchor = undefined;
    this.grid.scrollTop = 0;
    this.schedule();
  }

  focus(): void {
    this.grid.focus();
  }

  /** Redraws on the next animation frame (rows arrived, the list scrolled or was resized); the first rows at once. */
  schedule(): void {
    if (this.rows.size === 0 && this.source.total) {
      cancelAnimationFrame(this.frame);
      this.frame = 0;
      this.render();
      return;
    }
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  private ensureSpacer(): void {
    const total = this.source.total ?? 0;
    if (total === this.spacerTotal) return;
    this.spacerTotal = total;
    this.spacer.style.height = `${total * rowHeight}px`;
    this.grid.setAttribute('aria-rowcount', String(total + 1));
  }

  private render(): void {
    const started = performance.now();
    this.draw();
    if (++this.measured % 10_000 === 0) performance.clearMeasures(renderMeasure);
    performance.measure(renderMeasure, { start: started, duration: performance.now() - started });
  }

  private draw(): void {
    this.ensureSpacer();
    const total = this.source.total;
    const top = this.grid.scrollTop;
    const visible = Math.ceil(this.viewportHeight / rowHeight) + 1;
    const first = Math.max(0, Math.floor(top / rowHeight) - marginRows);
    let last = Math.floor(top / rowHeight) + visible + marginRows;
    if (last - first + 1 > maxDomRows) last = first + maxDomRows - 1;
    if (total !== undefined) last = Math.min(last, total - 1);
    const fast = Math.abs(top - this.lastTop) > fastScreensPerFrame * this.viewportHeight;
    this.lastTop = top;
    clearTimeout(this.settleTimer);
    if (fast) this.settleTimer = setTimeout(() => this.schedule(), settleMs);
    else this.source.want(first, last);
    if (total === undefined) last = first - 1;
    // Rows that left the range are moved to the positions that entered it, in place: scrolling
    // changes their content and offset, never the number of elements.
    const free: RowElement[] = [];
    for (const [position, row] of this.rows) {
      if (position < first || position > last) {
        this.rows.delete(position);
        free.push(row);
      }
    }
    for (let position = first; position <= last; position++) {
      const row = this.rows.get(position);
      if (row) {
        this.fill(row, false);
        continue;
      }
      const reused = free.pop() ?? createRowElement();
      reused.position = position;
      reused.element.style.transform = `translateY(${position * rowHeight}px)`;
      reused.element.id = `group-row-${position}`;
      reused.element.setAttribute('aria-rowindex', String(position + 2));
      this.rows.set(position, reused);
      if (!reused.element.isConnected) this.spacer.append(reused.element);
      this.fill(reused, true);
    }
    for (const row of free) row.element.remove();
    this.markCursor();
    this.renderStatus();
  }

  private renderStatus(): void {
    const total = this.source.total;
    const failure = this.source.failure;
    const text = failure ? `The rows could not be fetched: ${failure}` : total === undefined ? 'Fetching groups…' : total === 0 ? this.events.emptyText() : '';
    if (text === this.status.textContent) return;
    this.status.textContent = text;
    this.status.classList.toggle('error', Boolean(failure));
    this.status.hidden = text === '';
  }

  /**
   * Writes a row's cells when its data changed, each only if its text did (a text node's data, not
   * new nodes), then its selection marks: every row on screen passes here on every frame of a scroll.
   */
  private fill(row: RowElement, fresh: boolean): void {
    const data = this.source.row(row.position);
    if (fresh || data !== row.shown) writeRowCells(row, data);
    const selected = data !== undefined && this.selected.has(data.index);
    const open = data !== undefined && data.index === this.openIndex;
    // Only what changed is written: every row passes here on every frame of a scroll.
    if (fresh || selected !== row.selected) {
      row.selected = selected;
      row.element.setAttribute('aria-selected', String(selected));
      row.element.classList.toggle('selected', selected);
    }
    if (fresh || open !== row.open) {
      row.open = open;
      row.element.classList.toggle('open', open);
    }
  }

  private refreshAll(): void {
    for (const row of this.rows.values()) this.fill(row, false);
  }

  private markCursor(): void {
    const total = this.source.total ?? 0;
    this.cursor = Math.max(0, Math.min(this.cursor, total - 1));
    for (const row of this.rows.values()) row.element.classList.toggle('cursor', row.position === this.cursor);
    const active = this.rows.has(this.cursor) ? `group-row-${this.cursor}` : null;
    if (active === this.grid.getAttribute('aria-activedescendant')) return;
    if (active) this.grid.setAttribute('aria-activedescendant', active);
    else this.grid.removeAttribute('aria-activedescendant');
  }

  private onHover(event: MouseEvent): void {
    const cell = (event.target as Element).closest('.grid-rows .col-metadata');
    if (!(cell instanceof HTMLElement) || cell.title) return;
    const position = Number(cell.parentElement?.getAttribute('aria-rowindex')) - 2;
    const data = this.source.row(position);
    if (data) cell.title = metadataLines(data.metadata);
  }

  private onClick(event: MouseEvent): void {
    const target = event.target as Element;
    const rowElement = target.closest('.grid-row:not(.grid-header)');
    if (!rowElement) return;
    const position = Number(rowElement.getAttribute('aria-rowindex')) - 2;
    const data = this.source.row(position);
    if (!data) return;
    if (target.closest('button.reveal')) {
      this.events.revealLine(data.line);
      return;
    }
    this.cursor = position;
    if (event.shiftKey) void this.selectRange(position);
    else if (event.ctrlKey || event.metaKey) this.toggle(position);
    else {
      this.anchor = position;
      this.events.open(data.index);
    }
    this.markCursor();
    this.grid.focus({ preventScroll: true });
  }

  private onKey(event: KeyboardEvent): void {
    const total = this.source.total ?? 0;
    if (total === 0) return;
    const page = Math.max(1, Math.floor(this.viewportHeight / rowHeight) - 2);
    const moves: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: page, PageUp: -page, Home: -total, End: total };
    const move = moves[event.key];
    if (move !== undefined) {
      event.preventDefault();
      this.cursor = Math.max(0, Math.min(total - 1, this.cursor + move));
      if (event.shiftKey) void this.selectRange(this.cursor);
      else this.anchor = this.cursor;
      this.scrollToCursor();
      this.markCursor();
      return;
    }
    const data = this.source.row(this.cursor);
    if (event.key === 'Enter' && data) {
      event.preventDefault();
      this.anchor = this.cursor;
      this.events.open(data.index);
    } else if (event.key === ' ' && data) {
      event.preventDefault();
      this.toggle(this.cursor);
    }
  }

  private scrollToCursor(): void {
    const header = this.headerRow.offsetHeight;
    const top = this.cursor * rowHeight;
    const viewTop = this.grid.scrollTop;
    const viewBottom = viewTop + this.viewportHeight - header;
    if (top < viewTop) this.grid.scrollTop = top;
    else if (top + rowHeight > viewBottom) this.grid.scrollTop = top + rowHeight - (this.viewportHeight - header);
    this.schedule();
  }

  private toggle(position: number): void {
    const data = this.source.row(position);
    if (!data) return;
    if (this.selected.has(data.index)) this.selected.delete(data.index);
    else if (this.selected.size < maxSelectedGroups) this.selected.add(data.index);
    this.anchor = position;
    this.refreshAll();
    this.events.selectionChanged();
  }

  private async selectRange(position: number): Promise<void> {
    const from = Math.min(this.anchor ?? position, position);
    const to = Math.max(this.anchor ?? position, position);
    this.anchor ??= position;
    const indices = await this.source.indicesBetween(from, to, maxSelectedGroups);
    if (!indices) return;
    this.setSelection(indices);
    this.events.selectionChanged();
  }
}
