import * as vscode from 'vscode';
import type { Services } from '../services';
import { ReceiverController } from '../webhooks/receiverController';
import { registerReceiverCommands } from '../webhooks/receiverCommands';
import { ReportDocuments, reportScheme } from '../webhooks/reportDocuments';
import { registerSendTest } from '../webhooks/sendTestCommand';
import { registerWebhookCommands } from '../webhooks/webhookCommands';
import { WebhooksTreeProvider } from '../webhooks/webhooksTree';
import { WebhookStore } from '../webhooks/webhookStore';
import { PayloadCodeLensProvider } from './payloadCodeLens';
import { registerPayloadCommands } from './payloadCommands';
import { PayloadCompletionProvider } from './completionProvider';
import { PayloadDiagnostics } from './payloadDiagnostics';
import { PayloadDocuments } from './payloadDocuments';
import { PayloadHoverProvider } from './hoverProvider';
import { MetadataKeyIndex } from './metadataKeyIndex';
import { PayloadPreview, previewScheme } from './payloadPreview';
import { PayloadQuickFixes } from './quickFixes';
import { SampleEvents } from './sampleEvents';
import { payloadSelector } from './selector';
import { WebhookChoice } from './webhookChoice';
import { WebhookLanguageStatus } from './webhookStatus';

/**
 * Webhook payload authoring and webhooks: completion, hover, diagnostics, quick fixes, code lens
 * and preview for payload and automation files; the Webhooks view, test sends and the local receiver.
 * Nothing here reads files or opens sockets until the user works with a payload or a webhook.
 */
export function registerPayloadFeatures(services: Services): void {
  const { context } = services;
  const store = new WebhookStore(context.globalState, context.secrets, (value) => services.log.addSecret(value));
  const choice = new WebhookChoice(context.workspaceState, store);
  const samples = new SampleEvents(context.workspaceState);
  const metadataKeys = new MetadataKeyIndex();
  const documents = new PayloadDocuments(choice, samples, metadataKeys);
  const diagnostics = new PayloadDiagnostics(documents);
  const codeLenses = new PayloadCodeLensProvider(documents);
  const preview = new PayloadPreview(documents);
  const reports = new ReportDocuments();
  const receiver = new ReceiverController();
  const tree = new WebhooksTreeProvider(store, receiver);
  const status = new WebhookLanguageStatus(documents);
  context.subscriptions.push(store, choice, samples, metadataKeys, documents, diagnostics, codeLenses, preview, reports, receiver, tree, status);

  context.subscriptions.push(
    vscode.languages.registerCompletionItemProvider(payloadSelector, new PayloadCompletionProvider(documents), '{', '.'),
    vscode.languages.registerHoverProvider(payloadSelector, new PayloadHoverProvider(documents)),
    vscode.languages.registerCodeActionsProvider(payloadSelector, new PayloadQuickFixes(diagnostics), PayloadQuickFixes.metadata()),
    vscode.languages.registerCodeLensProvider(payloadSelector, codeLenses),
    vscode.workspace.registerTextDocumentContentProvider(previewScheme, preview),
    vscode.workspace.registerTextDocumentContentProvider(reportScheme, reports),
    vscode.window.createTreeView('rlStudio.webhooks', { treeDataProvider: tree }),
  );

  // What the features depend on besides the text: refresh everything that shows it.
  const refresh = (): void => {
    diagnostics.refreshAll();
    codeLenses.refresh();
    preview.refreshAll();
    status.update();
  };
  context.subscriptions.push(store.onDidChange(refresh), choice.onDidChange(refresh), samples.onDidChange(refresh));
  status.update();
  void vscode.commands.executeCommand('setContext', 'rlStudio.hasWebhooks', store.list().length > 0);

  registerPayloadCommands(services, documents, preview, store);
  registerWebhookCommands(services, store);
  registerSendTest(services, store, documents, reports);
  registerReceiverCommands(services, receiver, store);
  services.registerCommand('rlStudio.webhook.refresh', () => tree.refresh());
}
