import * as vscode from 'vscode';
import { checkTrajectoryFile, formatForFileName, maxTrajectoryFileSize, tooLargeToRead, type ParsedTrajectoryFile, type SourceProblem } from '../../../core/trajectoryFile';

/**
 * Problems of trajectory files the user tried to send, shown where they are. Only those files are
 * watched (a .json file is not assumed to hold trajectories until someone sends it); their
 * diagnostics follow edits, so fixing a line clears its squiggle. Checks run in slices, so a large
 * file does not freeze the editor; a file over the size RL Studio sends is not read at all.
 */
export class TrajectoryDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('RL Studio trajectories');
  private readonly watched = new Set<string>();
  private readonly pending = new Map<string, ReturnType<typeof setTimeout>>();
  /** The latest check of each file: an older one that finishes later must not overwrite it. */
  private readonly latestCheck = new Map<string, number>();
  private checks = 0;
  private readonly subscriptions: vscode.Disposable[];

  constructor() {
    this.subscriptions = [
      vscode.workspace.onDidChangeTextDocument((event) => this.scheduleCheck(event.document)),
      vscode.workspace.onDidCloseTextDocument((document) => this.forget(document.uri)),
    ];
  }

  /** Parses and checks a file (unsaved edits included) and shows its problems. */
  async read(uri: vscode.Uri): Promise<ParsedTrajectoryFile> {
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
    return this.check(open ?? (await vscode.workspace.openTextDocument(uri)));
  }

  problemsOf(uri: vscode.Uri): readonly vscode.Diagnostic[] {
    return this.collection.get(uri) ?? [];
  }

  dispose(): void {
    for (const timer of this.pending.values()) clearTimeout(timer);
    for (const subscription of this.subscriptions) subscription.dispose();
    this.collection.dispose();
  }

  private async check(document: vscode.TextDocument): Promise<ParsedTrajectoryFile> {
    const key = document.uri.toString();
    const check = ++this.checks;
    this.latestCheck.set(key, check);
    const parsed = await checkTrajectoryFile(document.getText(), formatForFileName(document.fileName));
    if (this.latestCheck.get(key) === check && this.watched.has(key)) this.collection.set(document.uri, parsed.problems.map(toDiagnostic));
    return parsed;
  }

  private scheduleCheck(document: vscode.TextDocument): void {
    const key = document.uri.toString();
    if (!this.watched.has(key)) return;
    const previous = this.pending.get(key);
    if (previous) clearTimeout(previous);
    this.pending.set(key, setTimeout(() => {
      this.pending.delete(key);
      if (this.watched.has(key)) void this.check(document);
    }, 300));
  }

  private forget(uri: vscode.Uri): void {
    const key = uri.toString();
    this.watched.delete(key);
    this.latestCheck.delete(key);
    const pending = this.pending.get(key);
    if (pending) clearTimeout(pending);
    this.pending.delete(key);
    this.collection.delete(uri);
  }
}

function toDiagnostic(problem: SourceProblem): vscode.Diagnostic {
  const range = new vscode.Range(problem.line, problem.column, problem.endLine, Math.max(problem.endColumn, problem.column + (problem.endLine === problem.line ? 1 : 0)));
  const diagnostic = new vscode.Diagnostic(range, problem.message, problem.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning);
  diagnostic.source = 'RL Studio';
  return diagnostic;
}
