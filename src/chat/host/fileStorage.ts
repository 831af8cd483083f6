import * as vscode from 'vscode';
import type { DocumentStorage } from '../model/conversationStore';

/**
 * Conversations as JSON files in the extension's global storage folder (not in globalState: long
 * answers would bloat the state every window loads at startup). A write goes to a temporary file
 * first and is renamed over the old one, so a crash mid-write never leaves half a conversation.
 */
/**
 * A saved conversation is at most 16 Mi characters of JSON (see chat/limits.ts), so at most 64 MiB
 * of UTF-8. A larger file was not written by RL Studio; it is left alone rather than read whole.
 */
const maxFileBytes = 64 * 1024 * 1024;

export class FileDocumentStorage implements DocumentStorage {
  private ready: Promise<void> | undefined;

  constructor(private readonly folder: vscode.Uri) {}

  async read(name: string): Promise<string | undefined> {
    try {
      const { size } = await vscode.workspace.fs.stat(this.uri(name));
      if (size > maxFileBytes) {
        throw new Error(`The saved conversation ${name} is ${(size / 2 ** 20).toFixed(0)} MiB, larger than RL Studio writes (64 MiB); it was not read and is left as it is.`);
      }
      return new TextDecoder().decode(await vscode.workspace.fs.readFile(this.uri(name)));
    } catch (error) {
      if (error instanceof vscode.FileSystemError && error.code === 'FileNotFound') return undefined;
      throw error;
    }
  }

  async write(name: string, text: string): Promise<void> {
    await (this.ready ??= Promise.resolve(vscode.workspace.fs.createDirectory(this.folder)));
    const temporary = this.uri(`${name}.tmp`);
    await vscode.workspace.fs.writeFile(temporary, new TextEncoder().encode(text));
    await vscode.workspace.fs.rename(temporary, this.uri(name), { overwrite: true });
  }

  async remove(name: string): Promise<void> {
    try {
      await vscode.workspace.fs.delete(this.uri(name));
    } catch (error) {
      if (!(error instanceof vscode.FileSystemError && error.code === 'FileNotFound')) throw error;
    }
  }

  private uri(name: string): vscode.Uri {
    return vscode.Uri.joinPath(this.folder, name);
  }
}
