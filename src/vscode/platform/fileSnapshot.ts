import * as vscode from 'vscode';
import { contentDigest, escapeForOneLine } from '../../core/confirmationText';

/** Said when a file changed between the confirmation and the action: nothing was sent. */
export function changedAfterConfirmation(fileName: string): string {
  return `${escapeForOneLine(fileName)} changed after you confirmed; nothing was sent. Run the command again to send it as it is now.`;
}

/**
 * What a file held when it was read for a confirmation, kept as digests: the text that was parsed
 * (the editor's, unsaved edits included) and, when that text was the file's own, the bytes on disk.
 * The action asks `changed()` after the person said yes, and sends nothing when the file no longer
 * holds what was counted: a confirmation of one group must never send forty.
 */
export class FileSnapshot {
  private constructor(
    private readonly uri: vscode.Uri,
    private readonly textDigest: string,
    private readonly diskDigest: string | undefined,
  ) {}

  /** The snapshot of `text`, the text just parsed from `uri`. */
  static async of(uri: vscode.Uri, textDigest: string): Promise<FileSnapshot> {
    const open = openDocument(uri);
    // Unsaved edits are what was parsed: the bytes on disk are another text, not to be compared.
    const diskDigest = open?.isDirty ? undefined : await diskDigestOf(uri);
    return new FileSnapshot(uri, textDigest, diskDigest);
  }

  /** True when the editor's text or the bytes on disk are no longer what was read. */
  async changed(): Promise<boolean> {
    const open = openDocument(this.uri);
    if (open && contentDigest(open.getText()) !== this.textDigest) return true;
    // Read with unsaved edits that were since closed unsaved: the text confirmed is nowhere now.
    if (this.diskDigest === undefined) return open === undefined;
    return (await diskDigestOf(this.uri)) !== this.diskDigest;
  }
}

function openDocument(uri: vscode.Uri): vscode.TextDocument | undefined {
  const key = uri.toString();
  return vscode.workspace.textDocuments.find((document) => document.uri.toString() === key);
}

async function diskDigestOf(uri: vscode.Uri): Promise<string | undefined> {
  try {
    return contentDigest(await vscode.workspace.fs.readFile(uri));
  } catch {
    // Gone or unreadable: no digest matches it.
    return 'unreadable';
  }
}
