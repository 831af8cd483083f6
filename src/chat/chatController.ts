import { errorMessage } from '../api/errorMessage';
import type { ChatCompletionChunk, ChatCompletionRequest } from '../api/types';
import {
  activeColumns,
  appendUserTurn,
  createConversation,
  defaultEnv,
  editLastUserMessage,
  lastTurnAnswers,
  regenerateLastTurn,
  retryAnswer,
  streamingAnswers,
  type ConversationEnv,
} from './conversation';
import type { ConversationStore } from './conversationStore';
import { defaultSettings, type AnswerEntry, type Conversation, type ConversationSettings } from './conversationTypes';
import { DeltaBatcher } from './deltaBatcher';
import {
  describeChars,
  maxAnswerChars,
  maxClipboardChars,
  maxConversationCharsForNewTurn,
  maxLinkChars,
  maxMessageChars,
  maxReasoningChars,
  maxRunningAnswers,
} from './limits';
import { apiForModel, type ChatApi } from './modelIds';
import type { ModelCatalogue } from './modelOptions';
import {
  ownValue,
  params,
  ProtocolError,
  tooLong,
  type ExportFormat,
  type HostEvent,
  type HostMethods,
  type PanelSnapshot,
  type ShownLength,
  type WebviewEvent,
  type WebviewMethods,
  type WebviewReport,
  type WireMessage,
} from '../webview/chat/protocol';
import { buildChatRequest, normalizeParameters } from './requestBuilder';
import { RpcEndpoint, type Handlers } from '../webview/common/rpc';
import { SaveScheduler } from './saveScheduler';
import { runStream, type StreamOutcome } from './streamRun';
import { WebviewGuards } from './webviewGuards';

/** The platform as the chat needs it: a streamed completion on the right API, and the model list. */
export interface ChatBackend {
  stream(request: ChatCompletionRequest, api: ChatApi, signal: AbortSignal): AsyncIterable<ChatCompletionChunk>;
  listModels(): Promise<ModelCatalogue>;
}

/** What the editor does for the chat: native dialogs, clipboard, editor, browser. */
export interface ChatUi {
  askTitle(current: string): Promise<string | undefined>;
  confirmDelete(title: string): Promise<boolean>;
  exportConversation(conversation: Conversation, format?: ExportFormat): Promise<boolean>;
  copyText(text: string): Promise<void>;
  insertText(text: string): Promise<void>;
  /** Opens an http(s) address in the user's browser; already checked by the controller. */
  openExternal(url: string): Promise<boolean>;
  runAction(action: 'signIn' | 'configure' | 'showLog'): Promise<void>;
}

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
  /** Delay of the coalesced saves (draft, settings, streamed text) after a change. */
  saveDelayMs?: number;
  /** Shortest pause between a write of a conversation and a coalesced write of it (default 5 s). */
  saveIntervalMs?: number;
  /** Longest wait before streamed text is posted to the webview. */
  deltaIntervalMs?: number;
}

interface RunningAnswer {
  conversationId: string;
  answer: AnswerEntry;
  abort: AbortController;
  /** Set by Stop: the text the user saw, which is what is kept. */
  shown?: ShownLength;
  done: Promise<void>;
}

/**
 * The chat panel's logic, independent of VS Code: it answers the webview's requests, runs the
 * streamed completions, keeps conversations saved and tells the webview what changed. The panel
 * in src/vscode/chat is only the glue that connects it to a webview and to editor services.
 */
export class ChatController {
  private readonly rpc: RpcEndpoint<WebviewMethods, HostMethods, HostEvent, WebviewEvent>;
  private readonly env: ConversationEnv;
  private readonly running = new Map<string, RunningAnswer>();
  /** Conversations whose new turn is being set up: claimed before any await, so a burst of sends starts one. */
  private readonly startingTurns = new Set<string>();
  private readonly saves: SaveScheduler;
  private readonly guards: WebviewGuards;
  private lastOpenedTimer: ReturnType<typeof setTimeout> | undefined;
  private activeId: string | undefined;
  private webviewReady = false;
  private catalogue: ModelCatalogue = { options: [], problems: [] };
  private modelsLoading: Promise<ModelCatalogue> | undefined;
  private modelsLoaded = false;
  private disposed = false;

