import * as vscode from 'vscode';
import { contentDigest, escapeForOneLine } from '../kit/confirmationText';

/** Said when a file changed between the confirmation and the action: nothing was sent. */
export function changedAfterConfirmation(fileName: string): string {
  return `${escapeForOneLine(fileName)} changed after you confirmed; nothing was sent. Run the command again to send it as it is now.`;
}

/**
 * What a file held when it was read for a confirmation, kept as a digest: the bytes on disk, or
 * the editor's text when it had unsaved edits (then that text is what was read). The action asks
 * `changed()` after the person said yes and sends nothing when the file no longer holds what was
 * counted: a confirmation of one group must never send forty.
 */
export class FileSnapshot {
  private constructor(
    private readonly uri: vscode.Uri,
    private readonly kind: 'disk' | 'editor' | 'stale',
    private readonly digest: string,
  ) {}

  /** The file's bytes, as just read from disk. */
  static ofBytes(uri: vscode.Uri, bytes: Uint8Array): FileSnapshot {
    return new FileSnapshot(uri, 'disk', contentDigest(bytes));
  }

  /**
   * The text of an open editor, as just read from it. Without unsaved edits it must be the file's
   * own text: an editor that has not yet caught up with a change on disk counts as changed.
   */
  static async ofEditor(document: vscode.TextDocument, text: string): Promise<FileSnapshot> {
    if (document.isDirty) return new FileSnapshot(document.uri, 'editor', contentDigest(text));
    const bytes = await readBytes(document.uri);
    if (bytes === undefined || contentDigest(new TextDecoder().decode(bytes)) !== contentDigest(text)) return new FileSnapshot(document.uri, 'stale', '');
    return new FileSnapshot(document.uri, 'disk', contentDigest(bytes));
  }

  /** True when the file (or the editor's unsaved text that was read) no longer holds what was read. */
  async changed(): Promise<boolean> {
    if (this.kind === 'stale') return true;
    if (this.kind === 'disk') {
      const bytes = await readBytes(this.uri);
      return bytes === undefined || contentDigest(bytes) !== this.digest;
    }
    const key = this.uri.toString();
    const open = vscode.workspace.textDocuments.find((document) => document.uri.toString() === key);
    // Closed without saving: the text confirmed is nowhere now.
    return open === undefined || contentDigest(open.getText()) !== this.digest;
  }
}

async function readBytes(uri: vscode.Uri): Promise<Uint8Array | undefined> {
  try {
    return await vscode.workspace.fs.readFile(uri);
  } catch {
    // Gone or unreadable: it holds nothing that was read.
    return undefined;
  }
}
