import * as vscode from 'vscode';
import { KeyedDebounce } from '../../../platform/kit/debounce';
import { checkTrajectoryFile, formatForFileName, tooLargeToRead, type ParsedTrajectoryFile, type SourceProblem } from '../../../platform/kit/trajectoryFile';
import { maxTrajectoryFileSize } from '../../../platform/kit/trajectoryLimits';
import { FileSnapshot } from '../../../platform/host/fileSnapshot';
import { parquetBytesSource } from '../../../platform/parquet/parquetFile';
import { parquetTrajectoryGroups } from '../../../platform/parquet/trajectoryGroups';

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
   * Parses and checks a file and shows its problems: the editor's text when it has unsaved edits,
   * else the file's bytes on disk (an open editor may not have caught up with a change on disk yet).
   * `snapshot` keeps what was read, so a confirmation can tell later whether the file still holds it.
   */
  async read(uri: vscode.Uri): Promise<ParsedTrajectoryFile & { snapshot?: FileSnapshot }> {
    const key = uri.toString();
    this.watched.add(key);
    const format = formatForFileName(uri.path);
    const open = vscode.workspace.textDocuments.find((document) => document.uri.toString() === key);
    if (open?.isDirty && format !== 'parquet') {
      const text = open.getText();
      return { ...(await this.check(uri, text)), snapshot: await FileSnapshot.ofEditor(open, text) };
    }
    // Sized before it is read, and again once read: it may have grown in between.
    const { size } = await vscode.workspace.fs.stat(uri);
    if (size > maxTrajectoryFileSize) return this.refuse(uri, size);
    const bytes = await vscode.workspace.fs.readFile(uri);
    if (bytes.byteLength > maxTrajectoryFileSize) return this.refuse(uri, bytes.byteLength);
    // A Parquet log has no text to show problems in: its groups are read from the very bytes the snapshot keeps.
    if (format === 'parquet') return { ...(await parquetTrajectoryGroups(parquetBytesSource(bytes))), snapshot: FileSnapshot.ofBytes(uri, bytes) };
    return { ...(await this.check(uri, new TextDecoder().decode(bytes))), snapshot: FileSnapshot.ofBytes(uri, bytes) };
  }

  private refuse(uri: vscode.Uri, size: number): ParsedTrajectoryFile {
    const refused = tooLargeToRead(size);
    this.latestCheck.set(uri.toString(), ++this.checks);
    this.collection.set(uri, refused.problems.map(toDiagnostic));
    return refused;
  }

  problemsOf(uri: vscode.Uri): readonly vscode.Diagnostic[] {
    return this.collection.get(uri) ?? [];
  }

  dispose(): void {
    this.pending.dispose();
    for (const subscription of this.subscriptions) subscription.dispose();
    this.collection.dispose();
  }

  private async check(uri: vscode.Uri, text: string): Promise<ParsedTrajectoryFile> {
    const key = uri.toString();
    const check = ++this.checks;
    this.latestCheck.set(key, check);
    const format = formatForFileName(uri.path);
    // A Parquet file is never checked as text (a text editor of one shows no problems of its groups).
    if (format === 'parquet') return { groups: [], problems: [], ok: false };
    const parsed = await checkTrajectoryFile(text, format);
    if (this.latestCheck.get(key) === check && this.watched.has(key)) this.collection.set(uri, parsed.problems.map(toDiagnostic));
    return parsed;
  }

  private scheduleCheck(document: vscode.TextDocument): void {
    const key = document.uri.toString();
    if (!this.watched.has(key)) return;
    this.pending.schedule(key, checkDelayMs, () => {
      if (this.watched.has(key)) void this.check(document.uri, document.getText());
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
