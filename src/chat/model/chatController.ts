import { AnswerRuns } from './answerRuns';
import type { ChatBackend, ChatUi } from './chatPorts';
import { createConversation, defaultEnv, lastTurnStart, type ConversationEnv } from './conversation';
import { ConversationSaving } from './conversationSaving';
import type { ConversationStore } from './conversationStore';
import { defaultSettings, type Conversation } from './conversationTypes';
import { maxMessageChars } from './limits';
import { ChatModelCatalogue } from './modelCatalogue';
import type { ModelCatalogue } from './modelOptions';
import { chatRequestHandlers, type ChatSession } from './requestHandlers';
import { WebviewGuards } from './webviewGuards';
import type { HostEvent, HostMethods, WebviewEvent, WebviewMethods, WebviewReport } from '../protocol';
import { RpcEndpoint } from '../../platform/pages/rpc';
import { ownValue, ProtocolError, type WireMessage } from '../../platform/pages/wire';

export interface ChatControllerOptions {
  store: ConversationStore;
  backend: ChatBackend;
  ui: ChatUi;
  /** Posts a message to the webview. */
  post(message: WireMessage): void;
  env?: ConversationEnv;
  /** The model of the previous chat, for new conversations. */
  lastModel?(): string | undefined;
  setLastModel?(modelId: string): void;
  /** Reports failures that have no message to show them on (saving, the model list). */
  onProblem?(problem: string): void;
  /** Delay of the coalesced saves of streamed text after a batch of it was posted. */
  saveDelayMs?: number;
  /** Shortest pause between a write of a conversation and a coalesced write of it (default 5 s). */
  saveIntervalMs?: number;
  /** Longest wait before streamed text is posted to the webview. */
  deltaIntervalMs?: number;
}

/**
 * The chat panel's session, independent of VS Code: which conversation is on screen, what the
 * webview is told, and what the editor's commands open. The work itself has a file each: the
 * webview's requests (requestHandlers.ts), turns, streaming and Stop (answerRuns.ts), the model
 * list (modelCatalogue.ts) and writes (conversationSaving.ts). The panel in src/chat/host is
 * only the glue that connects it to a webview and to editor services.
 */
export class ChatController {
  private readonly rpc: RpcEndpoint<WebviewMethods, HostMethods, HostEvent, WebviewEvent>;
  private readonly env: ConversationEnv;
  private readonly saving: ConversationSaving;
  private readonly guards: WebviewGuards;
  private readonly models: ChatModelCatalogue;
  private readonly runs: AnswerRuns;
  private activeId: string | undefined;
  private webviewReady = false;
  private disposed = false;

  constructor(private readonly options: ChatControllerOptions) {
    this.env = options.env ?? defaultEnv;
    const problem = (text: string) => options.onProblem?.(text);
    this.saving = new ConversationSaving({ store: options.store, openedId: () => this.activeId, onProblem: problem, minIntervalMs: options.saveIntervalMs });
    this.guards = new WebviewGuards(problem);
    this.models = new ChatModelCatalogue({
      backend: options.backend,
      lastModel: () => options.lastModel?.(),
      onChange: (catalogue, loading) => this.emit({ type: 'models', catalogue, loading }),
      onProblem: problem,
      afterLoad: () => this.giveActiveADefaultModel(),
    });
    this.runs = new AnswerRuns({
      store: options.store,
      backend: options.backend,
      saving: this.saving,
      env: this.env,
      events: {
        forConversation: (conversationId, event) => this.emitForConversation(conversationId, event),
        turnChanged: (conversation, previousCount) => this.emitTurn(conversation, previousCount),
        listChanged: () => this.emitList(),
      },
      conversation: (id) => this.requireConversation(id),
      setLastModel: (modelId) => options.setLastModel?.(modelId),
      streamingSaveDelayMs: options.saveDelayMs,
      deltaIntervalMs: options.deltaIntervalMs,
    });
    this.rpc = new RpcEndpoint({
      post: (message) => options.post(message),
      handlers: chatRequestHandlers(this.session()),
      onEvent: (event) => {
        const record = typeof event === 'object' && event !== null ? (event as unknown as Record<string, unknown>) : {};
        if (ownValue(record, 'type') === 'log') this.guards.log(`webview: ${String(ownValue(record, 'message')).slice(0, 500)}`);
      },
      onProtocolError: (problem) => this.guards.log(problem),
    });
  }

  /** Feeds a message from the webview. */
  receive(message: unknown): void {
    this.rpc.receive(message);
  }

  /** The webview was destroyed (panel hidden without retained context): it sends `ready` again when back. */
  webviewLost(): void {
    this.webviewReady = false;
  }

  /** Asks the webview what it shows. */
  report(timeoutMs = 10_000): Promise<WebviewReport> {
    return this.rpc.request('report', {}, timeoutMs);
  }

  get activeConversationId(): string | undefined {
    return this.activeId;
  }

  isStreaming(): boolean {
    return this.runs.count > 0;
  }

  /**
   * Shows a conversation with exactly `modelId` selected: the current one when it has no messages
   * yet, otherwise a new one. Used by "Chat with model" on a model or checkpoint.
   */
  async openWithModel(modelId: string): Promise<Conversation> {
    const current = this.activeId ? await this.options.store.get(this.activeId) : undefined;
    const conversation = current && current.messages.length === 0 && !this.runs.hasRunning(current.id) ? current : await this.createAndStore();
    conversation.settings.model = modelId;
    conversation.updatedAt = this.env.now();
    await this.saving.now(conversation);
    this.options.setLastModel?.(modelId);
    return this.activate(conversation);
  }

