/**
 * The per-sample matrix: one row per sample, one column per model, each cell the mean primary
 * score over the draws, tinted by score; failed cells are marked and carry a Retry button. Only the
 * rows on screen (and a margin) exist, over a spacer as tall as the list, so 10,000 samples cost
 * what 30 do; rows are recycled as the list scrolls and redrawn at most once a frame.
 */
import type { EvalModelRef } from '../model/evalModel';
import { h } from '../../platform/pages/page/dom';
import { failureReason, type ReportIndex } from './reportIndex';
import { formatCount } from '../../platform/kit/format';
import { formatScore, scoreClass, shortLabel } from './labels';
import { promptOf } from './samples';

export const matrixRowHeight = 28;
const marginRows = 8;
/** However tall the window, no more rows than this exist. */
export const maxMatrixRows = 120;
/** Characters of a prompt shown in its row (the rest is in the side-by-side view). */
const promptPreviewChars = 160;

export interface MatrixEvents {
  select(sample: number, model: number | undefined): void;
  retry(keys: string[]): void;
  scrolled(): void;
}

interface RowElement {
  element: HTMLElement;
  label: Text;
  prompt: Text;
  spread: Text;
  cells: { element: HTMLElement; text: Text; retry: HTMLButtonElement }[];
  sample: number;
  version: number;
  selected: boolean;
}

export class SampleMatrix {
  readonly element: HTMLElement;
  private readonly scroller: HTMLElement;
  private readonly head: HTMLElement;
  private readonly body: HTMLElement;
  private readonly status = h('div', { class: 'list-status muted', hidden: true });
  private readonly rowElements = new Map<number, RowElement>();
  private rows: Int32Array = new Int32Array(0);
  private index: ReportIndex | undefined;
  private frame = 0;
  private selectedSample: number | undefined;
  private emptyText = '';

  constructor(private readonly events: MatrixEvents) {
    this.head = h('div', { class: 'matrix-row matrix-head' });
    this.head.setAttribute('role', 'row');
    this.body = h('div', { class: 'matrix-body' });
    this.body.setAttribute('role', 'rowgroup');
    this.scroller = h('div', { class: 'matrix', ariaLabel: 'Scores by sample and model' }, this.head, this.body);
    this.scroller.setAttribute('role', 'grid');
    this.scroller.tabIndex = 0;
    this.status.setAttribute('role', 'status');
    this.element = h('div', { class: 'matrix-pane' }, this.scroller, this.status);
    this.scroller.addEventListener('scroll', () => {
      this.schedule();
      this.events.scrolled();
    });
    this.body.addEventListener('click', (event) => this.onClick(event));
    this.scroller.addEventListener('keydown', (event) => this.onKey(event));
    new ResizeObserver(() => this.schedule()).observe(this.scroller);
  }

  get scrollTop(): number {
    return this.scroller.scrollTop;
  }

  set scrollTop(top: number) {
    this.scroller.scrollTop = top;
    this.schedule();
  }

  /** New models: the header and every row are built again. */
  setModels(models: readonly EvalModelRef[], best: string | undefined): void {
    this.scroller.style.setProperty('--models', String(models.length));
    this.head.replaceChildren(
      h('div', { class: 'mcell col-sample', title: 'The sample: its position in the set and its prompt' }, 'Sample'),
      h('div', { class: 'mcell col-spread numeric', title: 'Highest minus lowest mean score across the models' }, 'Spread'),
      ...models.map((model) => h('div', { class: `mcell col-model numeric${model.id === best ? ' best' : ''}`, title: `${model.id}${model.id === best ? ' (best mean)' : ''}` }, shortLabel(model))),
    );
    for (const row of this.rowElements.values()) row.element.remove();
    this.rowElements.clear();
    this.schedule();
  }

  setRows(index: ReportIndex, rows: Int32Array, emptyText: string): void {
    this.index = index;
    this.rows = rows;
    this.emptyText = emptyText;
    this.body.style.height = `${rows.length * matrixRowHeight}px`;
    this.scroller.setAttribute('aria-rowcount', String(rows.length + 1));
    this.schedule();
  }

  setSelected(sample: number | undefined): void {
    this.selectedSample = sample;
    this.schedule();
  }

  /** Scrolls the selected sample into view when it is listed. */
  reveal(sample: number): void {
    const position = this.rows.indexOf(sample);
    if (position < 0) return;
    const top = position * matrixRowHeight;
    const view = this.scroller.clientHeight - this.head.offsetHeight;
    if (top < this.scroller.scrollTop) this.scroller.scrollTop = top;
    else if (top + matrixRowHeight > this.scroller.scrollTop + view) this.scroller.scrollTop = top + matrixRowHeight - view;
    this.schedule();
  }

