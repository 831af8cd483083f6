import type { ChatCompletionChunk, ChatCompletionRequest } from '../api/types';
import {
  appendUserTurn,
  createConversation,
  defaultEnv,
  editLastUserMessage,
  findAnswer,
  regenerateLastTurn,
  retryAnswer,
  streamingAnswers,
  type ConversationEnv,
} from './conversation';
import type { ConversationStore } from './conversationStore';
import { defaultSettings, type AnswerEntry, type Conversation, type ConversationSettings } from './conversationTypes';
import { DeltaBatcher } from './deltaBatcher';
import { apiForModel, type ChatApi } from './modelIds';
import type { ModelCatalogue } from './modelOptions';
import {
  params,
  ProtocolError,
  type ExportFormat,
  type HostEvent,
  type HostMethods,
  type PanelSnapshot,
  type ShownLength,
  type WebviewEvent,
  type WebviewMethods,
  type WebviewReport,
  type WireMessage,
} from './protocol';
import { buildChatRequest, normalizeParameters } from './requestBuilder';
import { RpcEndpoint, type Handlers } from './rpc';
import { runStream, type StreamOutcome } from './streamRun';

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
  /** Delay of the coalesced saves while an answer streams. */
  saveDelayMs?: number;
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
  private readonly saveTimers = new Map<string, { timer: ReturnType<typeof setTimeout>; conversation: Conversation }>();
  private activeId: string | undefined;
  private webviewReady = false;
  private catalogue: ModelCatalogue = { options: [], problems: [] };
  private modelsLoading: Promise<ModelCatalogue> | undefined;
  private modelsLoaded = false;
  private disposed = false;

  constructor(private readonly options: ChatControllerOptions) {
    this.env = options.env ?? defaultEnv;
    this.rpc = new RpcEndpoint({
      post: (message) => options.post(message),
      handlers: this.handlers(),
      onEvent: (event) => {
        if (event?.type === 'log') this.problem(`webview: ${String(event.message).slice(0, 500)}`);
      },
      onProtocolError: (problem) => this.problem(problem),
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
    await this.options.store.save(conversation);
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
      conversation.draft = text;
      await this.saveNow(conversation);
      this.emit({ type: 'conversation', conversation, reveal: true });
    }
    return conversation;
  }

  /** Starts an empty conversation on the last used model and shows it. */
  async startNewConversation(): Promise<Conversation> {
    return this.activate(await this.createAndStore());
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
    await Promise.all([...this.saveTimers.values()].map(({ conversation }) => this.saveNow(conversation)));
  }

  // ------------------------------------------------------------------ request handlers

  private handlers(): Handlers<HostMethods> {
    return {
      ready: async (raw) => {
        const conversation = await this.resolveConversation(this.activeId ?? params.optionalString(raw, 'conversationId'));
        this.activeId = conversation.id;
        void this.options.store.setLastOpened(conversation.id).catch((error) => this.problem(`saving: ${errorText(error)}`));
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
        const conversation = await this.createAndStore();
        this.activeId = conversation.id;
        await this.options.store.setLastOpened(conversation.id);
        this.emitList();
        return conversation;
      },
      openConversation: async (raw) => {
        const conversation = await this.requireConversation(params.string(raw, 'conversationId'));
        this.activeId = conversation.id;
        await this.options.store.setLastOpened(conversation.id);
        return conversation;
      },
      renameConversation: async (raw) => {
        const conversation = await this.requireConversation(params.string(raw, 'conversationId'));
        const title = (await this.options.ui.askTitle(conversation.title))?.trim();
        if (!title) return null;
        conversation.title = title.slice(0, 200);
        conversation.titleFromUser = true;
        conversation.updatedAt = this.env.now();
        await this.options.store.save(conversation);
        this.emitList();
        return { title: conversation.title };
      },
      deleteConversation: async (raw) => {
        const conversation = await this.requireConversation(params.string(raw, 'conversationId'));
        const deleted = await this.options.ui.confirmDelete(conversation.title);
        if (deleted) {
          await this.stopRuns(conversation.id, []);
          this.cancelSave(conversation.id);
          await this.options.store.delete(conversation.id);
        }
        const next = deleted && this.activeId === conversation.id ? await this.resolveConversation(undefined) : await this.resolveConversation(this.activeId);
        this.activeId = next.id;
        this.emitList();
        return { deleted, conversation: next };
      },
      exportConversation: async (raw) => {
        const conversation = await this.requireConversation(params.string(raw, 'conversationId'));
        const format = params.optionalString(raw, 'format');
        if (format !== undefined && format !== 'markdown' && format !== 'json') throw new ProtocolError('format must be markdown or json');
        return { exported: await this.options.ui.exportConversation(conversation, format) };
      },
      updateSettings: async (raw) => {
        const conversation = await this.requireConversation(params.string(raw, 'conversationId'));
        const incoming = params.settings(raw);
        const settings: ConversationSettings = {
          model: incoming.models[0],
          compareModel: incoming.models[1],
          compare: incoming.compare,
          systemPrompt: incoming.systemPrompt.slice(0, 200_000),
          parameters: normalizeParameters(incoming.parameters),
        };
        if (settings.model && settings.model !== conversation.settings.model) this.options.setLastModel?.(settings.model);
        conversation.settings = settings;
        this.scheduleSave(conversation, 300);
        return settings;
      },
      send: async (raw) => this.send(params.string(raw, 'conversationId'), params.string(raw, 'text')),
      stop: async (raw) => {
        const conversationId = params.string(raw, 'conversationId');
        return { answers: await this.stopRuns(conversationId, params.shownLengths(raw)) };
      },
      retry: async (raw) => {
        const conversation = await this.requireIdle(params.string(raw, 'conversationId'));
        const answer = retryAnswer(conversation, params.string(raw, 'messageId'), this.env);
        if (!answer) throw new ProtocolError('only an answer of the last message can be retried', 'not-retryable');
        await this.startTurn(conversation, [answer]);
        return { messageId: answer.id };
      },
      regenerate: async (raw) => {
        const conversation = await this.requireIdle(params.string(raw, 'conversationId'));
        this.requireModel(conversation);
        const answers = regenerateLastTurn(conversation, this.env);
        if (!answers) throw new ProtocolError('there is no message to answer again', 'nothing-to-regenerate');
        await this.startTurn(conversation, answers);
        return { messageIds: answers.map((answer) => answer.id) };
      },
      editLastUserMessage: async (raw) => {
        const conversation = await this.requireIdle(params.string(raw, 'conversationId'));
        const text = params.string(raw, 'text');
        if (!text.trim()) throw new ProtocolError('the message is empty', 'empty');
        this.requireModel(conversation);
        const edited = editLastUserMessage(conversation, text, this.env);
        if (!edited) throw new ProtocolError('there is no message to edit', 'nothing-to-edit');
        await this.startTurn(conversation, edited.answers);
        return { messageIds: edited.answers.map((answer) => answer.id) };
      },
      refreshModels: async () => this.refreshModels(),
      saveDraft: async (raw) => {
        const conversation = await this.requireConversation(params.string(raw, 'conversationId'));
        conversation.draft = params.string(raw, 'text', 1_000_000);
        this.scheduleSave(conversation, 500);
        return null;
      },
      copyText: async (raw) => {
        await this.options.ui.copyText(params.string(raw, 'text'));
        return null;
      },
      insertText: async (raw) => {
        await this.options.ui.insertText(params.string(raw, 'text'));
        return null;
      },
      openLink: async (raw) => {
        const url = safeExternalUrl(params.string(raw, 'href', 8192));
        if (!url) return { opened: false };
        return { opened: await this.options.ui.openExternal(url) };
      },
      runAction: async (raw) => {
        const action = params.string(raw, 'action');
        if (action !== 'signIn' && action !== 'configure' && action !== 'showLog') throw new ProtocolError('unknown action');
        await this.options.ui.runAction(action);
        return null;
      },
    };
  }

  // ------------------------------------------------------------------ conversations

  private async send(conversationId: string, text: string): Promise<{ userMessageId: string }> {
    if (!text.trim()) throw new ProtocolError('the message is empty', 'empty');
    const conversation = await this.requireIdle(conversationId);
    this.requireModel(conversation);
    const { user, answers } = appendUserTurn(conversation, text, this.env);
    await this.startTurn(conversation, answers);
    return { userMessageId: user.id };
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
            this.scheduleSave(conversation);
          },
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
    for (const entry of shown) {
      const answer = findAnswer(conversation, entry.messageId);
      if (!answer) continue;
      if (!runs.some((run) => run.answer === answer) && truncateToShown(answer, entry)) {
        if (answer.status === 'done') answer.status = 'stopped';
        changed = true;
        this.emitForConversation(conversationId, { type: 'answerUpdated', conversationId, answer });
      }
      settled.push(answer);
    }
    if (changed) await this.saveNow(conversation);
    return settled;
  }

  private async createAndStore(): Promise<Conversation> {
    const last = this.options.lastModel?.() ?? '';
    const conversation = createConversation(this.env, defaultSettings(last));
    if (!conversation.settings.model) this.pickDefaultModel(conversation);
    await this.options.store.add(conversation);
    return conversation;
  }

  private async activate(conversation: Conversation): Promise<Conversation> {
    this.activeId = conversation.id;
    await this.options.store.setLastOpened(conversation.id);
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
        catalogue = { options: this.catalogue.options, problems: [errorText(error)] };
      }
      this.catalogue = catalogue;
      this.modelsLoaded = true;
      for (const problem of catalogue.problems) this.problem(`model list: ${problem}`);
      this.emit({ type: 'models', catalogue, loading: false });
      const active = this.activeId ? await this.options.store.get(this.activeId) : undefined;
      if (active && !active.settings.model && this.pickDefaultModel(active)) {
        this.scheduleSave(active, 0);
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

  private scheduleSave(conversation: Conversation, delayMs = this.options.saveDelayMs ?? 1000): void {
    if (this.saveTimers.has(conversation.id)) return;
    const timer = setTimeout(() => {
      this.saveTimers.delete(conversation.id);
      void this.saveNow(conversation);
    }, delayMs);
    this.saveTimers.set(conversation.id, { timer, conversation });
  }

  private cancelSave(conversationId: string): void {
    const pending = this.saveTimers.get(conversationId);
    if (pending) clearTimeout(pending.timer);
    this.saveTimers.delete(conversationId);
  }

  private async saveNow(conversation: Conversation): Promise<void> {
    this.cancelSave(conversation.id);
    try {
      if (await this.isDeleted(conversation.id)) return;
      await this.options.store.save(conversation);
    } catch (error) {
      this.problem(`saving the conversation failed: ${errorText(error)}`);
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

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
