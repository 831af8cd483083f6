/**
 * One sibling of a group as a column: its reward, advantage and normalised advantage (signed and
 * coloured), its flags and metrics, its conversation, and the rest (tools, other histories, logs)
 * folded away.
 */
import type { TrajectoryView } from '../model/inspectorModel';
import { button, h } from '../../platform/pages/page/dom';
import { renderConversation, type RenderBudget, type TextMode } from './conversation';
import { formatCount, plural } from '../../platform/kit/format';
import { formatNumber, formatSigned, signClass } from './labels';

/** Above this a trajectory's repetition is worth a badge (the summary's own threshold). */
const repetitiveAbove = 0.5;

export function trajectoryColumn(trajectory: TrajectoryView, rank: number, mode: TextMode, budget: RenderBudget, copy: () => void): HTMLElement {
  const column = h('section', { class: `trajectory${rank === 0 ? ' best' : ''}` });
  column.setAttribute('aria-label', `Sibling ${rank + 1}, position ${trajectory.position}, reward ${formatNumber(trajectory.reward)}`);
  column.dataset.position = String(trajectory.position);

  const title = h(
    'div',
    { class: 'traj-title' },
    h('span', { class: 'rank' }, rank === 0 ? 'best' : `#${rank + 1}`),
    h('span', { class: 'muted small', title: 'Position of the trajectory in the group, as in the file' }, `position ${trajectory.position}`),
  );
  title.append(button('Copy JSON', copy, { title: 'Copy this trajectory as JSON to the clipboard', class: 'link-button copy' }));
  const numbers = h(
    'div',
    { class: 'traj-numbers' },
    figure('reward', formatNumber(trajectory.reward), 'reward', 'The reward of this trajectory'),
    figure('advantage', formatSigned(trajectory.advantage), `advantage ${signClass(trajectory.advantage)}`, "The reward minus the group's mean"),
    figure('normalised', formatSigned(trajectory.normalizedAdvantage), `normalized ${signClass(trajectory.normalizedAdvantage)}`, "The advantage divided by the group's standard deviation"),
  );
  const flags = h('div', { class: 'traj-flags' });
  if (trajectory.truncated) flags.append(h('span', { class: 'badge warn', title: 'A trained turn stopped at its length limit' }, 'truncated'));
  if (trajectory.repetition > repetitiveAbove)
    flags.append(h('span', { class: 'badge warn', title: 'The share of repeated 4-word runs in its most repetitive trained turn' }, `repetition ${formatNumber(trajectory.repetition)}`));
  if (trajectory.doesNothing)
    flags.append(
      h('span', { class: 'badge warn', title: 'Its trained turns call no tool and hold almost no text: nothing but punctuation, or a few characters where its siblings call tools' }, 'does nothing'),
    );
  const head = h('header', { class: 'traj-head' }, title, numbers);
  if (flags.childElementCount) head.append(flags);
  column.append(head);

  const metrics = Object.entries(trajectory.metrics);
  if (metrics.length) column.append(keyValues('metrics', metrics));
  const metadata = Object.entries(trajectory.metadata);
  if (metadata.length) column.append(fold(`Metadata (${metadata.length})`, keyValues('metadata', metadata)));
  if (trajectory.tools.length) column.append(fold(`Tools offered (${trajectory.tools.length})`, h('ul', { class: 'plain-list' }, ...trajectory.tools.map((tool) => h('li', {}, tool)))));

  column.append(renderConversation(trajectory.messages, mode, budget));
  if (trajectory.omittedMessages > 0) column.append(h('p', { class: 'note' }, `${plural(trajectory.omittedMessages, 'more message')} not shown`));
  trajectory.additionalHistories.forEach((history, at) => column.append(fold(`Additional history ${at + 1} (${plural(history.length, 'message')})`, renderConversation(history, mode, budget))));
  if (trajectory.logs.length) column.append(fold(`Logs (${formatCount(trajectory.logs.length)})`, h('pre', { class: 'code logs' }, trajectory.logs.join('\n'))));
  return column;
}

function figure(label: string, value: string, tone: string, title: string): HTMLElement {
  return h('div', { class: `figure ${tone}`, title }, h('span', { class: 'figure-label' }, label), h('span', { class: 'figure-value' }, value));
}

function keyValues(kind: string, entries: [string, string][]): HTMLElement {
  const list = h('dl', { class: `key-values ${kind}` });
  for (const [key, value] of entries) list.append(h('dt', {}, key), h('dd', {}, value));
  return list;
}

export function fold(summary: string, content: HTMLElement, open = false): HTMLDetailsElement {
  const details = h('details', { class: 'fold' }, h('summary', {}, summary), content);
  details.open = open;
  return details;
}