  /** Starts a conversation whose first message is `text` (the editor's selection). */
  async sendAsNewConversation(text: string): Promise<Conversation> {
    const current = this.activeId ? await this.options.store.get(this.activeId) : undefined;
    const conversation = current && current.messages.length === 0 && !this.runs.hasRunning(current.id) ? current : await this.createAndStore();
    this.activate(conversation);
    if (!conversation.settings.model) {
      await this.models.load();
      this.models.pickDefault(conversation);
    }
    try {
      await this.runs.send(conversation.id, text);
    } catch (error) {
      if (!(error instanceof ProtocolError) || error.code !== 'no-model') throw error;
      // No model can answer yet (signed out, empty list): the text waits in the message box.
      conversation.draft = text.slice(0, maxMessageChars);
      await this.saving.now(conversation);
      this.emit({ type: 'conversation', conversation, reveal: true });
    }
    return conversation;
  }

  /** Starts an empty conversation on the last used model and shows it. */
  async startNewConversation(): Promise<Conversation> {
    return this.activate(await this.newOrEmptyConversation());
  }

  /** Re-reads the model list (the connection or the remembered models changed). */
  refreshModels(): Promise<ModelCatalogue> {
    return this.models.refresh();
  }

  /** Stops every answer (the panel closes); what arrived is kept and saved. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    const stopped = this.runs.stopAll();
    this.rpc.dispose();
    await stopped;
    // Pending coalesced saves (a draft, settings) are written now rather than dropped.
    await this.saving.flush();
  }

  /** What the request handlers work with. */
  private session(): ChatSession {
    return {
      store: this.options.store,
      ui: this.options.ui,
      env: this.env,
      guards: this.guards,
      saving: this.saving,
      runs: this.runs,
      models: this.models,
      activeId: () => this.activeId,
      setActive: (conversationId) => this.setActive(conversationId),
      webviewReady: () => {
        this.webviewReady = true;
      },
      listChanged: () => this.emitList(),
      resolveConversation: (preferredId) => this.resolveConversation(preferredId),
      requireConversation: (id) => this.requireConversation(id),
      newOrEmptyConversation: () => this.newOrEmptyConversation(),
      setLastModel: (modelId) => this.options.setLastModel?.(modelId),
    };
  }

  // ------------------------------------------------------------------ conversations

  /**
   * A new conversation, or the active one when it is still empty (no messages, no draft): pressing
   * New again and again never piles up empty conversations.
   */
  private async newOrEmptyConversation(): Promise<Conversation> {
    const current = this.activeId ? await this.options.store.get(this.activeId) : undefined;
    if (!current || current.messages.length > 0 || current.draft !== '' || this.runs.isBusy(current.id)) {
      return this.createAndStore();
    }
    const fresh = createConversation(this.env, defaultSettings(this.options.lastModel?.() ?? ''));
    if (!fresh.settings.model) this.models.pickDefault(fresh);
    current.settings = fresh.settings;
    current.title = fresh.title;
    current.titleFromUser = false;
    current.updatedAt = fresh.updatedAt;
    await this.saving.now(current);
    return current;
  }

  private async createAndStore(): Promise<Conversation> {
    const last = this.options.lastModel?.() ?? '';
    const conversation = createConversation(this.env, defaultSettings(last));
    if (!conversation.settings.model) this.models.pickDefault(conversation);
    await this.options.store.add(conversation);
    return conversation;
  }

  /** Puts the conversation on screen: the webview switches to it. */
  private activate(conversation: Conversation): Conversation {
    this.setActive(conversation.id);
    this.emit({ type: 'conversation', conversation, reveal: true });
    this.emitList();
    return conversation;
  }

  private async resolveConversation(preferredId: string | undefined): Promise<Conversation> {
    for (const id of [preferredId, await this.options.store.lastOpenedId()]) {
      if (!id) continue;
      const found = await this.options.store.get(id);
      if (found) return found;
    }
    for (const summary of await this.options.store.list()) {
      const found = await this.options.store.get(summary.id);
      if (found) return found;
    }
    return this.createAndStore();
  }

  private async requireConversation(id: string): Promise<Conversation> {
    const conversation = await this.options.store.get(id);
    if (!conversation) throw new ProtocolError('this conversation no longer exists', 'not-found');
    return conversation;
  }

  /** Once the model list is in, the conversation on screen gets a model if it has none yet. */
  private async giveActiveADefaultModel(): Promise<void> {
    const active = this.activeId ? await this.options.store.get(this.activeId) : undefined;
    if (active && !active.settings.model && this.models.pickDefault(active)) {
      this.saving.soon(active, 0);
      this.emitForConversation(active.id, { type: 'settings', conversationId: active.id, settings: active.settings });
    }
  }

  // ------------------------------------------------------------------ the screen and events

  /** The conversation on screen; the index learns it a little later (ConversationSaving). */
  private setActive(conversationId: string): void {
    this.activeId = conversationId;
    if (!this.disposed) this.saving.openedChanged();
  }

  private emit(event: HostEvent): void {
    if (this.webviewReady && !this.disposed) this.rpc.emit(event);
  }

  private emitForConversation(conversationId: string, event: HostEvent): void {
    if (conversationId === this.activeId) this.emit(event);
  }

  /**
   * Posts only the last turn: a new message in a long conversation costs what it costs in a short
   * one. Every change a turn makes (send, edit, retry, regenerate) starts at its question.
   */
  private emitTurn(conversation: Conversation, previousCount: number): void {
    const from = Math.min(lastTurnStart(conversation), previousCount);
    this.emitForConversation(conversation.id, { type: 'turnChanged', conversationId: conversation.id, from, previousCount, messages: conversation.messages.slice(from) });
  }

  private emitList(): void {
    if (!this.webviewReady || this.disposed) return;
    void this.options.store.list().then((items) => this.emit({ type: 'conversations', items }));
  }
}