  /** Draws now (the first screen), else on the next animation frame. */
  schedule(now = false): void {
    if (now) {
      cancelAnimationFrame(this.frame);
      this.frame = 0;
      this.draw();
      return;
    }
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  private draw(): void {
    const index = this.index;
    if (!index) return;
    const top = this.scroller.scrollTop;
    const view = this.scroller.clientHeight || 400;
    const first = Math.max(0, Math.floor(top / matrixRowHeight) - marginRows);
    let last = Math.min(this.rows.length - 1, Math.floor((top + view) / matrixRowHeight) + marginRows);
    if (last - first + 1 > maxMatrixRows) last = first + maxMatrixRows - 1;
    const free: RowElement[] = [];
    for (const [position, row] of this.rowElements) {
      if (position < first || position > last) {
        this.rowElements.delete(position);
        free.push(row);
      }
    }
    for (let position = first; position <= last; position++) {
      const sample = this.rows[position]!;
      let row = this.rowElements.get(position);
      if (!row) {
        row = free.pop() ?? this.createRow(index.models.length);
        row.element.style.transform = `translateY(${position * matrixRowHeight}px)`;
        row.element.setAttribute('aria-rowindex', String(position + 2));
        row.element.dataset.position = String(position);
        row.version = -1;
        this.rowElements.set(position, row);
        if (!row.element.isConnected) this.body.append(row.element);
      }
      if (row.sample !== sample || row.version !== index.version) this.fill(row, sample, index);
      const selected = sample === this.selectedSample;
      if (selected !== row.selected) {
        row.selected = selected;
        row.element.classList.toggle('selected', selected);
        row.element.setAttribute('aria-selected', String(selected));
      }
    }
    for (const row of free) row.element.remove();
    const text = this.rows.length === 0 ? this.emptyText : '';
    if (this.status.textContent !== text) this.status.textContent = text;
    this.status.hidden = text === '';
  }

  private createRow(models: number): RowElement {
    const element = h('div', { class: 'matrix-row' });
    element.setAttribute('role', 'row');
    const label = document.createTextNode('');
    const prompt = document.createTextNode('');
    const spread = document.createTextNode('');
    element.append(
      h('div', { class: 'mcell col-sample' }, h('span', { class: 'sample-number' }, label), h('span', { class: 'sample-prompt' }, prompt)),
      h('div', { class: 'mcell col-spread numeric' }, spread),
    );
    const cells: RowElement['cells'] = [];
    for (let model = 0; model < models; model++) {
      const text = document.createTextNode('');
      const retry = h('button', { type: 'button', class: 'cell-retry', title: 'Ask the failed answers of this cell again' }, 'Retry');
      retry.tabIndex = -1;
      const cell = h('div', { class: 'mcell col-model numeric', data: { model: String(model) } }, text, retry);
      cell.setAttribute('role', 'gridcell');
      element.append(cell);
      cells.push({ element: cell, text, retry });
    }
    return { element, label, prompt, spread, cells, sample: -1, version: -1, selected: false };
  }

  private fill(row: RowElement, sample: number, index: ReportIndex): void {
    row.sample = sample;
    row.version = index.version;
    row.element.dataset.sample = String(sample);
    const view = index.samples[sample]!;
    row.label.data = `#${formatCount(view.line + 1)}`;
    const prompt = promptOf(view);
    row.prompt.data = prompt ? prompt.slice(0, promptPreviewChars) : view.id;
    const spread = index.spread(sample);
    row.spread.data = formatScore(spread);
    (row.spread.parentNode as HTMLElement).classList.toggle('disagree', spread >= 0.5);
    row.cells.forEach((cell, model) => {
      const data = index.cell(sample, model);
      const mean = data?.mean ?? NaN;
      const failed = data?.failed ?? 0;
      const drawn = data ? data.draws.filter(Boolean).length : 0;
      cell.text.data = failed && !data?.scored ? '✕' : drawn === 0 ? '·' : formatScore(mean);
      cell.element.className = `mcell col-model numeric ${scoreClass(mean)}${failed ? ' failed' : ''}${drawn === 0 ? ' pending' : ''}`;
      cell.retry.hidden = failed === 0;
      cell.element.title =
        drawn === 0
          ? `${index.models[model]!.label}: no answer yet`
          : `${index.models[model]!.label}: mean ${formatScore(mean, 3)} over ${data!.scored} scored of ${drawn} answers${failed ? `, ${failed} failed` : ''}`;
    });
  }

  private onClick(event: MouseEvent): void {
    const target = event.target as Element;
    const rowElement = target.closest('.matrix-row');
    if (!(rowElement instanceof HTMLElement) || !this.index) return;
    const sample = Number(rowElement.dataset.sample);
    const cell = target.closest('.col-model');
    const model = cell instanceof HTMLElement && cell.dataset.model !== undefined ? Number(cell.dataset.model) : undefined;
    if (target.closest('.cell-retry') && model !== undefined) {
      const keys = (this.index.cell(sample, model)?.draws ?? []).flatMap((answer) => (answer && failureReason(answer, this.index!.primary) !== undefined ? [answer.key] : []));
      if (keys.length) this.events.retry(keys);
      return;
    }
    this.events.select(sample, model);
    this.scroller.focus({ preventScroll: true });
  }

  private onKey(event: KeyboardEvent): void {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    if (this.rows.length === 0) return;
    event.preventDefault();
    const at = this.selectedSample === undefined ? -1 : this.rows.indexOf(this.selectedSample);
    const next = Math.max(0, Math.min(this.rows.length - 1, at + (event.key === 'ArrowDown' ? 1 : -1)));
    this.events.select(this.rows[next]!, undefined);
  }
}
