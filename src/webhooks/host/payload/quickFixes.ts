import * as vscode from 'vscode';
import { diagnosticSource, type PayloadDiagnostics } from './payloadDiagnostics';
import { toRange } from './payloadDocuments';

/** "Did you mean" and the other replacements the core attaches to a diagnostic, as quick fixes. */
export class PayloadQuickFixes implements vscode.CodeActionProvider {
  static metadata(): vscode.CodeActionProviderMetadata {
    return { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] };
  }

  constructor(private readonly diagnostics: PayloadDiagnostics) {}

  provideCodeActions(document: vscode.TextDocument, range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    if (!context.diagnostics.some((diagnostic) => diagnostic.source === diagnosticSource)) return [];
    const actions: vscode.CodeAction[] = [];
    // Recomputed from the core (cached per version): diagnostics that come back here are copies
    // without the replacements.
    for (const diagnostic of this.diagnostics.diagnosticsOf(document)) {
      if (!diagnostic.fixes?.length) continue;
      const target = toRange(document, diagnostic.start, diagnostic.end);
      if (!target.intersection(range)) continue;
      const shown = context.diagnostics.find((candidate) => candidate.source === diagnosticSource && candidate.range.isEqual(target) && candidate.code === diagnostic.code);
      diagnostic.fixes.forEach((replacement, index) => {
        const action = new vscode.CodeAction(`Change to '${replacement}'`, vscode.CodeActionKind.QuickFix);
        action.edit = new vscode.WorkspaceEdit();
        action.edit.replace(document.uri, target, replacement);
        if (shown) action.diagnostics = [shown];
        action.isPreferred = index === 0;
        actions.push(action);
      });
    }
    return actions;
  }
}