  constructor(private readonly options: ChatControllerOptions) {
    this.env = options.env ?? defaultEnv;
    this.saves = new SaveScheduler({ write: (conversation) => this.writeConversation(conversation), minIntervalMs: options.saveIntervalMs });
    this.guards = new WebviewGuards((problem) => this.problem(problem));
    this.rpc = new RpcEndpoint({
      post: (message) => options.post(message),
      handlers: this.handlers(),
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
    return this.running.size > 0;
  }

  /**
   * Shows a conversation with exactly `modelId` selected: the current one when it has no messages
   * yet, otherwise a new one. Used by "Chat with model" on a model or checkpoint.
   */
  async openWithModel(modelId: string): Promise<Conversation> {
    const current = this.activeId ? await this.options.store.get(this.activeId) : undefined;
    const conversation = current && current.messages.length === 0 && !this.hasRunning(current.id) ? current : await this.createAndStore();
    conversation.settings.model = modelId;
    conversation.updatedAt = this.env.now();
    await this.saveNow(conversation);
    this.options.setLastModel?.(modelId);
    await this.activate(conversation);
    return conversation;
  }

  /** Starts a conversation whose first message is `text` (the editor's selection). */
  async sendAsNewConversation(text: string): Promise<Conversation> {
    const current = this.activeId ? await this.options.store.get(this.activeId) : undefined;
    const conversation = current && current.messages.length === 0 && !this.hasRunning(current.id) ? current : await this.createAndStore();
    await this.activate(conversation);
    if (!conversation.settings.model) {
      await this.loadModels();
      this.pickDefaultModel(conversation);
    }
    try {
      await this.send(conversation.id, text);
    } catch (error) {
      if (!(error instanceof ProtocolError) || error.code !== 'no-model') throw error;
      // No model can answer yet (signed out, empty list): the text waits in the message box.
      conversation.draft = text.slice(0, maxMessageChars);
      await this.saveNow(conversation);
      this.emit({ type: 'conversation', conversation, reveal: true });
    }
    return conversation;
  }

  /** Starts an empty conversation on the last used model and shows it. */
  async startNewConversation(): Promise<Conversation> {
    return this.activate(await this.newOrEmptyConversation());
  }

  /** Opens the conversation the panel showed last, or a new one. */
  async openLast(): Promise<Conversation> {
    return this.activate(await this.resolveConversation(undefined));
  }

  /** Re-reads the model list (the connection or the remembered models changed). */
  async refreshModels(): Promise<ModelCatalogue> {
    this.modelsLoading = undefined;
    this.modelsLoaded = false;
    return this.loadModels();
  }

  /** Stops every answer (the panel closes); what arrived is kept and saved. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    const runs = [...this.running.values()];
    for (const run of runs) run.abort.abort();
    this.rpc.dispose();
    await Promise.all(runs.map((run) => run.done));
    // Pending coalesced saves (a draft, settings) are written now rather than dropped.
    await this.saves.flush();
    await this.writeLastOpened();
  }

  // ------------------------------------------------------------------ request handlers

  private handlers(): Handlers<HostMethods> {
    return {
      ready: async (raw) => {
        const conversation = await this.resolveConversation(this.activeId ?? params.optionalId(raw, 'conversationId'));
        this.setActive(conversation.id);
        this.webviewReady = true;
        if (!this.modelsLoaded) void this.loadModels();
        const snapshot: PanelSnapshot = {
          conversations: await this.options.store.list(),
          conversation,
          models: this.catalogue,
          modelsLoading: !this.modelsLoaded,
        };
        return snapshot;
      },
      newConversation: async () => {
        const conversation = await this.newOrEmptyConversation();
        this.setActive(conversation.id);
        this.emitList();
        return conversation;
      },
      openConversation: async (raw) => {
        const conversation = await this.requireConversation(params.id(raw, 'conversationId'));
        this.setActive(conversation.id);
        return conversation;
      },
      renameConversation: async (raw) => {
        const conversation = await this.requireConversation(params.id(raw, 'conversationId'));
        const title = (await this.guards.dialog(() => this.options.ui.askTitle(conversation.title)))?.trim();
        if (!title) return null;
        conversation.title = title.slice(0, 200);
        conversation.titleFromUser = true;
        conversation.updatedAt = this.env.now();
        await this.saveNow(conversation);
        this.emitList();
        return { title: conversation.title };
      },
      deleteConversation: async (raw) => {
        const conversation = await this.requireConversation(params.id(raw, 'conversationId'));
        const deleted = await this.guards.dialog(() => this.options.ui.confirmDelete(conversation.title));
        if (deleted) {
          await this.stopRuns(conversation.id, []);
          this.saves.cancel(conversation.id);
          await this.options.store.delete(conversation.id);
        }
        const next = deleted && this.activeId === conversation.id ? await this.resolveConversation(undefined) : await this.resolveConversation(this.activeId);
        this.setActive(next.id);
        this.emitList();
        return { deleted, conversation: next };
      },
      exportConversation: async (raw) => {
        const conversation = await this.requireConversation(params.id(raw, 'conversationId'));
        const format = params.optionalString(raw, 'format', 20);
        if (format !== undefined && format !== 'markdown' && format !== 'json') throw new ProtocolError('format must be markdown or json');
        this.guards.action('exportConversation');
        return { exported: await this.guards.dialog(() => this.options.ui.exportConversation(conversation, format)) };
      },
      updateSettings: async (raw) => {
        const conversation = await this.requireConversation(params.id(raw, 'conversationId'));
        const incoming = params.settings(raw);
        const settings: ConversationSettings = {
          model: incoming.models[0],
          compareModel: incoming.models[1],
          compare: incoming.compare,
          systemPrompt: incoming.systemPrompt,
          parameters: normalizeParameters(incoming.parameters),
        };
        if (settings.model && settings.model !== conversation.settings.model) this.options.setLastModel?.(settings.model);
        conversation.settings = settings;
        this.saves.schedule(conversation, 300);
        return settings;
      },
      send: async (raw) => this.send(params.id(raw, 'conversationId'), params.string(raw, 'text', maxMessageChars, 'the message')),
      stop: async (raw) => {
        const conversationId = params.id(raw, 'conversationId');
        return { answers: await this.stopRuns(conversationId, params.shownLengths(raw)) };
      },
      retry: async (raw) => {
        const messageId = params.id(raw, 'messageId');
        return this.withTurn(params.id(raw, 'conversationId'), async (conversation) => {
          const answer = retryAnswer(conversation, messageId, this.env);
          if (!answer) throw new ProtocolError('only an answer of the last message can be retried', 'not-retryable');
          await this.startTurn(conversation, [answer]);
          return { messageId: answer.id };
        });
      },
      regenerate: async (raw) =>
        this.withTurn(params.id(raw, 'conversationId'), async (conversation) => {
          this.requireModel(conversation);
          const answers = regenerateLastTurn(conversation, this.env);
          if (!answers) throw new ProtocolError('there is no message to answer again', 'nothing-to-regenerate');
          await this.startTurn(conversation, answers);
          return { messageIds: answers.map((answer) => answer.id) };
        }),
      editLastUserMessage: async (raw) => {
        const text = params.string(raw, 'text', maxMessageChars, 'the message');
        if (!text.trim()) throw new ProtocolError('the message is empty', 'empty');
        return this.withTurn(params.id(raw, 'conversationId'), async (conversation) => {
          this.requireModel(conversation);
          const edited = editLastUserMessage(conversation, text, this.env);
          if (!edited) throw new ProtocolError('there is no message to edit', 'nothing-to-edit');
          await this.startTurn(conversation, edited.answers);
          return { messageIds: edited.answers.map((answer) => answer.id) };
        });
      },
      // A webview asking again and again gets the list being loaded, or the one just loaded.
      refreshModels: async () => (this.guards.refreshAllowed() ? this.refreshModels() : this.modelsLoading ?? this.catalogue),
      saveDraft: async (raw) => {
        const conversation = await this.requireConversation(params.id(raw, 'conversationId'));
        conversation.draft = params.string(raw, 'text', maxMessageChars, 'the draft');
        this.saves.schedule(conversation, 500);
        return null;
      },
      copyText: async (raw) => {
        const text = params.string(raw, 'text', maxClipboardChars, 'the text to copy');
        this.guards.action('copyText');
        await this.options.ui.copyText(text);
        return null;
      },
      insertText: async (raw) => {
        const text = params.string(raw, 'text', maxClipboardChars, 'the text to insert');
        this.guards.action('insertText');
        await this.options.ui.insertText(text);
        return null;
      },
      openLink: async (raw) => {
        const url = safeExternalUrl(params.string(raw, 'href', maxLinkChars));
        if (!url) return { opened: false };
        this.guards.action('openLink');
        return { opened: await this.options.ui.openExternal(url) };
      },
      runAction: async (raw) => {
        const action = params.string(raw, 'action', 20);
        if (action !== 'signIn' && action !== 'configure' && action !== 'showLog') throw new ProtocolError('unknown action');
        this.guards.action('runAction');
        await this.options.ui.runAction(action);
        return null;
      },
    };
  }

  // ------------------------------------------------------------------ conversations

  private async send(conversationId: string, text: string): Promise<{ userMessageId: string }> {
    if (!text.trim()) throw new ProtocolError('the message is empty', 'empty');
    if (text.length > maxMessageChars) {
      throw new ProtocolError(tooLong('the message', text.length, maxMessageChars), 'too-long');
    }
    return this.withTurn(conversationId, async (conversation) => {
      this.requireModel(conversation);
      const { user, answers } = appendUserTurn(conversation, text, this.env);
      await this.startTurn(conversation, answers);
      return { userMessageId: user.id };
    });
  }

  /**
   * Runs `start` for a new turn of an idle conversation. The conversation is claimed before the
   * first await, so of a burst of sends exactly one starts and the others are refused as busy; a
   * turn is refused as well when too many answers stream already, or when the conversation is too
   * large to keep growing.
   */
  private async withTurn<T>(conversationId: string, start: (conversation: Conversation) => Promise<T>): Promise<T> {
    if (this.startingTurns.has(conversationId) || this.hasRunning(conversationId)) {
      throw new ProtocolError('an answer is still streaming: stop it first', 'busy');
    }
    this.startingTurns.add(conversationId);
    try {
      const conversation = await this.requireIdle(conversationId);
      const columns = activeColumns(conversation.settings).length;
      if (this.running.size + columns > maxRunningAnswers) {
        throw new ProtocolError(`${this.running.size} answers are streaming in other conversations: wait for one to finish or stop it`, 'busy');
      }
      if (this.options.store.storedChars(conversationId) > maxConversationCharsForNewTurn) {
        throw new ProtocolError(
          `this conversation is too long to continue (over ${describeChars(maxConversationCharsForNewTurn)}): start a new conversation, and export this one to keep it`,
          'conversation-full',
        );
      }
      return await start(conversation);
    } finally {
      this.startingTurns.delete(conversationId);
    }
  }

  /** Saves the structural change, tells the webview, then starts the answers. */
  private async startTurn(conversation: Conversation, answers: AnswerEntry[]): Promise<void> {
    conversation.updatedAt = this.env.now();
    await this.saveNow(conversation);
    this.emitConversation(conversation);
    this.emitList();
    for (const answer of answers) this.startAnswer(conversation, answer);
  }

  private startAnswer(conversation: Conversation, answer: AnswerEntry): void {
    const abort = new AbortController();
    const streamingSaveDelayMs = this.options.saveDelayMs ?? 1000;
    const batcher = new DeltaBatcher(
      (delta) => this.emitForConversation(conversation.id, { type: 'answerDelta', conversationId: conversation.id, messageId: answer.id, ...delta }),
      this.options.deltaIntervalMs ?? 16,
    );
    const run: RunningAnswer = { conversationId: conversation.id, answer, abort, done: Promise.resolve() };
    this.running.set(answer.id, run);
    run.done = (async () => {
      let outcome: StreamOutcome;
      try {
        const stream = this.options.backend.stream(buildChatRequest(conversation, answer), apiForModel(answer.model), abort.signal);
        outcome = await runStream(stream, {
          signal: abort.signal,
          onDelta: (content, reasoning) => {
            answer.content += content;
            answer.reasoning += reasoning;
            batcher.push(content, reasoning);
            // Only arms a timer when none is pending; the scheduler spaces the writes out.
            this.saves.schedule(conversation, streamingSaveDelayMs);
          },
          limits: { content: maxAnswerChars, reasoning: maxReasoningChars },
          // The answer reached its limit: the request is stopped, the text so far is kept.
          onLimit: () => abort.abort(),
        });
      } catch (error) {
        // The backend could not even start (no client, no address): same footer as a failed request.
        outcome = await runStream(failingStream(error), { signal: abort.signal, onDelta: () => undefined });
      }
      batcher.cancel();
      this.running.delete(answer.id);
      await this.finishAnswer(conversation, answer, outcome, run.shown);
    })();
  }

  private async finishAnswer(conversation: Conversation, answer: AnswerEntry, outcome: StreamOutcome, shown: ShownLength | undefined): Promise<void> {
    answer.content = outcome.content;
    answer.reasoning = outcome.reasoning;
    if (shown) truncateToShown(answer, shown);
    answer.status = outcome.status;
    answer.stats = outcome.stats;
    if (outcome.finishReason) answer.finishReason = outcome.finishReason;
    if (outcome.error) answer.error = outcome.error;
    else delete answer.error;
    if (outcome.cut) answer.cut = outcome.cut;
    else delete answer.cut;
    if (outcome.status === 'done') this.options.setLastModel?.(answer.model);
    conversation.updatedAt = this.env.now();
    if (!this.disposed) {
      this.emitForConversation(conversation.id, { type: 'answerUpdated', conversationId: conversation.id, answer });
    }
    await this.saveNow(conversation);
    if (!this.disposed) this.emitList();
  }

  /**
   * Stop: aborts the conversation's answers, waits for them to settle, then makes the kept text
   * exactly what the user saw. An answer that finished just before the Stop arrived is cut back
   * too, so no text the user did not see when pressing Stop ever appears afterwards.
   */
  private async stopRuns(conversationId: string, shown: ShownLength[]): Promise<AnswerEntry[]> {
    const shownById = new Map(shown.map((entry) => [entry.messageId, entry]));
    const runs = [...this.running.values()].filter((run) => run.conversationId === conversationId);
    for (const run of runs) {
      run.shown = shownById.get(run.answer.id);
      run.abort.abort();
    }
    await Promise.all(runs.map((run) => run.done));
    const conversation = await this.options.store.get(conversationId);
    if (!conversation) return [];
    const settled: AnswerEntry[] = [];
    let changed = false;
    // Only answers of the last turn can have been streaming when Stop was pressed; older ones are
    // never cut, whatever the webview says.
    const lastTurn = lastTurnAnswers(conversation);
    for (const entry of shown) {
      const answer = lastTurn.find((candidate) => candidate.id === entry.messageId);
      if (!answer) continue;
      if (!runs.some((run) => run.answer === answer) && truncateToShown(answer, entry)) {
        if (answer.status === 'done') answer.status = 'stopped';
        changed = true;
        this.emitForConversation(conversationId, { type: 'answerUpdated', conversationId, answer });
      }
      settled.push(answer);
    }
    // Coalesced: a webview repeating Stop with ever shorter lengths cannot make a write each time.
    if (changed) this.saves.schedule(conversation, 0);
    return settled;
  }

  /**
   * A new conversation, or the active one when it is still empty (no messages, no draft): pressing
   * New again and again never piles up empty conversations.
   */
  private async newOrEmptyConversation(): Promise<Conversation> {
    const current = this.activeId ? await this.options.store.get(this.activeId) : undefined;
    if (!current || current.messages.length > 0 || current.draft !== '' || this.hasRunning(current.id) || this.startingTurns.has(current.id)) {
      return this.createAndStore();
    }
    const fresh = createConversation(this.env, defaultSettings(this.options.lastModel?.() ?? ''));
    if (!fresh.settings.model) this.pickDefaultModel(fresh);
    current.settings = fresh.settings;
    current.title = fresh.title;
    current.titleFromUser = false;
    current.updatedAt = fresh.updatedAt;
    await this.saveNow(current);
    return current;
  }

  private async createAndStore(): Promise<Conversation> {
    const last = this.options.lastModel?.() ?? '';
    const conversation = createConversation(this.env, defaultSettings(last));
    if (!conversation.settings.model) this.pickDefaultModel(conversation);
    await this.options.store.add(conversation);
    return conversation;
  }

  private async activate(conversation: Conversation): Promise<Conversation> {
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

  private async requireIdle(id: string): Promise<Conversation> {
    const conversation = await this.requireConversation(id);
    if (this.hasRunning(id) || streamingAnswers(conversation).some((answer) => this.running.has(answer.id))) {
      throw new ProtocolError('an answer is still streaming: stop it first', 'busy');
    }
    return conversation;
  }

  private requireModel(conversation: Conversation): void {
    const settings = conversation.settings;
    if (!settings.model) throw new ProtocolError('choose a model first', 'no-model');
    if (settings.compare && !settings.compareModel) throw new ProtocolError('choose the second model to compare with', 'no-model');
  }

  private hasRunning(conversationId: string): boolean {
    return [...this.running.values()].some((run) => run.conversationId === conversationId);
  }

  // ------------------------------------------------------------------ models

  private loadModels(): Promise<ModelCatalogue> {
    this.modelsLoading ??= (async () => {
      this.emit({ type: 'models', catalogue: this.catalogue, loading: true });
      let catalogue: ModelCatalogue;
      try {
        catalogue = await this.options.backend.listModels();
      } catch (error) {
        catalogue = { options: this.catalogue.options, problems: [errorMessage(error)] };
      }
      this.catalogue = catalogue;
      this.modelsLoaded = true;
      for (const problem of catalogue.problems) this.problem(`model list: ${problem}`);
      this.emit({ type: 'models', catalogue, loading: false });
      const active = this.activeId ? await this.options.store.get(this.activeId) : undefined;
      if (active && !active.settings.model && this.pickDefaultModel(active)) {
        this.saves.schedule(active, 0);
        this.emitConversation(active);
      }
      return catalogue;
    })();
    return this.modelsLoading;
  }

  /** The previous chat's model when it is still offered, else the first model of the list. */
  private pickDefaultModel(conversation: Conversation): boolean {
    const options = this.catalogue.options;
    if (options.length === 0) return false;
    const last = this.options.lastModel?.();
    conversation.settings.model = last && options.some((option) => option.id === last) ? last : options[0]!.id;
    return true;
  }

  // ------------------------------------------------------------------ saving and events

  /** Writes at once (a new turn, an answer's end, an edit), replacing a pending coalesced write. */
  private saveNow(conversation: Conversation): Promise<void> {
    return this.saves.writeNow(conversation);
  }

  /** The one place a conversation is written; resolves with the characters written. */
  private async writeConversation(conversation: Conversation): Promise<number | undefined> {
    try {
      if (await this.isDeleted(conversation.id)) return undefined;
      return await this.options.store.save(conversation);
    } catch (error) {
      this.problem(`saving the conversation failed: ${errorMessage(error)}`);
      return undefined;
    }
  }

  /**
   * The conversation on screen. Which one it is goes to the index a second later, once: a webview
   * switching back and forth costs one small write, not one per switch.
   */
  private setActive(conversationId: string): void {
    this.activeId = conversationId;
    if (this.lastOpenedTimer !== undefined || this.disposed) return;
    this.lastOpenedTimer = setTimeout(() => void this.writeLastOpened(), 1000);
    (this.lastOpenedTimer as { unref?(): void }).unref?.();
  }

  private async writeLastOpened(): Promise<void> {
    clearTimeout(this.lastOpenedTimer);
    this.lastOpenedTimer = undefined;
    if (!this.activeId) return;
    try {
      await this.options.store.setLastOpened(this.activeId);
    } catch (error) {
      this.problem(`saving: ${errorMessage(error)}`);
    }
  }

  private async isDeleted(conversationId: string): Promise<boolean> {
    return !(await this.options.store.list()).some((summary) => summary.id === conversationId);
  }

  private emit(event: HostEvent): void {
    if (this.webviewReady && !this.disposed) this.rpc.emit(event);
  }

  private emitForConversation(conversationId: string, event: HostEvent): void {
    if (conversationId === this.activeId) this.emit(event);
  }

  private emitConversation(conversation: Conversation): void {
    this.emitForConversation(conversation.id, { type: 'conversation', conversation });
  }

  private emitList(): void {
    if (!this.webviewReady) return;
    void this.options.store.list().then((items) => this.emit({ type: 'conversations', items }));
  }

  private problem(text: string): void {
    this.options.onProblem?.(text);
  }
}

/** Cuts an answer back to what the user saw; true when something was removed. */
function truncateToShown(answer: AnswerEntry, shown: ShownLength): boolean {
  let cut = false;
  if (shown.contentLength < answer.content.length) {
    answer.content = answer.content.slice(0, shown.contentLength);
    cut = true;
  }
  if (shown.reasoningLength < answer.reasoning.length) {
    answer.reasoning = answer.reasoning.slice(0, shown.reasoningLength);
    cut = true;
  }
  return cut;
}

/** Only absolute http(s) addresses leave the editor; everything else (javascript:, file:, data:…) is refused. */
export function safeExternalUrl(href: string): string | undefined {
  let url: URL;
  try {
    url = new URL(href.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username || url.password) return undefined;
  return url.toString();
}

async function* failingStream(error: unknown): AsyncGenerator<ChatCompletionChunk> {
  throw error;
}
