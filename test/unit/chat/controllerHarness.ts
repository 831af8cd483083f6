import assert from 'node:assert/strict';
import type { ChatCompletionChunk, ChatCompletionRequest } from '../../../src/platform/client/types';
import { ChatController } from '../../../src/chat/model/chatController';
import type { ChatBackend, ChatUi } from '../../../src/chat/model/chatPorts';
import { ConversationStore } from '../../../src/chat/model/conversationStore';
import type { Conversation } from '../../../src/chat/model/conversationTypes';
import type { PlatformApi } from '../../../src/platform/client/types';
import type { ModelCatalogue } from '../../../src/chat/model/modelOptions';
import type { HostEvent, HostMethods, WebviewEvent, WebviewMethods, WebviewReport } from '../../../src/chat/protocol';
import { RpcEndpoint } from '../../../src/platform/pages/rpc';
import type { WireMessage } from '../../../src/platform/pages/wire';
import { catalogueOf } from './fixtures';
import { MemoryStorage, testEnv } from './support';

export type StreamScript = (request: ChatCompletionRequest, signal: AbortSignal) => AsyncIterable<ChatCompletionChunk>;

export class FakeBackend implements ChatBackend {
  readonly calls: { request: ChatCompletionRequest; api: PlatformApi }[] = [];
  readonly scripts: StreamScript[] = [];
  catalogue: ModelCatalogue = catalogueOf('model-a');
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
 * The webview's end of the chat channel, in memory: messages cross as structured clones, a
 * microtask later, as postMessage delivers them. `toHost` is the host's receive; `toWebview` is the
 * post function to give the host; `events` records every event the webview received, in order.
 */
export function memoryWebview(toHost: (message: unknown) => void, report: () => WebviewReport = () => assert.fail('the host asked for a report')) {
  const events: HostEvent[] = [];
  const webview = new RpcEndpoint<HostMethods, WebviewMethods, WebviewEvent, HostEvent>({
    post: (message) => {
      const copy = structuredClone(message);
      queueMicrotask(() => toHost(copy));
    },
    handlers: { report },
    onEvent: (event) => events.push(event),
  });
  const toWebview = (message: WireMessage) => {
    const copy = structuredClone(message);
    queueMicrotask(() => webview.receive(copy));
  };
  return { webview, events, toWebview };
}

/** A controller on fakes, wired to a webview endpoint in memory (see memoryWebview). */
export function createHarness(options: { storage?: MemoryStorage; backend?: FakeBackend; lastModel?: string; report?: () => WebviewReport } = {}) {
  const storage = options.storage ?? new MemoryStorage();
  const backend = options.backend ?? new FakeBackend();
  const ui = new FakeUi();
  const problems: string[] = [];
  let lastModel = options.lastModel;
  const { webview, events, toWebview } = memoryWebview((message) => controller.receive(message), options.report);
  const controller = new ChatController({
    store: new ConversationStore(storage),
    backend,
    ui,
    post: toWebview,
    env: testEnv(),
    lastModel: () => lastModel,
    setLastModel: (id) => {
      lastModel = id;
    },
    onProblem: (problem) => problems.push(problem),
    saveDelayMs: 5,
    deltaIntervalMs: 1,
  });
  return { controller, webview, backend, ui, events, problems, storage, lastModel: () => lastModel };
}
