import type * as vscode from 'vscode';

/** Whether a document is an eval set: `*.evalset.jsonl`. */
export function isEvalSetDocument(document: vscode.TextDocument): boolean {
  return /\.evalset\.jsonl$/i.test(document.uri.path);
}
