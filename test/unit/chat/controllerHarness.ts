import type { ChatCompletionChunk, ChatCompletionRequest } from '../../../src/api/types';
import { ChatController, type ChatBackend, type ChatUi } from '../../../src/chat/chatController';
import { ConversationStore } from '../../../src/chat/conversationStore';
import type { Conversation } from '../../../src/chat/conversationTypes';
import type { PlatformApi } from '../../../src/api/types';
import type { ModelCatalogue } from '../../../src/chat/modelOptions';
import type { HostEvent, HostMethods, WebviewEvent, WebviewMethods, WebviewReport } from '../../../src/webview/chat/protocol';
import { RpcEndpoint } from '../../../src/webview/common/rpc';
import { MemoryStorage, testEnv } from './support';

export type StreamScript = (request: ChatCompletionRequest, signal: AbortSignal) => AsyncIterable<ChatCompletionChunk>;

export class FakeBackend implements ChatBackend {
  readonly calls: { request: ChatCompletionRequest; api: PlatformApi }[] = [];
  readonly scripts: StreamScript[] = [];
  catalogue: ModelCatalogue = { options: [{ id: 'model-a', label: 'model-a', group: 'Inference models', api: 'inference' }], problems: [] };
  fallback: StreamScript = () => (async function* () {})();

  stream(request: ChatCompletionRequest, api: PlatformApi, signal: AbortSignal): AsyncIterable<ChatCompletionChunk> {
    this.calls.push({ request, api });
    return (this.scripts.shift() ?? this.fallback)(request, signal);
  }

  async listModels(): Promise<ModelCatalogue> {
    return this.catalogue;
  }
}

export class FakeUi implements ChatUi {
  titles: (string | undefined)[] = [];
  confirmations: boolean[] = [];
  readonly exported: { conversation: Conversation; format?: string }[] = [];
  readonly copied: string[] = [];
  readonly inserted: string[] = [];
  readonly opened: string[] = [];
  readonly actions: string[] = [];
  async askTitle(): Promise<string | undefined> {
    return this.titles.shift();
  }
  async confirmDelete(): Promise<boolean> {
    return this.confirmations.shift() ?? false;
  }
  async exportConversation(conversation: Conversation, format?: string): Promise<boolean> {
    this.exported.push({ conversation, format });
    return true;
  }
  async copyText(text: string): Promise<void> {
    this.copied.push(text);
  }
  async insertText(text: string): Promise<void> {
    this.inserted.push(text);
  }
  async openExternal(url: string): Promise<boolean> {
    this.opened.push(url);
    return true;
  }
  async runAction(action: string): Promise<void> {
    this.actions.push(action);
  }
}

/**
 * A controller wired to a fake webview endpoint through structured clones, as postMessage does.
 * `events` records every event the webview received, in order.
 */
export function createHarness(options: { storage?: MemoryStorage; backend?: FakeBackend; lastModel?: string; report?: () => WebviewReport } = {}) {
  const storage = options.storage ?? new MemoryStorage();
  const backend = options.backend ?? new FakeBackend();
  const ui = new FakeUi();
  const events: HostEvent[] = [];
  const problems: string[] = [];
  let lastModel = options.lastModel;
  let webview!: RpcEndpoint<HostMethods, WebviewMethods, WebviewEvent, HostEvent>;
  const controller = new ChatController({
    store: new ConversationStore(storage),
    backend,
    ui,
    post: (message) => {
      const copy = structuredClone(message);
      queueMicrotask(() => webview.receive(copy));
    },
    env: testEnv(),
    lastModel: () => lastModel,
    setLastModel: (id) => {
      lastModel = id;
    },
    onProblem: (problem) => problems.push(problem),
    saveDelayMs: 5,
    deltaIntervalMs: 1,
  });
  webview = new RpcEndpoint<HostMethods, WebviewMethods, WebviewEvent, HostEvent>({
    post: (message) => {
      const copy = structuredClone(message);
      queueMicrotask(() => controller.receive(copy));
    },
    handlers: { report: () => (options.report ? options.report() : ({} as WebviewReport)) },
    onEvent: (event) => events.push(event),
  });
  return { controller, webview, backend, ui, events, problems, storage, lastModel: () => lastModel };
}
