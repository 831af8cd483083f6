import * as vscode from 'vscode';
import { payloadCore } from './payloadCore';
import { toRange, type PayloadDocuments } from './payloadDocuments';

export class PayloadHoverProvider implements vscode.HoverProvider {
  constructor(private readonly documents: PayloadDocuments) {}

  provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const analysis = this.documents.analysisOf(document);
    if (!analysis) return undefined;
    const result = payloadCore().hover(analysis, document.offsetAt(position), this.documents.contextOf(document, analysis));
    if (!result) return undefined;
    return new vscode.Hover(new vscode.MarkdownString(result.markdown), toRange(document, result.start, result.end));
  }
}
