import * as vscode from 'vscode';
import type { PayloadDocuments } from './payloadDocuments';
import { payloadKindOf, payloadSelector } from './selector';

/** The language status entry of a payload: which webhook it is checked against. Created on first use. */
export class WebhookLanguageStatus implements vscode.Disposable {
  private item: vscode.LanguageStatusItem | undefined;
  private readonly subscription = vscode.window.onDidChangeActiveTextEditor(() => this.update());

  constructor(private readonly documents: PayloadDocuments) {}

  update(): void {
    const document = vscode.window.activeTextEditor?.document;
    const analysis = document && payloadKindOf(document) ? this.documents.analysisOf(document) : undefined;
    if (!document || !analysis) return;
    const item = (this.item ??= this.create());
    const webhook = this.documents.webhooks.webhookFor(document, analysis);
    item.text = webhook ? `Webhook: ${webhook.name}` : 'No webhook chosen';
    item.detail = webhook ? 'secret references are checked against it' : 'secret references are not checked';
    item.command = analysis.kind === 'payload' ? { command: 'rlStudio.payload.chooseWebhook', title: 'Choose', arguments: [document.uri] } : undefined;
  }

  dispose(): void {
    this.subscription.dispose();
    this.item?.dispose();
  }

  private create(): vscode.LanguageStatusItem {
    const item = vscode.languages.createLanguageStatusItem('rlStudio.payload.webhook', payloadSelector);
    item.name = 'Payload webhook';
    return item;
  }
}
