import * as vscode from 'vscode';
import { DeferredCommands } from '../platform/lazy/deferredCommands';
import { DeferredTreeProvider } from '../platform/lazy/deferredTreeProvider';
import { onFirstUse } from '../platform/lazy/onFirstUse';
import { RelayedEvent } from '../platform/lazy/relayedEvent';
import type { Services } from '../platform/services';
import { reportScheme } from '../webhooks/reportDocuments';
import type { WebhookNode } from '../webhooks/webhooksTree';
import { WebhookStore } from '../webhooks/webhookStore';
import { previewScheme } from './payloadPreview';
import type * as PayloadFeature from './payloadLanguageFeature';
import { PayloadQuickFixes } from './quickFixes';
import { payloadKindOf, payloadSelector } from './selector';

/** The commands payloadFeature.ts registers. */
const payloadCommands = [
  'rlStudio.payload.chooseWebhook',
  'rlStudio.payload.preview',
  'rlStudio.payload.chooseSampleEvent',
  'rlStudio.payload.editSampleEvent',
  'rlStudio.payload.newFromTemplate',
  'rlStudio.payload.insertTemplate',
  'rlStudio.webhook.add',
  'rlStudio.webhook.edit',
  'rlStudio.webhook.remove',
  'rlStudio.webhook.setAccessToken',
  'rlStudio.webhook.removeAccessToken',
  'rlStudio.webhook.setSecret',
  'rlStudio.webhook.removeSecret',
  'rlStudio.webhook.copyUrl',
  'rlStudio.webhook.sendTest',
  'rlStudio.webhook.refresh',
  'rlStudio.webhook.startReceiver',
  'rlStudio.webhook.stopReceiver',
  'rlStudio.webhook.showReceiver',
] as const;

/**
 * Webhook payload authoring and webhooks: completion, hover, diagnostics, quick fixes, code lens
 * and preview for payload and automation files; the Webhooks view, test sends and the local receiver.
 * Activation registers the providers, the view and the commands; what serves them (dist/payload.js)
 * loads when a payload or automation file is open, since its diagnostics appear unasked, or on the
 * first request, view content or command. Nothing reads files or opens sockets before that.
 */
export function registerPayloadFeatures(services: Services): void {
  const { context } = services;
  // Every URL, token and secret the store reads or is given is masked in the log from then on.
  const store = new WebhookStore(context.globalState, context.secrets, (value) => services.log.addSecret(value));
  const codeLensesChanged = new RelayedEvent<void>();
  const previewChanged = new RelayedEvent<vscode.Uri>();
  const reportsChanged = new RelayedEvent<vscode.Uri>();
  const openedPayloads = vscode.workspace.onDidOpenTextDocument((document) => {
    if (payloadKindOf(document)) payload();
  });
  const payload = onFirstUse('payload', services.log, () => {
    openedPayloads.dispose();
    const feature = (require('./payloadLanguageFeature') as typeof PayloadFeature).startPayload(commands.servicesForFeature(), store);
    codeLensesChanged.connect(feature.codeLenses.onDidChangeCodeLenses);
    previewChanged.connect(feature.preview.onDidChange);
    reportsChanged.connect(feature.reports.onDidChange);
    tree.attach(feature.tree);
    return feature;
  });
  const commands = new DeferredCommands(services, payloadCommands, payload);
  const tree = new DeferredTreeProvider<WebhookNode>(payload);
  context.subscriptions.push(store, codeLensesChanged, previewChanged, reportsChanged, openedPayloads, tree);

  context.subscriptions.push(
    vscode.languages.registerCompletionItemProvider(
      payloadSelector,
      { provideCompletionItems: (document, position) => payload().completion.provideCompletionItems(document, position) },
      '{',
      '.',
    ),
    vscode.languages.registerHoverProvider(payloadSelector, {
      provideHover: (document, position) => payload().hover.provideHover(document, position),
    }),
    vscode.languages.registerCodeActionsProvider(
      payloadSelector,
      { provideCodeActions: (document, range, actionContext) => payload().quickFixes.provideCodeActions(document, range, actionContext) },
      PayloadQuickFixes.metadata(),
    ),
    vscode.languages.registerCodeLensProvider(payloadSelector, {
      onDidChangeCodeLenses: codeLensesChanged.event,
      provideCodeLenses: (document) => payload().codeLenses.provideCodeLenses(document),
    }),
    vscode.workspace.registerTextDocumentContentProvider(previewScheme, {
      onDidChange: previewChanged.event,
      provideTextDocumentContent: (uri) => payload().preview.provideTextDocumentContent(uri),
    }),
    vscode.workspace.registerTextDocumentContentProvider(reportScheme, {
      onDidChange: reportsChanged.event,
      provideTextDocumentContent: (uri) => payload().reports.provideTextDocumentContent(uri),
    }),
    vscode.window.createTreeView('rlStudio.webhooks', { treeDataProvider: tree }),
  );

  void vscode.commands.executeCommand('setContext', 'rlStudio.hasWebhooks', store.list().length > 0);
  for (const document of vscode.workspace.textDocuments) {
    if (payloadKindOf(document)) {
      payload();
      break;
    }
  }
}
