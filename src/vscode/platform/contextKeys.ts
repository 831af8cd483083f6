import * as vscode from 'vscode';

/** Context keys that drive welcome views, menus and command enablement (see package.json `when` clauses). */
export const ContextKeys = {
  configured: 'rlStudio.configured',
  signedIn: 'rlStudio.signedIn',
} as const;

export function setContext(key: string, value: unknown): void {
  void vscode.commands.executeCommand('setContext', key, value);
}
