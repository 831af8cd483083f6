/**
 * The group opened from the list: its figures and flags, then its siblings side by side, best
 * first, each a column of its own (the row scrolls sideways when there are many). A mode switch
 * shows the trained turns as text, as their difference from the best sibling, or as tokens tinted
 * by log-probability. Exceptions and shape problems of the group are folded above the columns.
 */
import type { GroupDetail } from '../model/inspectorModel';
import { button, h } from '../../platform/pages/page/dom';
import { maxHeatTokens, type TextMode } from './conversation';
import { formatCount, plural } from '../../platform/kit/format';
import { formatNumber, isFlag } from './labels';
import { groupFlagMeanings } from '../model/groupSummaryShape';
import { fold, trajectoryColumn } from './trajectoryColumn';

export interface GroupViewEvents {
  close(): void;
  revealLine(line: number): void;
  copyTrajectory(index: number, position: number): void;
}

const modes: { mode: TextMode; label: string; title: string }[] = [
  { mode: 'plain', label: 'Text', title: 'Show the trained turns as they are' },
  { mode: 'diff', label: 'Diff vs best', title: "Show each sibling's trained turns against the best sibling's: added highlighted, removed struck through" },
  { mode: 'heat', label: 'Log-prob heat', title: 'Tint each token of the trained turns by how unlikely the model found it' },
];

export class GroupView {
  readonly element = h('section', { class: 'group-view' });
  private detail: GroupDetail | undefined;
  private mode: TextMode = 'diff';
  /** A Parquet log's groups are placed by rows, and it has no text editor to reveal one in. */
  placedByRows = false;
  private readonly modeButtons = new Map<TextMode, HTMLButtonElement>();
  private siblings: HTMLElement | undefined;
  /** The group drawn, as JSON: the same group asked again and unchanged is not drawn again. */
  private shownJson = '';

  constructor(private readonly events: GroupViewEvents) {
    this.element.hidden = true;
    this.element.setAttribute('role', 'region');
    this.element.tabIndex = -1;
  }

  get openIndex(): number | undefined {
    return this.element.hidden ? undefined : this.detail?.index;
  }

  showLoading(index: number): void {
    this.detail = undefined;
    this.shownJson = '';
    this.element.hidden = false;
    this.element.setAttribute('aria-label', `Group ${index + 1}`);
    this.element.replaceChildren(this.head(`Group #${formatCount(index + 1)}`, undefined), h('p', { class: 'muted' }, 'Reading the group…'));
  }

  showMissing(index: number, why: string): void {
    this.detail = undefined;
    this.shownJson = '';
    this.element.hidden = false;
    this.element.replaceChildren(this.head(`Group #${formatCount(index + 1)}`, undefined), h('p', { class: 'problem' }, why));
  }

  /** Draws the group; drawing the same group again keeps where its columns were scrolled. */
  show(detail: GroupDetail): void {
    const sameGroup = this.detail?.index === detail.index && !this.element.hidden;
    const json = JSON.stringify(detail);
    // Unchanged, it stays as it is: folds opened and long texts shown in full stay so.
    if (sameGroup && json === this.shownJson) return;
    this.shownJson = json;
    const left = sameGroup ? (this.siblings?.scrollLeft ?? 0) : 0;
    const top = sameGroup ? (this.siblings?.scrollTop ?? 0) : 0;
    this.detail = detail;
    this.element.hidden = false;
    this.element.setAttribute('aria-label', `Group ${detail.index + 1}`);
    this.render();
    if (this.siblings) {
      this.siblings.scrollLeft = left;
      this.siblings.scrollTop = top;
    }
  }

  hide(): void {
    this.detail = undefined;
    this.shownJson = '';
    this.element.hidden = true;
    this.element.replaceChildren();
    this.siblings = undefined;
  }

