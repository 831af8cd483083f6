import * as vscode from 'vscode';
import type { PayloadAnalysis, WebhookSecretNames } from '../../model/payload';
import { findWebhook, type Webhook } from '../../model/model';
import type { WebhookStore } from '../webhookStore';

const choiceKey = 'rlStudio.payload.webhookByFile';

/**
 * Which webhook a document is written for: a payload file's choice is remembered per file in the
 * workspace; an automation names its webhook in its `webhook` field.
 */
export class WebhookChoice implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly state: vscode.Memento,
    private readonly store: WebhookStore,
  ) {}

  /** The webhook of the document, or undefined when none is chosen or the named one is not set up here. */
  webhookFor(document: vscode.TextDocument, analysis: PayloadAnalysis): Webhook | undefined {
    if (analysis.kind === 'automation') {
      const name = analysis.automation?.webhook?.value;
      return name ? findWebhook(this.store.list(), name, analysis.automation?.team?.value) : undefined;
    }
    const id = this.choices()[document.uri.toString()];
    return id ? this.store.get(id) : undefined;
  }

  secretNamesFor(document: vscode.TextDocument, analysis: PayloadAnalysis): WebhookSecretNames | undefined {
    const webhook = this.webhookFor(document, analysis);
    if (!webhook) return undefined;
    const names: WebhookSecretNames = { name: webhook.name, hasAccessToken: webhook.hasAccessToken };
    if (webhook.secretName) names.secretName = webhook.secretName;
    return names;
  }

  async choose(uri: vscode.Uri, webhookId: string | undefined): Promise<void> {
    const choices = { ...this.choices() };
    if (webhookId) choices[uri.toString()] = webhookId;
    else delete choices[uri.toString()];
    await this.state.update(choiceKey, choices);
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }

  private choices(): Record<string, string> {
    return this.state.get<Record<string, string>>(choiceKey, {});
  }
}
