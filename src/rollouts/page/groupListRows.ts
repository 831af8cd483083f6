/**
 * The rows of the groups list: its columns (each one's heading, tooltip, sort key and text for a
 * row), a row's elements, and the writing of a row's cells, each only when its text changed.
 */
import { groupFlagMeanings, type GroupFlag } from '../model/groupSummaryShape';
import type { GroupRow, SortColumn } from '../model/inspectorModel';
import { h } from '../../platform/pages/page/dom';
import { formatCount } from '../../platform/kit/format';
import { formatNumber, isFlag } from './labels';

interface Column {
  key: string;
  label: string;
  title: string;
  sort?: SortColumn;
  numeric?: boolean;
  text(row: GroupRow): string;
}

export const columns: Column[] = [
  { key: 'index', label: '#', title: "The group's position in the file", sort: 'index', numeric: true, text: (row) => formatCount(row.index + 1) },
  { key: 'line', label: 'Line', title: 'The line where the group starts', sort: 'index', numeric: true, text: (row) => formatCount(row.line + 1) },
  { key: 'trajectories', label: 'Traj.', title: 'Trajectories in the group', sort: 'trajectories', numeric: true, text: (row) => formatCount(row.trajectories) },
  { key: 'mean', label: 'Mean', title: 'Mean reward', sort: 'mean', numeric: true, text: (row) => formatNumber(row.mean) },
  { key: 'std', label: 'Std', title: 'Standard deviation of the rewards', sort: 'std', numeric: true, text: (row) => formatNumber(row.std) },
  { key: 'min', label: 'Min', title: 'Lowest reward', sort: 'min', numeric: true, text: (row) => formatNumber(row.min) },
  { key: 'max', label: 'Max', title: 'Highest reward', sort: 'max', numeric: true, text: (row) => formatNumber(row.max) },
  {
    key: 'completionLength',
    label: 'Compl. len',
    title: "Mean characters of the trajectories' trained turns",
    sort: 'completionLength',
    numeric: true,
    text: (row) => formatCount(Math.round(row.completionLength)),
  },
  { key: 'exceptions', label: 'Exc.', title: 'Exceptions recorded', sort: 'exceptions', numeric: true, text: (row) => (row.exceptions ? formatCount(row.exceptions) : '') },
  { key: 'flags', label: 'Flags', title: 'What points at this group (not sortable)', text: () => '' },
  { key: 'metadata', label: 'Metadata', title: "The group's metadata (not sortable)", text: (row) => metadataPreview(row.metadata) },
  { key: 'reveal', label: '', title: 'Show the line in the text editor', text: () => '' },
];

const flagsColumn = columns.findIndex((column) => column.key === 'flags');

const revealColumn = columns.findIndex((column) => column.key === 'reveal');

const metadataColumn = columns.findIndex((column) => column.key === 'metadata');

/** Each flag's badge, built on first use and cloned into rows after. */
const flagBadges = new Map<GroupFlag, HTMLElement>();

function flagBadge(flag: GroupFlag): Node {
  let badge = flagBadges.get(flag);
  if (!badge) {
    badge = h('span', { class: `badge flag-${flag}`, title: `${groupFlagMeanings[flag].label}: ${groupFlagMeanings[flag].meaning}` }, groupFlagMeanings[flag].badge);
    flagBadges.set(flag, badge);
  }
  return badge.cloneNode(true);
}

function metadataPreview(metadata: Record<string, string>): string {
  return Object.entries(metadata)
    .map(([key, value]) => `${key}=${value}`)
    .join(' · ');
}

export function metadataLines(metadata: Record<string, string>): string {
  return Object.entries(metadata)
    .map(([key, value]) => `${key}: ${value}`)
    .join('\n');
}

/** A row of the list: recycled as the list scrolls, its cells written in place. */
export interface RowElement {
  element: HTMLElement;
  cells: HTMLElement[];
  /** Each cell's text node, written in place. */
  texts: Text[];
  /** The flags drawn, joined. */
  flags: string;
  position: number;
  shown: GroupRow | undefined;
  selected: boolean;
  open: boolean;
}

export function createRowElement(): RowElement {
  const element = h('div', { class: 'grid-row' });
  element.setAttribute('role', 'row');
  const texts: Text[] = [];
  const cells = columns.map((column) => {
    const cell = h('div', { class: `cell col-${column.key}${column.numeric ? ' numeric' : ''}` });
    cell.setAttribute('role', 'gridcell');
    const text = document.createTextNode('');
    texts.push(text);
    cell.append(text);
    return cell;
  });
  const reveal = h('button', { type: 'button', class: 'link-button reveal', title: 'Show the line of this group in the text editor' }, 'Reveal');
  reveal.tabIndex = -1;
  cells[revealColumn]!.append(reveal);
  element.append(...cells);
  return { element, cells, texts, flags: '', position: -1, shown: undefined, selected: false, open: false };
}

/** Writes a row's cells for `data` (undefined: a row still being fetched), each only if its text changed. */
export function writeRowCells(row: RowElement, data: GroupRow | undefined): void {
  row.shown = data;
  row.element.classList.toggle('pending', !data);
  for (let at = 0; at < columns.length; at++) {
    if (at === revealColumn) continue;
    if (at === flagsColumn) {
      writeFlags(row, data);
      continue;
    }
    const text = data ? columns[at]!.text(data) : at === 0 ? '…' : '';
    const node = row.texts[at]!;
    if (node.data !== text) node.data = text;
  }
  // The metadata's tooltip is written when the pointer comes (see the list's onHover), not on every scroll.
  if (row.cells[metadataColumn]!.title) row.cells[metadataColumn]!.title = '';
  row.cells[revealColumn]!.hidden = !data;
}

function writeFlags(row: RowElement, data: GroupRow | undefined): void {
  const flags = (data?.flags ?? []).filter(isFlag);
  const key = flags.join();
  if (key === row.flags) return;
  row.flags = key;
  const cell = row.cells[flagsColumn]!;
  cell.replaceChildren(...flags.map(flagBadge));
  cell.setAttribute('aria-label', flags.map((flag) => groupFlagMeanings[flag].label).join(', '));
}
