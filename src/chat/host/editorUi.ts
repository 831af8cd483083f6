import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ChatUi } from '../model/chatPorts';
import type { Conversation } from '../model/conversationTypes';
import { conversationToJson, conversationToMarkdown, exportFileName } from '../model/exportConversation';
import type { ExportFormat } from '../protocol';
import type { Dialogs } from '../../platform/host/dialogs';
import { copyAndSay } from '../../platform/host/clipboard';

/**
 * The chat's uses of the editor: native input and confirmation dialogs (through the extension's
 * dialogs service, so its tests answer them as they answer any other), the clipboard, the last
 * text editor (the panel itself has focus when a code block's "Insert at cursor" is clicked), and
 * the browser for links.
 */
export class EditorChatUi implements ChatUi, vscode.Disposable {
  private readonly subscription = vscode.window.onDidChangeActiveTextEditor((editor) => {
    if (editor) this.lastEditor = editor;
  });

  /**
   * `lastEditor`: the text editor that was last active before this object existed. `secrets`: the
   * values an export must not contain (the API key and other secrets the log knows).
   */
  constructor(
    private readonly dialogs: Dialogs,
    private lastEditor: vscode.TextEditor | undefined = vscode.window.activeTextEditor,
    private readonly secrets: () => readonly string[] = () => [],
  ) {}

  async askTitle(current: string): Promise<string | undefined> {
    return this.dialogs.input({
      title: 'Rename Conversation',
      value: current,
      prompt: 'A new name for this conversation',
      validateInput: (value) => (value.trim() === '' ? 'Enter a name' : undefined),
    });
  }

  async confirmDelete(title: string): Promise<boolean> {
    return this.dialogs.confirm(`Delete the conversation "${title}"?`, 'Its messages are removed from this computer. Export it first to keep a copy.', 'Delete');
  }

  /** Opens the export as an unsaved document named after the conversation; Save writes it anywhere. */
  async exportConversation(conversation: Conversation, format?: ExportFormat): Promise<boolean> {
    const chosen = format ?? (await pickFormat(this.dialogs));
    if (!chosen) return false;
    const content = chosen === 'markdown' ? conversationToMarkdown(conversation, new Date(), this.secrets()) : conversationToJson(conversation, new Date(), this.secrets());
    const language = chosen === 'markdown' ? 'markdown' : 'json';
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? os.homedir();
    const target = vscode.Uri.file(path.join(folder, exportFileName(conversation, chosen))).with({ scheme: 'untitled' });
    let document = await vscode.workspace.openTextDocument(target);
    if (document.getText() === '') {
      const edit = new vscode.WorkspaceEdit();
      edit.insert(target, new vscode.Position(0, 0), content);
      await vscode.workspace.applyEdit(edit);
      if (document.languageId !== language) document = await vscode.languages.setTextDocumentLanguage(document, language);
    } else {
      // A document of that name is already open with other text: never overwrite it.
      document = await vscode.workspace.openTextDocument({ language, content });
    }
    await vscode.window.showTextDocument(document, { preview: false, viewColumn: vscode.ViewColumn.Active });
    return true;
  }

  async copyText(text: string): Promise<void> {
    await copyAndSay(text, 'Copied to the clipboard', 2000);
  }

  async insertText(text: string): Promise<void> {
    const editor = this.lastEditor && !this.lastEditor.document.isClosed ? this.lastEditor : vscode.window.visibleTextEditors[0];
    if (!editor) {
      const document = await vscode.workspace.openTextDocument({ content: text });
      await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside });
      return;
    }
    const shown = await vscode.window.showTextDocument(editor.document, { viewColumn: editor.viewColumn, preserveFocus: false });
    await shown.edit((builder) => {
      for (const selection of shown.selections) builder.replace(selection, text);
    });
  }

  async openExternal(url: string): Promise<boolean> {
    return vscode.env.openExternal(vscode.Uri.parse(url, true));
  }

  async runAction(action: 'signIn' | 'configure' | 'showLog'): Promise<void> {
    const command = { signIn: 'rlStudio.signIn', configure: 'rlStudio.configure', showLog: 'rlStudio.showLog' }[action];
    await vscode.commands.executeCommand(command);
  }

  dispose(): void {
    this.subscription.dispose();
  }
}

async function pickFormat(dialogs: Dialogs): Promise<ExportFormat | undefined> {
  const picked = await dialogs.pick(
    [
      { label: 'Markdown', description: 'a readable document', format: 'markdown' as const },
      { label: 'JSON', description: 'every field, for scripts', format: 'json' as const },
    ],
    { title: 'Export Conversation', placeHolder: 'Format' },
  );
  return picked?.format;
}
