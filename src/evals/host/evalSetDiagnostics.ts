import * as vscode from 'vscode';
import { KeyedDebounce } from '../../platform/kit/debounce';
import { parseEvalSet } from '../model/evalSet';
import { isEvalSetDocument } from './evalSetFileNames';

/** Edits are checked once typing pauses this long. */
const checkDelayMs = 300;

/**
 * Problems of eval set files where they are, as for the other files RL Studio reads: a line that is
 * not JSON, a sample without `messages`, a message of the wrong shape. Checked when the file opens
 * and again when typing pauses; cleared when it closes.
 */
export class EvalSetDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('RL Studio eval sets');
  private readonly pending = new KeyedDebounce<string>();
  private readonly subscriptions: vscode.Disposable[];

  constructor() {
    this.subscriptions = [
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (isEvalSetDocument(event.document)) this.pending.schedule(event.document.uri.toString(), checkDelayMs, () => this.check(event.document));
      }),
      vscode.workspace.onDidCloseTextDocument((document) => this.collection.delete(document.uri)),
    ];
  }

  check(document: vscode.TextDocument): void {
    if (!isEvalSetDocument(document) || document.isClosed) return;
    const { problems } = parseEvalSet(document.getText());
    this.collection.set(
      document.uri,
      problems.map((problem) => {
        const line = Math.min(problem.line, Math.max(0, document.lineCount - 1));
        const diagnostic = new vscode.Diagnostic(document.lineAt(line).range, problem.message, vscode.DiagnosticSeverity.Error);
        diagnostic.source = 'RL Studio';
        return diagnostic;
      }),
    );
  }

  dispose(): void {
    this.pending.dispose();
    for (const subscription of this.subscriptions) subscription.dispose();
    this.collection.dispose();
  }
}