  private render(): void {
    const detail = this.detail;
    if (!detail) return;
    const trajectories = detail.trajectories;
    const hasDiff = trajectories.some((trajectory) => trajectory.messages.some((message) => message.diff || message.diffNote));
    const hasHeat = trajectories.some((trajectory) => trajectory.messages.some((message) => message.logprobs && message.logprobs.length > 0));
    const available: Record<TextMode, boolean> = { plain: true, diff: hasDiff, heat: hasHeat };
    const mode = available[this.mode] ? this.mode : 'plain';

    const facts = [
      `${this.placedByRows ? 'row' : 'line'} ${formatCount(detail.line + 1)}`,
      plural(trajectories.length + detail.omittedTrajectories, 'trajectory', 'trajectories'),
      `mean ${formatNumber(detail.reward.mean)}`,
      `std ${formatNumber(detail.reward.std)}`,
      `min ${formatNumber(detail.reward.min)}`,
      `max ${formatNumber(detail.reward.max)}`,
    ].join(' · ');
    const head = this.head(`Group #${formatCount(detail.index + 1)}`, facts);
    const flags = h(
      'div',
      { class: 'group-flags' },
      ...detail.flags.filter(isFlag).map((flag) => h('span', { class: `badge flag-${flag}`, title: groupFlagMeanings[flag].meaning }, groupFlagMeanings[flag].label)),
    );

    const modeBar = h('div', { class: 'mode-switch' });
    modeBar.setAttribute('role', 'group');
    modeBar.setAttribute('aria-label', 'How trained turns are shown');
    this.modeButtons.clear();
    for (const entry of modes) {
      const toggle = button(entry.label, () => this.setMode(entry.mode), { title: available[entry.mode] ? entry.title : `${entry.title} (nothing to show in this group)`, class: 'toggle' });
      toggle.dataset.mode = entry.mode;
      toggle.disabled = !available[entry.mode];
      toggle.setAttribute('aria-pressed', String(entry.mode === mode));
      this.modeButtons.set(entry.mode, toggle);
      modeBar.append(toggle);
    }
    const legend =
      mode === 'heat'
        ? heatLegend()
        : mode === 'diff'
          ? h('span', { class: 'legend muted small' }, h('ins', { class: 'diff-added' }, 'added'), ' ', h('del', { class: 'diff-removed' }, 'only in best'))
          : undefined;
    const tools = h('div', { class: 'group-tools' }, modeBar, legend, flags);

    const sections = h('div', { class: 'group-sections' });
    if (detail.exceptions.length)
      sections.append(fold(`Exceptions (${formatCount(detail.exceptions.length)})`, h('ul', { class: 'plain-list problems-text' }, ...detail.exceptions.map((text) => h('li', {}, text)))));
    if (detail.problems.length)
      sections.append(fold(`Shape problems (${formatCount(detail.problems.length)})`, h('ul', { class: 'plain-list problems-text' }, ...detail.problems.map((text) => h('li', {}, text)))));
    const metadata = Object.entries(detail.metadata);
    if (metadata.length) {
      const list = h('dl', { class: 'key-values' });
      for (const [key, value] of metadata) list.append(h('dt', {}, key), h('dd', {}, value));
      sections.append(fold(`Metadata (${metadata.length})`, list));
    }

    const budget = { heatTokens: maxHeatTokens };
    this.siblings = h('div', { class: 'siblings' });
    this.siblings.setAttribute('aria-label', 'Sibling trajectories, best reward first');
    trajectories.forEach((trajectory, rank) => this.siblings!.append(trajectoryColumn(trajectory, rank, mode, budget, () => this.events.copyTrajectory(detail.index, trajectory.position))));
    const omitted = detail.omittedTrajectories > 0 ? h('p', { class: 'note' }, `${plural(detail.omittedTrajectories, 'more trajectory', 'more trajectories')} of this group not shown`) : undefined;
    this.element.replaceChildren(head, tools, sections, this.siblings, omitted ?? '');
  }

  private head(title: string, facts: string | undefined): HTMLElement {
    const detail = this.detail;
    const actions = h('div', { class: 'group-actions' });
    if (detail && !this.placedByRows) actions.append(button('Reveal Line', () => this.events.revealLine(detail.line), { title: 'Show the line of this group in the text editor' }));
    actions.append(button('Close', () => this.events.close(), { title: 'Close the group view (Escape)' }));
    return h('header', { class: 'group-head' }, h('h2', {}, title), facts ? h('span', { class: 'muted' }, facts) : undefined, actions);
  }

  private setMode(mode: TextMode): void {
    if (mode === this.mode) return;
    this.mode = mode;
    const left = this.siblings?.scrollLeft ?? 0;
    const top = this.siblings?.scrollTop ?? 0;
    this.render();
    if (this.siblings) {
      this.siblings.scrollLeft = left;
      this.siblings.scrollTop = top;
    }
  }
}

function heatLegend(): HTMLElement {
  return h(
    'span',
    { class: 'legend muted small' },
    'p ≥ 0.9 ',
    ...[0, 1, 2, 3, 4].map((level) => h('span', { class: `tok heat-${level}`, title: ['p ≥ 0.9', 'p ≥ 0.5', 'p ≥ 0.2', 'p ≥ 0.05', 'p < 0.05'][level] }, '\u2007\u2007')),
    ' p < 0.05',
  );
}
