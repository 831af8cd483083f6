import type { AnswerEntry, Conversation, ConversationSettings, ConversationSummary, UserEntry } from '../model/conversationTypes';
import { turnChangeFits, type ExportFormat, type HostEvent, type HostMethods, type WebviewEvent, type WebviewMethods, type WebviewReport } from '../protocol';
import { RpcEndpoint } from '../../platform/pages/rpc';
import type { WireMessage } from '../../platform/pages/wire';
import { Composer } from './composer';
import { ConversationBar } from './conversationBar';
import { h } from '../../platform/pages/page/dom';
import { FrameScheduler } from './frameScheduler';
import { createMarkdownRenderer } from './markdownRenderer';
import { ModelBar } from './modelBar';
import { SettingsPanel, type SettingsValues } from './settingsPanel';
import { Transcript } from './transcript';
import type { WebviewApi } from '../../platform/pages/page/webviewApi';
import { errorMessage } from '../../platform/client/errorMessage';

type Host = RpcEndpoint<HostMethods, WebviewMethods, WebviewEvent, HostEvent>;

/** What the chat page keeps across reloads: ids, the draft and layout only. Never a credential. */
export interface ChatViewState {
  conversationId?: string;
  draft?: string;
  settingsOpen?: boolean;
}

/**
 * The chat webview. It draws what the host says and asks the host to act; it keeps a copy of the
 * open conversation only to draw it. Events that arrive before the first snapshot, or for another
 * conversation, are ignored: the snapshot (and the offsets of streamed text) keep both sides equal.
 */
