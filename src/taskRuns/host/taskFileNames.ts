import type * as vscode from 'vscode';

/** Whether a file is a task file: `*.rltask.json`. */
export function isTaskFile(uri: vscode.Uri): boolean {
  return /\.rltask\.json$/i.test(uri.path);
}

/** A task file's name without `.rltask.json`: the run's name when the task gives none. */
export function taskFileStem(uri: vscode.Uri): string {
  return (uri.path.split('/').at(-1) ?? '').replace(/\.rltask\.json$/i, '');
}
