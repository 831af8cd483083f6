/**
 * The filter bar: flag toggles, the ranges and metadata values picked (each a chip that removes
 * itself), a metadata choice, a text search (sent once typing pauses; the host's progress through
 * the file is shown while it searches) and Clear all. It draws the query's filter and hands every
 * change back as a whole new filter.
 */
import { groupFlagMeanings, groupFlags, type GroupFlag } from '../model/groupSummaryShape';
import { queryLimits, type GroupFilter, type MetadataChoices } from '../model/inspectorModel';
import type { SearchProgress } from '../protocol';
import { button, h } from '../../platform/pages/page/dom';
import { formatCount } from '../../platform/kit/format';
import { formatNumber, seriesLabel } from './labels';

/** Typing pauses this long before the search is sent. */
export const searchDelayMs = 300;

export class FilterBar {
  readonly element = h('div', { class: 'filter-bar' });
  private readonly flagButtons = new Map<GroupFlag, HTMLButtonElement>();
  private readonly chips = h('div', { class: 'chips' });
  private readonly metadataSelect = h('select', { class: 'metadata-select', ariaLabel: 'Show only groups with this metadata value' });
  private readonly search = h('input', { class: 'search', type: 'search', ariaLabel: 'Search the messages of the groups' });
  private readonly progress = h('progress', { class: 'search-progress' });
  private readonly progressText = h('span', { class: 'muted small' });
  private readonly clear: HTMLButtonElement;
  private filter: GroupFilter;
  private searchTimer: ReturnType<typeof setTimeout> | undefined;
  private metadataKeys = '';