export class ChatApp {
  private readonly host: Host;
  private readonly scheduler = new FrameScheduler();
  private readonly transcript: Transcript;
  private readonly composer: Composer;
  private readonly modelBar: ModelBar;
  private readonly settingsPanel: SettingsPanel;
  private readonly conversationBar: ConversationBar;
  private conversation: Conversation | undefined;
  private conversations: ConversationSummary[] = [];
  /** Answers frozen by Stop whose final state comes with the Stop reply. */
  private readonly stopping = new Set<string>();
  private draftTimer: ReturnType<typeof setTimeout> | undefined;
  /** A settings change not yet sent to the host; sent before any send so the request uses it. */
  private pendingSettings: (() => Promise<unknown>) | undefined;
  private settingsTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly root: HTMLElement,
    private readonly api: WebviewApi<ChatViewState>,
  ) {
    this.host = new RpcEndpoint<HostMethods, WebviewMethods, WebviewEvent, HostEvent>({
      post: (message: WireMessage) => api.postMessage(message),
      handlers: { report: () => this.report() },
      onEvent: (event) => this.onEvent(event),
      onProtocolError: (problem) => this.host.emit({ type: 'log', level: 'warn', message: problem }),
    });
    const renderer = createMarkdownRenderer();
    this.transcript = new Transcript(
      {
        renderer,
        scheduler: this.scheduler,
        actions: {
          retry: (messageId) => void this.call('retry', { conversationId: this.currentId, messageId }),
          regenerate: () => void this.flushSettings().then(() => this.call('regenerate', { conversationId: this.currentId })),
          runAction: (action) => void this.call('runAction', { action }),
          copy: (text) => void this.call('copyText', { text }),
        },
      },
      (entry: UserEntry) => this.composer.startEdit(entry.content),
    );
    this.composer = new Composer({
      submit: (text, editing) => this.submit(text, editing),
      stop: () => void this.stop(),
      draftChanged: (text) => this.draftChanged(text),
    });
    this.modelBar = new ModelBar({
      settingsChanged: (changed) => this.updateSettings(changed),
      refresh: () => void this.call('refreshModels', {}),
      toggleSettings: () => {
        this.settingsPanel.setVisible(!this.settingsPanel.visible);
        this.persist();
      },
      signIn: () => void this.call('runAction', { action: 'signIn' }),
    });
    this.settingsPanel = new SettingsPanel((values) => this.updateSettings(values));
    this.conversationBar = new ConversationBar({
      open: (conversationId) => void this.call('openConversation', { conversationId }).then((conversation) => conversation && this.showConversation(conversation)),
      create: () => void this.call('newConversation', {}).then((conversation) => conversation && this.showConversation(conversation)),
      rename: () => void this.call('renameConversation', { conversationId: this.currentId }),
      remove: () => void this.call('deleteConversation', { conversationId: this.currentId }).then((result) => result && this.showConversation(result.conversation)),
      export: (format: ExportFormat) => void this.call('exportConversation', { conversationId: this.currentId, format }),
    });
    this.listenToContent();
  }

  /** Receives a message posted by the extension. */
  receive(message: unknown): void {
    this.host.receive(message);
  }

  async start(): Promise<void> {
    const saved = this.api.getState() ?? {};
    this.root.replaceChildren(h('header', { class: 'toolbar' }, this.conversationBar.element, this.modelBar.element, this.settingsPanel.element), this.transcript.element, this.composer.element);
    this.settingsPanel.setVisible(saved.settingsOpen === true);
    this.root.classList.remove('loading');
    const snapshot = await this.host.request('ready', saved.conversationId ? { conversationId: saved.conversationId } : {});
    this.conversations = snapshot.conversations;
    this.modelBar.setCatalogue(snapshot.models, snapshot.modelsLoading);
    this.showConversation(snapshot.conversation, saved.conversationId === snapshot.conversation.id ? saved.draft : undefined);
    this.composer.focus();
  }

  private get currentId(): string {
    return this.conversation?.id ?? '';
  }

  /**
   * Draws a conversation. Its draft fills the message box when the conversation changes, or when
   * the host opened it (`takeDraft`: text put there for the user, such as an editor selection).
   */
  private showConversation(conversation: Conversation, localDraft?: string, takeDraft = false): void {
    const switched = conversation.id !== this.conversation?.id || takeDraft;
    // The webview's own copy already: it came through postMessage.
    this.conversation = conversation;
    this.stopping.clear();
    this.conversationBar.setConversations(this.conversations, conversation.id);
    this.modelBar.setSettings(conversation.settings);
    this.settingsPanel.setValues(conversation.settings);
    this.render();
    if (switched) this.composer.setDraft(localDraft ?? conversation.draft);
    this.persist();
  }

  private render(): void {
    const conversation = this.conversation;
    if (!conversation) return;
    const busy = conversation.messages.some((entry) => entry.role === 'assistant' && entry.status === 'streaming');
    this.transcript.setConversation(conversation, busy);
    this.composer.setBusy(this.transcript.streamingAnswers().length > 0);
  }

  private onEvent(event: HostEvent): void {
    if (!this.conversation) return;
    switch (event.type) {
      case 'conversations':
        this.conversations = event.items;
        this.conversationBar.setConversations(event.items, this.currentId);
        return;
      case 'conversation':
        if (event.reveal) this.showConversation(event.conversation, undefined, true);
        else if (event.conversation.id === this.currentId) this.showConversation(event.conversation);
        return;
      case 'turnChanged': {
        if (event.conversationId !== this.currentId) return;
        const messages = this.conversation.messages;
        // Not what this page holds (an event missed): the whole conversation is read again.
        if (!turnChangeFits(event, messages.length)) {
          void this.resynchronize();
          return;
        }
        messages.splice(event.from, messages.length - event.from, ...event.messages);
        this.stopping.clear();
        this.render();
        return;
      }
      case 'settings':
        if (event.conversationId !== this.currentId) return;
        this.conversation.settings = event.settings;
        this.modelBar.setSettings(event.settings);
        this.settingsPanel.setValues(event.settings);
        this.render();
        return;
      case 'models':
        this.modelBar.setCatalogue(event.catalogue, event.loading);
        return;
      case 'answerDelta': {
        if (event.conversationId !== this.currentId || this.stopping.has(event.messageId)) return;
        const view = this.transcript.answer(event.messageId);
        if (view && !view.applyDelta(event.contentOffset, event.content, event.reasoningOffset, event.reasoning)) void this.resynchronize();
        return;
      }
      case 'answerUpdated':
        if (event.conversationId !== this.currentId || this.stopping.has(event.answer.id)) return;
        this.replaceAnswer(event.answer);
        return;
    }
  }

  private replaceAnswer(answer: AnswerEntry): void {
    const conversation = this.conversation!;
    const index = conversation.messages.findIndex((entry) => entry.id === answer.id);
    if (index < 0) return;
    conversation.messages[index] = answer;
    this.transcript.answer(answer.id)?.setAnswer(answer);
    this.render();
  }

  private async resynchronize(): Promise<void> {
    const conversation = await this.call('openConversation', { conversationId: this.currentId });
    if (conversation) this.showConversation(conversation);
  }

  private async submit(text: string, editing: boolean): Promise<boolean> {
    await this.flushSettings();
    const conversationId = this.currentId;
    const result = editing ? await this.call('editLastUserMessage', { conversationId, text }) : await this.call('send', { conversationId, text });
    return result !== undefined;
  }

  /**
   * Stop: the streaming answers freeze on what is on screen right now (text that arrived but was
   * not drawn yet is dropped), and the host keeps exactly that. Nothing drawn after this point.
   */
  private async stop(): Promise<void> {
    const shown = this.transcript.freezeStreaming();
    for (const entry of shown) this.stopping.add(entry.messageId);
    this.composer.setBusy(false);
    const result = await this.call('stop', { conversationId: this.currentId, shown });
    for (const entry of shown) this.stopping.delete(entry.messageId);
    for (const answer of result?.answers ?? []) this.replaceAnswer(answer);
  }

  private updateSettings(changed: Partial<ConversationSettings> | SettingsValues): void {
    const conversation = this.conversation;
    if (!conversation) return;
    conversation.settings = { ...conversation.settings, ...changed };
    this.modelBar.setSettings(conversation.settings);
    this.transcript.setConversation(conversation, this.transcript.streamingAnswers().length > 0);
    clearTimeout(this.settingsTimer);
    const settings = structuredClone(conversation.settings);
    this.pendingSettings = () => this.call('updateSettings', { conversationId: conversation.id, settings });
    this.settingsTimer = setTimeout(() => void this.flushSettings(), 50);
  }

  private async flushSettings(): Promise<void> {
    clearTimeout(this.settingsTimer);
    const pending = this.pendingSettings;
    this.pendingSettings = undefined;
    await pending?.();
  }

  private draftChanged(text: string): void {
    this.persist(text);
    clearTimeout(this.draftTimer);
    const conversationId = this.currentId;
    this.draftTimer = setTimeout(() => void this.call('saveDraft', { conversationId, text }), 400);
  }

  private persist(draft = this.composer.value): void {
    this.api.setState({ conversationId: this.conversation?.id, draft, settingsOpen: this.settingsPanel.visible });
  }

  /** Sends a request; a failure is shown under the message box and yields undefined. */
  private async call<K extends keyof HostMethods & string>(method: K, params: HostMethods[K]['params']): Promise<HostMethods[K]['result'] | undefined> {
    try {
      const result = await this.host.request(method, params);
      return result;
    } catch (error) {
      this.composer.showNotice(errorMessage(error));
      return undefined;
    }
  }

  /** Links and code buttons inside answers: links open through the extension, http(s) only. */
  private listenToContent(): void {
    const onActivate = (event: MouseEvent) => {
      const target = event.target instanceof Element ? event.target : null;
      const link = target?.closest('a');
      if (link && this.transcript.element.contains(link)) {
        event.preventDefault();
        const href = link.getAttribute('href');
        if (href && event.type === 'click') void this.call('openLink', { href });
        return;
      }
      const action = target?.closest<HTMLButtonElement>('.code-block button[data-action]');
      if (action && event.type === 'click') {
        const code = action.closest('.code-block')?.querySelector('code')?.textContent ?? '';
        void this.call(action.dataset.action === 'insert' ? 'insertText' : 'copyText', { text: code });
      }
    };
    this.root.addEventListener('click', onActivate);
    this.root.addEventListener('auxclick', onActivate);
  }

  private report(): WebviewReport {
    return {
      conversationId: this.currentId,
      selectedModels: this.conversation?.settings.compare ? [this.modelBar.modelSelect.value, this.modelBar.compareSelect.value] : [this.modelBar.modelSelect.value],
      compare: this.modelBar.compareToggle.checked,
      messageCount: this.conversation?.messages.length ?? 0,
      streamingMessageIds: this.transcript.streamingAnswers().map((view) => view.id),
      messages: this.transcript.shownMessages(),
      draft: this.composer.value,
    };
  }
}
