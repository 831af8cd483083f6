import type { UserEntry } from '../model/conversationTypes';
import { button, h } from '../../platform/pages/page/dom';

/** The user's own message: plain text (it was typed, not generated), with Edit on the last one. */
export class UserView {
  readonly element: HTMLElement;
  private readonly text: HTMLElement;
  private readonly actions: HTMLElement;
  private entry: UserEntry;
  private editable = false;

  constructor(
    entry: UserEntry,
    private readonly onEdit: (entry: UserEntry) => void,
  ) {
    this.entry = entry;
    this.text = h('div', { class: 'message-body user-text' }, entry.content);
    this.actions = h('div', { class: 'message-actions' });
    this.element = h('article', { class: 'message user', data: { messageId: entry.id } }, h('div', { class: 'message-header' }, h('span', { class: 'message-role' }, 'You')), this.text, this.actions);
  }

  get id(): string {
    return this.entry.id;
  }

  get shownText(): string {
    return this.text.textContent ?? '';
  }

  setEntry(entry: UserEntry): void {
    if (entry.content !== this.entry.content) this.text.textContent = entry.content;
    this.entry = entry;
  }

  setEditable(editable: boolean): void {
    if (editable === this.editable) return;
    this.editable = editable;
    this.actions.replaceChildren(...(editable ? [button('Edit', () => this.onEdit(this.entry), { title: 'Edit and resend this message' })] : []));
  }
}
