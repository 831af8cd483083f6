import * as vscode from 'vscode';
import { onFirstUse } from '../platform/host/lazy/onFirstUse';
import type { Services } from '../platform/host/services';
import type * as ChatFeature from '.';
import { chatViewType } from './protocol';
import { registerLanguageModels } from './host/languageModelRegistration';

/**
 * The chat feature: the panel's serializer (an open panel comes back after a reload), the commands
 * that open it, and the models offered to VS Code's own chat. The chat itself (dist/chat.js) loads
 * when one of its commands first runs or a panel is restored.
 */
export function registerChat(services: Services): void {
  // "Insert at cursor" goes to the text editor last active before the chat panel took focus, which
  // may be one used before the chat loaded.
  let lastEditor = vscode.window.activeTextEditor;
  const editorTracking = vscode.window.onDidChangeActiveTextEditor((editor) => {
    if (editor) lastEditor = editor;
  });
  const chat = onFirstUse('chat', services.log, () => {
    editorTracking.dispose();
    return (require('.') as typeof ChatFeature).startChat(services, lastEditor);
  });
  services.registerFeatureCommands('chat', chat);

  services.context.subscriptions.push(
    editorTracking,
    vscode.window.registerWebviewPanelSerializer(chatViewType, {
      deserializeWebviewPanel: async (panel) => chat().restore(panel),
    }),
  );

  registerLanguageModels(services);
}
