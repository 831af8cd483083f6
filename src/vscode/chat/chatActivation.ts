import * as vscode from 'vscode';
import { DeferredCommands } from '../platform/lazy/deferredCommands';
import { onFirstUse } from '../platform/lazy/onFirstUse';
import type { Services } from '../platform/services';
import type * as ChatFeature from './chatFeature';
import { chatViewType } from './chatViewType';
import { registerLanguageModels } from './languageModelRegistration';

/** The commands chatFeature.ts registers. */
const chatCommands = ['rlStudio.openChat', 'rlStudio.newChat', 'rlStudio.chatWithSelection'] as const;
/**
 * Test hooks: registered only while the extension runs its own tests. `chatReport` hands out what
 * the panel shows (conversation text included), which no other extension may read.
 */
export const chatTestCommands = ['rlStudio.chatReport'] as const;

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
    return (require('./chatFeature') as typeof ChatFeature).startChat(commands.servicesForFeature(), lastEditor);
  });
  const commands: DeferredCommands = new DeferredCommands(services, services.testMode ? [...chatCommands, ...chatTestCommands] : chatCommands, chat);

  services.context.subscriptions.push(
    editorTracking,
    vscode.window.registerWebviewPanelSerializer(chatViewType, {
      deserializeWebviewPanel: async (panel) => chat().restore(panel),
    }),
  );

  registerLanguageModels(services);
}
