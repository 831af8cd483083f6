import * as vscode from 'vscode';
import type { PayloadAnalysis } from '../../model/payload';
import { payloadCore } from './payloadCore';
import type { PayloadDocuments } from './payloadDocuments';

/**
 * One line of actions at the top of a payload or automation: which webhook it is written for (and
 * so which secrets exist), the sample event, the preview and the test send.
 */
export class PayloadCodeLensProvider implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;

  constructor(private readonly documents: PayloadDocuments) {}

  refresh(): void {
    this.changed.fire();
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const analysis = this.documents.analysisOf(document);
    if (!analysis) return [];
    const top = new vscode.Range(0, 0, 0, 0);
    const lenses = [this.webhookLens(document, analysis, top)];
    const type = this.documents.samples.typeFor(document, analysis);
    if (analysis.kind === 'payload') {
      lenses.push(
        new vscode.CodeLens(top, {
          title: `$(symbol-event) Sample: ${type}`,
          tooltip: `Variables are explained and previewed with a sample event: ${payloadCore().describeEvent(type).title.toLowerCase()}. Click to choose another event type.`,
          command: 'rlStudio.payload.chooseSampleEvent',
          arguments: [document.uri],
        }),
      );
    }
    lenses.push(
      new vscode.CodeLens(top, {
        title: '$(edit) Sample values',
        tooltip: 'Edit the values the sample event gives the variables',
        command: 'rlStudio.payload.editSampleEvent',
        arguments: [document.uri],
      }),
      new vscode.CodeLens(top, { title: '$(open-preview) Preview', tooltip: 'Render with the sample event, secrets masked', command: 'rlStudio.payload.preview', arguments: [document.uri] }),
      new vscode.CodeLens(top, {
        title: '$(send) Send test',
        tooltip: 'POST the rendered payload to the webhook, signed, and show the answer',
        command: 'rlStudio.webhook.sendTest',
        arguments: [document.uri],
      }),
    );
    if (analysis.kind === 'payload' && !analysis.limit && analysis.text.trim() === '') {
      lenses.unshift(new vscode.CodeLens(top, { title: '$(file-code) Insert template…', command: 'rlStudio.payload.insertTemplate', arguments: [document.uri] }));
    }
    return lenses;
  }

  dispose(): void {
    this.changed.dispose();
  }

  private webhookLens(document: vscode.TextDocument, analysis: PayloadAnalysis, top: vscode.Range): vscode.CodeLens {
    const webhook = this.documents.webhooks.webhookFor(document, analysis);
    if (analysis.kind === 'automation') {
      const named = analysis.automation?.webhook?.value;
      if (webhook) {
        return new vscode.CodeLens(top, {
          title: `$(plug) Webhook: ${webhook.name}`,
          tooltip: secretsTooltip(webhook.hasAccessToken, webhook.secretName),
          command: 'rlStudio.webhook.edit',
          arguments: [webhook.id],
        });
      }
      if (named) {
        return new vscode.CodeLens(top, {
          title: `$(warning) Webhook "${named}" is not set up in RL Studio: secrets are not checked`,
          tooltip: 'Add the webhook so its secrets can be checked and test sends can use it.',
          command: 'rlStudio.webhook.add',
          arguments: [{ name: named, team: analysis.automation?.team?.value }],
        });
      }
      return new vscode.CodeLens(top, { title: '$(plug) No webhook named', tooltip: 'Name the webhook in the "webhook" field.', command: '' });
    }
    if (webhook) {
      return new vscode.CodeLens(top, {
        title: `$(plug) Webhook: ${webhook.name}`,
        tooltip: `${secretsTooltip(webhook.hasAccessToken, webhook.secretName)}\nClick to choose another.`,
        command: 'rlStudio.payload.chooseWebhook',
        arguments: [document.uri],
      });
    }
    return new vscode.CodeLens(top, {
      title: '$(plug) Choose webhook…',
      tooltip: 'Choose the webhook this payload is for, so its secrets are completed and checked.',
      command: 'rlStudio.payload.chooseWebhook',
      arguments: [document.uri],
    });
  }
}

function secretsTooltip(hasAccessToken: boolean, secretName: string | undefined): string {
  const available = [...(hasAccessToken ? ['${ACCESS_TOKEN}'] : []), ...(secretName ? [`\${${secretName}}`] : [])];
  return available.length > 0 ? `Secrets this webhook gives payloads: ${available.join(', ')}.` : 'This webhook has no access token and no secret.';
}
