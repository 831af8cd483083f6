import * as vscode from 'vscode';
import { locateProblems } from '../../platform/kit/jsonProblemLocations';
import { parseTaskFile } from '../model/taskFile';
import { isTaskFile, taskFileStem } from './taskFileNames';

/** Task files checked while typing at most: a task is a page of JSON. */
const maxCheckedChars = 256 * 1024;

/** The problems of task files, each placed at the value it is about, as the file is opened and edited. */
export class TaskFileDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('rlStudio.taskFiles');

  check(document: vscode.TextDocument): void {
    if (!isTaskFile(document.uri)) return;
    const text = document.getText();
    if (text.length > maxCheckedChars) {
      this.collection.set(document.uri, [
        new vscode.Diagnostic(new vscode.Range(0, 0, 0, 1), `A task file is at most ${maxCheckedChars / 1024} KB: this one is not checked.`, vscode.DiagnosticSeverity.Error),
      ]);
      return;
    }
    const { problems } = parseTaskFile(text, taskFileStem(document.uri));
    const spans = locateProblems(
      text,
      problems.map((problem) => problem.path),
    );
    this.collection.set(
      document.uri,
      problems.map((problem, at) => {
        const span = spans[at]!;
        const diagnostic = new vscode.Diagnostic(
          new vscode.Range(document.positionAt(span.offset), document.positionAt(span.offset + span.length)),
          problem.message,
          problem.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning,
        );
        diagnostic.source = 'RL Studio';
        return diagnostic;
      }),
    );
  }

  forget(uri: vscode.Uri): void {
    this.collection.delete(uri);
  }

  dispose(): void {
    this.collection.dispose();
  }
}
