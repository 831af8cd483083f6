/** The matrix's filters (models disagree, failures only, text in the prompt) and its order. */
import { h } from '../../platform/pages/page/dom';
import type { MatrixFilter, SortOrder } from './reportIndex';
import { disagreeSpread } from './reportIndex';
import { formatCount } from '../../platform/kit/format';

export interface FilterBarEvents {
  filter(filter: MatrixFilter): void;
  sort(order: SortOrder): void;
}

export class FilterBar {
  readonly element: HTMLElement;
  private readonly disagree: HTMLButtonElement;
  private readonly failures: HTMLButtonElement;
  private readonly search = h('input', { type: 'search', ariaLabel: 'Search the prompts' });
  private readonly sort = h('select', { ariaLabel: 'Order of the samples' });
  private readonly count = h('span', { class: 'muted small match-count' });
  private searchTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private filter: MatrixFilter,
    order: SortOrder,
    private readonly events: FilterBarEvents,
  ) {
    this.disagree = this.toggle('Where they disagree', `Only samples whose models' mean scores lie ${disagreeSpread} or more apart`, () => ({ ...this.filter, disagree: !this.filter.disagree }));
    this.failures = this.toggle('Failures only', 'Only samples with a failed answer', () => ({ ...this.filter, failures: !this.filter.failures }));
    this.search.placeholder = 'Search prompts';
    this.search.value = filter.text;
    this.search.addEventListener('input', () => {
      clearTimeout(this.searchTimer);
      this.searchTimer = setTimeout(() => this.set({ ...this.filter, text: this.search.value.slice(0, 200) }), 150);
    });
    for (const [value, label] of [
      ['sample', 'By sample'],
      ['spread', 'By spread (largest first)'],
    ] as const) {
      const option = h('option', {}, label);
      option.value = value;
      this.sort.append(option);
    }
    this.sort.value = order;
    this.sort.addEventListener('change', () => this.events.sort(this.sort.value === 'spread' ? 'spread' : 'sample'));
    const sortLabel = h('label', { class: 'sort-pick' }, 'Order ', this.sort);
    this.element = h('div', { class: 'filter-bar' }, this.disagree, this.failures, this.search, sortLabel, this.count);
    this.render();
  }

  showCount(shown: number, total: number): void {
    this.count.textContent = shown === total ? `${formatCount(total)} samples` : `${formatCount(shown)} of ${formatCount(total)} samples`;
  }

  private toggle(label: string, title: string, next: () => MatrixFilter): HTMLButtonElement {
    const element = h('button', { type: 'button', class: 'toggle', title }, label);
    element.addEventListener('click', () => this.set(next()));
    return element;
  }

  private set(filter: MatrixFilter): void {
    this.filter = filter;
    this.render();
    this.events.filter(filter);
  }

  private render(): void {
    this.disagree.setAttribute('aria-pressed', String(this.filter.disagree));
    this.failures.setAttribute('aria-pressed', String(this.filter.failures));
  }
}
