import * as vscode from 'vscode';
import { contentDigest } from '../../../core/confirmationText';
import { KeyedDebounce } from '../../../core/debounce';
import { checkTrajectoryFile, formatForFileName, tooLargeToRead, type ParsedTrajectoryFile, type SourceProblem } from '../../../core/trajectoryFile';
import { maxTrajectoryFileSize } from '../../../core/trajectoryLimits';

/** Edits are checked once typing pauses this long. */
const checkDelayMs = 300;

/**
 * Problems of trajectory files the user tried to send, shown where they are. Only those files are
 * watched (a .json file is not assumed to hold trajectories until someone sends it); their
 * diagnostics follow edits, so fixing a line clears its squiggle. Checks run in slices, so a large
 * file does not freeze the editor; a file over the size RL Studio sends is not read at all.
 */
export class TrajectoryDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('RL Studio trajectories');
  private readonly watched = new Set<string>();
  private readonly pending = new KeyedDebounce<string>();
  /** The latest check of each file: an older one that finishes later must not overwrite it. */
  private readonly latestCheck = new Map<string, number>();
  private checks = 0;
  private readonly subscriptions: vscode.Disposable[];

  constructor() {
    this.subscriptions = [vscode.workspace.onDidChangeTextDocument((event) => this.scheduleCheck(event.document)), vscode.workspace.onDidCloseTextDocument((document) => this.forget(document.uri))];
  }

  /**
   * Parses and checks a file (unsaved edits included) and shows its problems. `textDigest` is the
   * digest of the very text parsed (absent when the file was too large to read), so a confirmation
   * can tell later whether the file still holds it.
   */
  async read(uri: vscode.Uri): Promise<ParsedTrajectoryFile & { textDigest?: string }> {
    const key = uri.toString();
    this.watched.add(key);
    const open = vscode.workspace.textDocuments.find((document) => document.uri.toString() === key);
    if (!open) {
      // Sized before it is read: the editor would not even hand an extension a file over 50 MB.
      const { size } = await vscode.workspace.fs.stat(uri);
      if (size > maxTrajectoryFileSize) {
        const refused = tooLargeToRead(size);
        this.latestCheck.set(key, ++this.checks);
        this.collection.set(uri, refused.problems.map(toDiagnostic));
        return refused;
      }
    }
    const document = open ?? (await vscode.workspace.openTextDocument(uri));
    const text = document.getText();
    return { ...(await this.check(document, text)), textDigest: contentDigest(text) };
  }

  problemsOf(uri: vscode.Uri): readonly vscode.Diagnostic[] {
    return this.collection.get(uri) ?? [];
  }

  dispose(): void {
    this.pending.dispose();
    for (const subscription of this.subscriptions) subscription.dispose();
    this.collection.dispose();
  }

  private async check(document: vscode.TextDocument, text = document.getText()): Promise<ParsedTrajectoryFile> {
    const key = document.uri.toString();
    const check = ++this.checks;
    this.latestCheck.set(key, check);
    const parsed = await checkTrajectoryFile(text, formatForFileName(document.fileName));
    if (this.latestCheck.get(key) === check && this.watched.has(key)) this.collection.set(document.uri, parsed.problems.map(toDiagnostic));
    return parsed;
  }

  private scheduleCheck(document: vscode.TextDocument): void {
    const key = document.uri.toString();
    if (!this.watched.has(key)) return;
    this.pending.schedule(key, checkDelayMs, () => {
      if (this.watched.has(key)) void this.check(document);
    });
  }

  private forget(uri: vscode.Uri): void {
    const key = uri.toString();
    this.watched.delete(key);
    this.latestCheck.delete(key);
    this.pending.cancel(key);
    this.collection.delete(uri);
  }
}

function toDiagnostic(problem: SourceProblem): vscode.Diagnostic {
  const range = new vscode.Range(problem.line, problem.column, problem.endLine, Math.max(problem.endColumn, problem.column + (problem.endLine === problem.line ? 1 : 0)));
  const diagnostic = new vscode.Diagnostic(range, problem.message, problem.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning);
  diagnostic.source = 'RL Studio';
  return diagnostic;
}
