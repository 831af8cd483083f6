import * as vscode from 'vscode';
import { ConversationStore } from './model/conversationStore';
import { maxMessageChars, maxModelIdChars } from './model/limits';
import { selectionMessage } from './model/selectionMessage';
import type { Services } from '../platform/host/services';
import { ChatPanel, type ChatShared } from './host/chatPanel';
import { EditorChatUi } from './host/editorUi';
import { FileDocumentStorage } from './host/fileStorage';

export interface ChatFeature {
  /** Takes over a chat panel VS Code kept open across a window reload. */
  restore(panel: vscode.WebviewPanel): void;
}

/**
 * Entry of dist/chat.js, loaded when a chat command first runs or a chat panel is restored: the
 * conversation store, the panel and the commands that open it. `lastEditor` is the text editor
 * last active before the chat loaded, where "Insert at cursor" goes.
 */
export function startChat(services: Services, lastEditor: vscode.TextEditor | undefined): ChatFeature {
  const ui = new EditorChatUi(services.dialogs, lastEditor, () => services.log.knownSecrets());
  const shared: ChatShared = {
    services,
    ui,
    store: new ConversationStore(new FileDocumentStorage(vscode.Uri.joinPath(services.context.globalStorageUri, 'chat'))),
  };
  services.context.subscriptions.push(ui, { dispose: () => ChatPanel.open?.dispose() });

  /** `{ modelId }` (from the Models view) opens exactly that model; without it, the last conversation. */
  services.registerCommand('rlStudio.openChat', async (argument?: unknown) => {
    const modelId = modelIdOf(argument);
    const panel = ChatPanel.show(shared);
    const conversation = modelId ? await panel.controller.openWithModel(modelId) : undefined;
    return { conversationId: conversation?.id ?? panel.controller.activeConversationId };
  });

  services.registerCommand('rlStudio.newChat', async () => {
    const panel = ChatPanel.show(shared);
    const conversation = await panel.controller.startNewConversation();
    return { conversationId: conversation.id };
  });

  services.registerCommand('rlStudio.chatWithSelection', async () => {
    const editor = vscode.window.activeTextEditor;
    if (!editor) throw new Error('Open an editor and select some text to chat about it.');
    const selection = editor.selection;
    const range = selection.isEmpty ? editor.document.lineAt(selection.active.line).range : selection;
    const text = editor.document.getText(range);
    if (!text.trim()) throw new Error('Select some text to chat about it.');
    if (text.length > maxMessageChars) {
      throw new Error(`The selection is too long to send (${text.length.toLocaleString('en-US')} characters; at most ${maxMessageChars.toLocaleString('en-US')}). Select less text.`);
    }
    const message = selectionMessage({
      text,
      languageId: editor.document.languageId,
      fileLabel: vscode.workspace.asRelativePath(editor.document.uri, false),
      startLine: range.start.line + 1,
      endLine: range.end.line + (range.end.character === 0 && range.end.line > range.start.line ? 0 : 1),
    });
    const panel = ChatPanel.show(shared, vscode.ViewColumn.Beside);
    const conversation = await panel.controller.sendAsNewConversation(message);
    return { conversationId: conversation.id };
  });

  // What the open panel shows (model pickers, messages): a test hook, so it exists only in the
  // extension's own tests; any other extension could otherwise read the conversation through it.
  if (services.testMode) services.registerCommand('rlStudio.chatReport', async () => ChatPanel.open?.controller.report());

  return {
    restore: (panel) => {
      ChatPanel.restore(panel, shared);
    },
  };
}

/** The model id passed by the Models view (any extension can run the command: it is checked). */
function modelIdOf(argument: unknown): string | undefined {
  const raw = typeof argument === 'object' && argument !== null && Object.prototype.hasOwnProperty.call(argument, 'modelId') ? (argument as { modelId?: unknown }).modelId : argument;
  if (typeof raw !== 'string' || raw.length > maxModelIdChars) return undefined;
  return raw.trim() || undefined;
}

export { PlatformLanguageModels } from './host/languageModelProvider';