  constructor(
    filter: GroupFilter,
    private readonly onChange: (filter: GroupFilter) => void,
  ) {
    this.filter = filter;
    const flags = h('div', { class: 'flag-toggles' });
    flags.setAttribute('role', 'group');
    flags.setAttribute('aria-label', 'Show only groups with these flags');
    flags.append(h('span', { class: 'muted' }, 'Only groups flagged'));
    for (const flag of groupFlags) {
      const toggle = button(groupFlagMeanings[flag].label, () => this.toggleFlag(flag), {
        title: `Show only groups flagged ${groupFlagMeanings[flag].label}: ${groupFlagMeanings[flag].meaning}`,
        class: 'toggle',
      });
      toggle.dataset.flag = flag;
      this.flagButtons.set(flag, toggle);
      flags.append(toggle);
    }
    this.search.placeholder = 'Search messages';
    this.search.maxLength = queryLimits.textChars;
    this.search.addEventListener('input', () => {
      clearTimeout(this.searchTimer);
      this.searchTimer = setTimeout(() => this.setText(this.search.value), searchDelayMs);
    });
    this.search.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter') return;
      clearTimeout(this.searchTimer);
      this.setText(this.search.value);
    });
    this.metadataSelect.addEventListener('change', () => this.pickMetadata());
    this.clear = button('Clear all', () => this.clearAll(), { title: 'Remove every filter and show all groups' });
    this.progress.hidden = true;
    this.progressText.hidden = true;
    const searchBox = h('div', { class: 'search-box' }, this.search, this.progress, this.progressText);
    this.element.append(flags, h('div', { class: 'filter-row' }, searchBox, this.metadataSelect, this.chips, this.clear));
    this.render(filter);
  }

  /** Draws `filter`; the search box keeps what is being typed unless the text was changed elsewhere. */
  render(filter: GroupFilter): void {
    this.filter = filter;
    for (const [flag, toggle] of this.flagButtons) toggle.setAttribute('aria-pressed', String(filter.flags.includes(flag)));
    if (this.searchTimer === undefined && this.search.value !== filter.text) this.search.value = filter.text;
    const chips: HTMLElement[] = [];
    filter.ranges.forEach((range, at) => {
      const label = `${seriesLabel(range.series)} ${formatNumber(range.min)} to ${formatNumber(range.max)}`;
      chips.push(
        chip(label, `Groups with a trajectory whose ${seriesLabel(range.series)} is from ${range.min} to ${range.max}`, () =>
          this.change({ ...this.filter, ranges: this.filter.ranges.filter((_, index) => index !== at) }),
        ),
      );
    });
    filter.metadata.forEach((entry, at) => {
      chips.push(
        chip(`${entry.key} = ${entry.value}`, `Groups whose metadata ${entry.key} is ${entry.value}`, () =>
          this.change({ ...this.filter, metadata: this.filter.metadata.filter((_, index) => index !== at) }),
        ),
      );
    });
    this.chips.replaceChildren(...chips);
    this.clear.disabled = filter.flags.length === 0 && filter.ranges.length === 0 && filter.metadata.length === 0 && filter.text === '';
    this.metadataSelect.disabled = filter.metadata.length >= queryLimits.metadata || this.metadataSelect.options.length <= 1;
  }

  setMetadataChoices(choices: MetadataChoices[]): void {
    const keys = JSON.stringify(choices);
    if (keys === this.metadataKeys) return;
    this.metadataKeys = keys;
    const placeholder = h('option', {}, choices.length ? 'Metadata…' : 'No metadata');
    placeholder.value = '';
    const groups = choices.map((choice) => {
      const group = h('optgroup');
      group.label = choice.key;
      for (const value of choice.values) {
        const option = h('option', {}, `${value.value} (${formatCount(value.groups)})`);
        option.value = JSON.stringify([choice.key, value.value]);
        group.append(option);
      }
      if (choice.otherGroups > 0) {
        const other = h('option', {}, `other values (${formatCount(choice.otherGroups)})`);
        other.disabled = true;
        group.append(other);
      }
      return group;
    });
    this.metadataSelect.replaceChildren(placeholder, ...groups);
    this.metadataSelect.value = '';
    this.render(this.filter);
  }

  /** The host's progress through the file for the search being run; undefined when none is. */
  showSearch(progress: SearchProgress | undefined): void {
    const shown = progress !== undefined && progress.text === this.filter.text && progress.totalBytes > 0;
    this.progress.hidden = !shown;
    this.progressText.hidden = !shown;
    if (!shown) return;
    this.progress.max = progress.totalBytes;
    this.progress.value = Math.min(progress.bytesRead, progress.totalBytes);
    this.progressText.textContent = `searching… ${Math.floor((100 * this.progress.value) / progress.totalBytes)}%`;
  }

  focusSearch(): void {
    this.search.focus();
  }

  private clearAll(): void {
    clearTimeout(this.searchTimer);
    this.searchTimer = undefined;
    this.change({ flags: [], ranges: [], metadata: [], text: '' });
  }

  private setText(text: string): void {
    this.searchTimer = undefined;
    const trimmed = text.slice(0, queryLimits.textChars);
    if (trimmed !== this.filter.text) this.change({ ...this.filter, text: trimmed });
  }

  private toggleFlag(flag: GroupFlag): void {
    const flags = this.filter.flags.includes(flag) ? this.filter.flags.filter((each) => each !== flag) : [...this.filter.flags, flag];
    this.change({ ...this.filter, flags });
  }

  private pickMetadata(): void {
    const raw = this.metadataSelect.value;
    this.metadataSelect.value = '';
    if (!raw) return;
    const [key, value] = JSON.parse(raw) as [string, string];
    if (this.filter.metadata.some((entry) => entry.key === key && entry.value === value)) return;
    // One value per key: picking another value of a key replaces the first (no group has both).
    const metadata = [...this.filter.metadata.filter((entry) => entry.key !== key), { key, value }].slice(-queryLimits.metadata);
    this.change({ ...this.filter, metadata });
  }

  /** Applies a change; text typed but not sent yet goes with it, unless the change clears the text. */
  private change(filter: GroupFilter): void {
    if (this.searchTimer !== undefined && filter.text === this.filter.text) filter = { ...filter, text: this.search.value.slice(0, queryLimits.textChars) };
    clearTimeout(this.searchTimer);
    this.searchTimer = undefined;
    this.search.value = filter.text;
    this.render(filter);
    this.onChange(filter);
  }
}

function chip(label: string, title: string, remove: () => void): HTMLElement {
  const close = button('×', remove, { title: `Remove this filter: ${label}`, class: 'chip-remove', ariaLabel: `Remove filter ${label}` });
  return h('span', { class: 'chip', title }, h('span', {}, label), close);
}
