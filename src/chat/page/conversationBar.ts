import type { ConversationSummary } from '../model/conversationTypes';
import type { ExportFormat } from '../protocol';
import { button, h } from '../../platform/pages/page/dom';

export interface ConversationBarActions {
  open(conversationId: string): void;
  create(): void;
  rename(): void;
  remove(): void;
  export(format: ExportFormat): void;
}

/** The conversation switcher and its actions (rename, delete and export use the editor's own dialogs). */
export class ConversationBar {
  readonly element: HTMLElement;
  private readonly select: HTMLSelectElement;

  constructor(actions: ConversationBarActions) {
    this.select = h('select', { class: 'conversation-select', ariaLabel: 'Conversation' });
    this.select.addEventListener('change', () => actions.open(this.select.value));
    this.element = h(
      'div',
      { class: 'conversation-bar' },
      this.select,
      button('New', () => actions.create(), { title: 'Start a new conversation', class: 'secondary new-conversation' }),
      button('Rename', () => actions.rename(), { title: 'Rename this conversation' }),
      button('Delete', () => actions.remove(), { title: 'Delete this conversation' }),
      button('Export Markdown', () => actions.export('markdown'), { title: 'Open this conversation as a Markdown document', class: 'secondary export-markdown' }),
      button('Export JSON', () => actions.export('json'), { title: 'Open this conversation as a JSON document', class: 'secondary export-json' }),
    );
  }

  setConversations(items: ConversationSummary[], activeId: string): void {
    const options = items.map((item) => {
      const option = h('option', {}, item.title);
      option.value = item.id;
      return option;
    });
    if (!items.some((item) => item.id === activeId)) {
      const current = h('option', {}, 'New chat');
      current.value = activeId;
      options.unshift(current);
    }
    this.select.replaceChildren(...options);
    this.select.value = activeId;
  }
}
