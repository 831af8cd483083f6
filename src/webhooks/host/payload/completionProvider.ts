import * as vscode from 'vscode';
import type { PayloadCompletionItem } from '../../model/payload';
import type { PayloadDocuments } from './payloadDocuments';

function kindOf(kind: PayloadCompletionItem['kind']): vscode.CompletionItemKind {
  switch (kind) {
    case 'variable':
      return vscode.CompletionItemKind.Variable;
    case 'metadata-prefix':
      return vscode.CompletionItemKind.Module;
    case 'metadata-key':
      return vscode.CompletionItemKind.Field;
    case 'secret':
      return vscode.CompletionItemKind.Constant;
  }
}

/** Adapts the core completion: plain-string insert texts (never snippets) over the name being typed. */
export class PayloadCompletionProvider implements vscode.CompletionItemProvider {
  constructor(private readonly documents: PayloadDocuments) {}

  provideCompletionItems(document: vscode.TextDocument, position: vscode.Position): vscode.CompletionList | undefined {
    const result = this.documents.completionsAt(document, document.offsetAt(position));
    if (!result) return undefined;
    const start = document.positionAt(result.replaceStart);
    const range = { inserting: new vscode.Range(start, position), replacing: new vscode.Range(start, document.positionAt(result.replaceEnd)) };
    const items = result.items.map((entry) => {
      // The description sits beside the name on every row; `detail` and the documentation show for the selected one.
      const item = new vscode.CompletionItem({ label: entry.label, description: entry.summary }, kindOf(entry.kind));
      item.insertText = entry.insertText;
      item.filterText = entry.label;
      item.range = range;
      item.detail = entry.detail;
      item.documentation = new vscode.MarkdownString(entry.documentation);
      item.sortText = entry.sortText;
      if (entry.retrigger) item.command = { command: 'editor.action.triggerSuggest', title: 'Suggest metadata keys' };
      return item;
    });
    return new vscode.CompletionList(items, false);
  }
}
