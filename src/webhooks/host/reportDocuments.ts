import * as vscode from 'vscode';
import { redactSecrets } from '../../platform/client/redact';

export const reportScheme = 'rl-studio-report';

/** Read-only documents for test reports: content kept in memory, shown like any editor. */
export class ReportDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly contents = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private counter = 0;

  /** Keeps at most this many reports; older ones read as gone. */
  private static readonly kept = 20;

  /**
   * Opens `content` beside the editor. It is redacted here, the last step before anyone (or any
   * extension, through the document) can read it.
   */
  async show(name: string, content: string, secrets: readonly string[] = []): Promise<vscode.Uri> {
    const safe = name.replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, '') || 'report';
    const uri = vscode.Uri.from({ scheme: reportScheme, path: `/${safe}-${++this.counter}.md` });
    this.contents.set(uri.toString(), redactSecrets(content, secrets));
    while (this.contents.size > ReportDocuments.kept) this.contents.delete(this.contents.keys().next().value!);
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preview: true, preserveFocus: false });
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? 'This report is no longer kept. Send the test again.\n';
  }

  dispose(): void {
    this.contents.clear();
    this.changed.dispose();
  }
}
