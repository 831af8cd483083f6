import type { AnswerRuns } from './answerRuns';
import type { ChatUi } from './chatPorts';
import type { ConversationEnv } from './conversation';
import type { ConversationSaving } from './conversationSaving';
import type { ConversationStore } from './conversationStore';
import type { Conversation, ConversationSettings } from './conversationTypes';
import { safeExternalUrl } from './externalLinks';
import { maxClipboardChars, maxLinkChars, maxMessageChars } from './limits';
import type { ChatModelCatalogue } from './modelCatalogue';
import { normalizeParameters } from './requestBuilder';
import type { WebviewGuards } from './webviewGuards';
import { chatParams, type HostMethods, type PanelSnapshot } from '../protocol';
import type { Handlers } from '../../platform/pages/rpc';
import { ProtocolError } from '../../platform/pages/wire';

/** The chat session as the webview's requests see it (ChatController provides it). */
export interface ChatSession {
  readonly store: ConversationStore;
  readonly ui: ChatUi;
  readonly env: ConversationEnv;
  readonly guards: WebviewGuards;
  readonly saving: ConversationSaving;
  readonly runs: AnswerRuns;
  readonly models: ChatModelCatalogue;
  /** The conversation on screen. */
  activeId(): string | undefined;
  setActive(conversationId: string): void;
  /** The webview drew itself from a snapshot: events reach it from now on. */
  webviewReady(): void;
  listChanged(): void;
  /** The preferred conversation, else the last opened, else any, else a new one. */
  resolveConversation(preferredId: string | undefined): Promise<Conversation>;
  /** The conversation of that id, or a 'not-found' refusal. */
  requireConversation(id: string): Promise<Conversation>;
  newOrEmptyConversation(): Promise<Conversation>;
  setLastModel(modelId: string): void;
}

/**
 * The methods the chat webview may call. Each checks its params (the webview is not trusted),
 * goes through the guards when it reaches the editor, and hands the work on: turns and Stop to
 * AnswerRuns, writes to ConversationSaving, the model list to ChatModelCatalogue.
 */
export function chatRequestHandlers(session: ChatSession): Handlers<HostMethods> {
  const { store, ui, guards, saving, runs, models } = session;
  return {
    ready: async (raw) => {
      const conversation = await session.resolveConversation(session.activeId() ?? chatParams.optionalId(raw, 'conversationId'));
      session.setActive(conversation.id);
      session.webviewReady();
      if (!models.isLoaded) void models.load();
      const snapshot: PanelSnapshot = {
        conversations: await store.list(),
        conversation,
        models: models.current,
        modelsLoading: !models.isLoaded,
      };
      return snapshot;
    },
    newConversation: async () => {
      const conversation = await session.newOrEmptyConversation();
      session.setActive(conversation.id);
      session.listChanged();
      return conversation;
    },
    openConversation: async (raw) => {
      const conversation = await session.requireConversation(chatParams.id(raw, 'conversationId'));
      session.setActive(conversation.id);
      return conversation;
    },
    renameConversation: async (raw) => {
      const conversation = await session.requireConversation(chatParams.id(raw, 'conversationId'));
      const title = (await guards.dialog(() => ui.askTitle(conversation.title)))?.trim();
      if (!title) return null;
      conversation.title = title.slice(0, 200);
      conversation.titleFromUser = true;
      conversation.updatedAt = session.env.now();
      await saving.now(conversation);
      session.listChanged();
      return { title: conversation.title };
    },
    deleteConversation: async (raw) => {
      const conversation = await session.requireConversation(chatParams.id(raw, 'conversationId'));
      const deleted = await guards.dialog(() => ui.confirmDelete(conversation.title));
      if (deleted) {
        await runs.stop(conversation.id, []);
        saving.cancel(conversation.id);
        await store.delete(conversation.id);
      }
      const next = deleted && session.activeId() === conversation.id ? await session.resolveConversation(undefined) : await session.resolveConversation(session.activeId());
      session.setActive(next.id);
      session.listChanged();
      return { deleted, conversation: next };
    },
    exportConversation: async (raw) => {
      const conversation = await session.requireConversation(chatParams.id(raw, 'conversationId'));
      const format = chatParams.optionalString(raw, 'format', 20);
      if (format !== undefined && format !== 'markdown' && format !== 'json') throw new ProtocolError('format must be markdown or json');
      guards.action('exportConversation');
      return { exported: await guards.dialog(() => ui.exportConversation(conversation, format)) };
    },
    updateSettings: async (raw) => {
      const conversation = await session.requireConversation(chatParams.id(raw, 'conversationId'));
      const incoming = chatParams.settings(raw);
      const settings: ConversationSettings = {
        model: incoming.models[0],
        compareModel: incoming.models[1],
        compare: incoming.compare,
        systemPrompt: incoming.systemPrompt,
        parameters: normalizeParameters(incoming.parameters),
      };
      if (settings.model && settings.model !== conversation.settings.model) session.setLastModel(settings.model);
      conversation.settings = settings;
      saving.soon(conversation, 300);
      return settings;
    },
    send: async (raw) => runs.send(chatParams.id(raw, 'conversationId'), chatParams.string(raw, 'text', maxMessageChars, 'the message')),
    stop: async (raw) => {
      const conversationId = chatParams.id(raw, 'conversationId');
      return { answers: await runs.stop(conversationId, chatParams.shownLengths(raw)) };
    },
    retry: async (raw) => {
      const messageId = chatParams.id(raw, 'messageId');
      return runs.retry(chatParams.id(raw, 'conversationId'), messageId);
    },
    regenerate: async (raw) => runs.regenerate(chatParams.id(raw, 'conversationId')),
    editLastUserMessage: async (raw) => {
      const text = chatParams.string(raw, 'text', maxMessageChars, 'the message');
      return runs.editLastUserMessage(chatParams.id(raw, 'conversationId'), text);
    },
    // A webview asking again and again gets the list being loaded, or the one just loaded.
    refreshModels: async () => (guards.refreshAllowed() ? models.refresh() : models.latest()),
    saveDraft: async (raw) => {
      const conversation = await session.requireConversation(chatParams.id(raw, 'conversationId'));
      conversation.draft = chatParams.string(raw, 'text', maxMessageChars, 'the draft');
      saving.soon(conversation, 500);
      return null;
    },
    copyText: async (raw) => {
      const text = chatParams.string(raw, 'text', maxClipboardChars, 'the text to copy');
      guards.action('copyText');
      await ui.copyText(text);
      return null;
    },
    insertText: async (raw) => {
      const text = chatParams.string(raw, 'text', maxClipboardChars, 'the text to insert');
      guards.action('insertText');
      await ui.insertText(text);
      return null;
    },
    openLink: async (raw) => {
      const url = safeExternalUrl(chatParams.string(raw, 'href', maxLinkChars));
      if (!url) return { opened: false };
      guards.action('openLink');
      return { opened: await ui.openExternal(url) };
    },
    runAction: async (raw) => {
      const action = chatParams.string(raw, 'action', 20);
      if (action !== 'signIn' && action !== 'configure' && action !== 'showLog') throw new ProtocolError('unknown action');
      guards.action('runAction');
      await ui.runAction(action);
      return null;
    },
  };
}
