import * as vscode from 'vscode';
import { chatDefaultModelKey } from '../../platform/host/rememberedItems';
import { ChatController } from '../model/chatController';
import { ConversationStore } from '../model/conversationStore';
import { createPlatformBackend } from '../model/platformBackend';
import type { Services } from '../../platform/host/services';
import { loadWebviewPage, panelOptions } from '../../platform/pages/host/panelOptions';
import { chatViewType } from '../protocol';
import { EditorChatUi } from './editorUi';

const chatTitle = 'RL Studio Chat';

/** Shared by every panel of the window: one store, so a reopened panel sees the same conversations. */
export interface ChatShared {
  services: Services;
  store: ConversationStore;
  ui: EditorChatUi;
}

/**
 * The chat panel: a webview with a strict policy whose messages go to a ChatController. There is at
 * most one; opening the chat again reveals it. The webview is not kept alive while hidden: when it
 * comes back it asks for a fresh snapshot, and streaming goes on in the extension meanwhile.
 */
export class ChatPanel implements vscode.Disposable {
  private static current: ChatPanel | undefined;
  readonly controller: ChatController;
  private readonly disposables: vscode.Disposable[] = [];

  static get open(): ChatPanel | undefined {
    return ChatPanel.current;
  }

  /** Reveals the panel, creating it when needed. */
  static show(shared: ChatShared, column?: vscode.ViewColumn): ChatPanel {
    if (ChatPanel.current) {
      ChatPanel.current.panel.reveal(column ?? ChatPanel.current.panel.viewColumn);
      return ChatPanel.current;
    }
    const targetColumn = column ?? (vscode.window.activeTextEditor ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active);
    const panel = vscode.window.createWebviewPanel(chatViewType, chatTitle, targetColumn, panelOptions(shared.services.context.extensionUri, { findWidget: true }));
    return new ChatPanel(panel, shared);
  }

  /** Restores a panel VS Code kept open across a window reload (the serializer calls this). */
  static restore(panel: vscode.WebviewPanel, shared: ChatShared): ChatPanel {
    ChatPanel.current?.panel.dispose();
    return new ChatPanel(panel, shared);
  }

  private constructor(
    readonly panel: vscode.WebviewPanel,
    shared: ChatShared,
  ) {
    ChatPanel.current = this;
    const { services } = shared;
    const state = services.context.globalState;
    panel.iconPath = vscode.Uri.joinPath(services.context.extensionUri, 'media', 'rl-studio.svg');
    this.controller = new ChatController({
      store: shared.store,
      backend: createPlatformBackend({
        client: () => services.client(),
        trainedModels: () => services.remembered.models.list(),
        pinnedModels: () => services.remembered.pinned.list().map((pin) => pin.id),
        describeFailure: (error) => services.describeFailure(error),
      }),
      ui: shared.ui,
      post: (message) => void panel.webview.postMessage(message),
      lastModel: () => state.get<string>(chatDefaultModelKey),
      setLastModel: (modelId) => void state.update(chatDefaultModelKey, modelId),
      onProblem: (problem) => services.log.warn(`chat: ${problem}`),
    });
    this.disposables.push(
      panel.webview.onDidReceiveMessage((message: unknown) => this.controller.receive(message)),
      panel.onDidChangeViewState(() => {
        if (!panel.visible) this.controller.webviewLost();
      }),
      panel.onDidDispose(() => this.dispose()),
      services.onDidChangeConnection(() => void this.controller.refreshModels()),
      services.remembered.models.onDidChange(() => void this.controller.refreshModels()),
      services.remembered.pinned.onDidChange(() => void this.controller.refreshModels()),
    );
    loadWebviewPage(panel.webview, services.context.extensionUri, 'chat', chatTitle);
  }

  dispose(): void {
    if (ChatPanel.current === this) ChatPanel.current = undefined;
    void this.controller.dispose();
    for (const disposable of this.disposables.splice(0)) disposable.dispose();
    this.panel.dispose();
  }
}
