import { button, h } from '../../platform/pages/page/dom';

export interface ComposerActions {
  submit(text: string, editing: boolean): Promise<boolean>;
  stop(): void;
  draftChanged(text: string): void;
}

/**
 * The message box. Enter sends (Shift+Enter for a new line); while an answer streams, Stop replaces
 * Send. A failed send leaves the text in place; editing the last message uses the same box.
 */
export class Composer {
  readonly element: HTMLElement;
  readonly textarea: HTMLTextAreaElement;
  private readonly sendButton: HTMLButtonElement;
  private readonly stopButton: HTMLButtonElement;
  private readonly editBanner: HTMLElement;
  private readonly notice: HTMLElement;
  private editing = false;
  private sending = false;

  constructor(private readonly actions: ComposerActions) {
    this.textarea = h('textarea', { class: 'composer-input', ariaLabel: 'Message' });
    this.textarea.rows = 3;
    this.textarea.placeholder = 'Ask a question (Enter to send, Shift+Enter for a new line)';
    this.textarea.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        void this.submit();
      } else if (event.key === 'Escape' && this.editing) {
        this.cancelEdit();
      }
    });
    this.textarea.addEventListener('input', () => this.actions.draftChanged(this.textarea.value));
    this.sendButton = button('Send', () => void this.submit(), { class: 'primary send', title: 'Send (Enter)' });
    this.stopButton = button('Stop', () => this.actions.stop(), { class: 'danger stop', title: 'Stop the answer now' });
    this.stopButton.hidden = true;
    this.editBanner = h(
      'div',
      { class: 'edit-banner', hidden: true },
      'Editing your last message: sending replaces it and its answers. ',
      button('Cancel', () => this.cancelEdit(), { title: 'Stop editing: your message and its answers stay as they were' }),
    );
    this.notice = h('div', { class: 'composer-notice', hidden: true });
    this.notice.setAttribute('role', 'alert');
    this.element = h('footer', { class: 'composer' }, this.editBanner, this.notice, this.textarea, h('div', { class: 'composer-actions' }, this.stopButton, this.sendButton));
  }

  get value(): string {
    return this.textarea.value;
  }

  setDraft(text: string): void {
    this.textarea.value = text;
  }

  setBusy(busy: boolean): void {
    this.stopButton.hidden = !busy;
    this.sendButton.hidden = busy;
  }

  startEdit(text: string): void {
    this.editing = true;
    this.editBanner.hidden = false;
    this.textarea.value = text;
    this.textarea.focus();
    this.actions.draftChanged(text);
  }

  cancelEdit(): void {
    this.editing = false;
    this.editBanner.hidden = true;
    this.textarea.value = '';
    this.actions.draftChanged('');
  }

  showNotice(text: string | undefined): void {
    this.notice.hidden = !text;
    this.notice.textContent = text ?? '';
  }

  focus(): void {
    this.textarea.focus();
  }

  private async submit(): Promise<void> {
    const text = this.textarea.value;
    if (!text.trim() || this.sending || !this.stopButton.hidden) return;
    this.sending = true;
    this.sendButton.disabled = true;
    try {
      if (await this.actions.submit(text, this.editing)) {
        this.editing = false;
        this.editBanner.hidden = true;
        if (this.textarea.value === text) this.textarea.value = '';
        this.actions.draftChanged(this.textarea.value);
        this.showNotice(undefined);
      }
    } finally {
      this.sending = false;
      this.sendButton.disabled = false;
    }
  }
}
