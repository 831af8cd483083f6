import * as vscode from 'vscode';
import type { TrajectoryGroup } from '../../api/types';
import { formatForFileName, parseTrajectoryFile, type SourceProblem } from '../../core/trajectoryFile';

/**
 * Problems of trajectory files the user tried to send, shown where they are. Only those files are
 * watched (a .json file is not assumed to hold trajectories until someone sends it); their
 * diagnostics follow edits, so fixing a line clears its squiggle.
 */
export class TrajectoryDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('RL Studio trajectories');
  private readonly watched = new Set<string>();
  private readonly pending = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly subscriptions: vscode.Disposable[];

  constructor() {
    this.subscriptions = [
      vscode.workspace.onDidChangeTextDocument((event) => this.scheduleCheck(event.document)),
      vscode.workspace.onDidCloseTextDocument((document) => this.forget(document.uri)),
    ];
  }

  /** Parses and checks a file (unsaved edits included) and shows its problems. */
  async read(uri: vscode.Uri): Promise<{ groups: TrajectoryGroup[]; problems: SourceProblem[]; ok: boolean; document: vscode.TextDocument }> {
    const document = await vscode.workspace.openTextDocument(uri);
    const parsed = this.check(document);
    this.watched.add(uri.toString());
    return { ...parsed, document };
  }

  problemsOf(uri: vscode.Uri): readonly vscode.Diagnostic[] {
    return this.collection.get(uri) ?? [];
  }

  dispose(): void {
    for (const timer of this.pending.values()) clearTimeout(timer);
    for (const subscription of this.subscriptions) subscription.dispose();
    this.collection.dispose();
  }

  private check(document: vscode.TextDocument) {
    const parsed = parseTrajectoryFile(document.getText(), formatForFileName(document.fileName));
    this.collection.set(document.uri, parsed.problems.map(toDiagnostic));
    return parsed;
  }

  private scheduleCheck(document: vscode.TextDocument): void {
    const key = document.uri.toString();
    if (!this.watched.has(key)) return;
    const previous = this.pending.get(key);
    if (previous) clearTimeout(previous);
    this.pending.set(key, setTimeout(() => {
      this.pending.delete(key);
      if (this.watched.has(key)) this.check(document);
    }, 300));
  }

  private forget(uri: vscode.Uri): void {
    const key = uri.toString();
    this.watched.delete(key);
    this.collection.delete(uri);
  }
}

function toDiagnostic(problem: SourceProblem): vscode.Diagnostic {
  const range = new vscode.Range(problem.line, problem.column, problem.endLine, Math.max(problem.endColumn, problem.column + (problem.endLine === problem.line ? 1 : 0)));
  const diagnostic = new vscode.Diagnostic(range, problem.message, problem.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning);
  diagnostic.source = 'RL Studio';
  return diagnostic;
}
