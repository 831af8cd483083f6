import * as vscode from 'vscode';
import { onFirstUse } from '../../../platform/host/lazy/onFirstUse';
import { RelayedEvent } from '../../../platform/host/lazy/relayedEvent';
import type { Services } from '../../../platform/host/services';
import type { WebhookStore } from '../webhookStore';
import { previewScheme } from './payloadPreview';
import type * as PayloadLanguage from '../..';
import { PayloadQuickFixes } from './quickFixes';
import { payloadKindOf, payloadSelector } from './selector';

export type { PayloadLanguageFeature } from './payloadLanguageFeature';

/**
 * Webhook payload authoring: completion, hover, diagnostics, quick fixes, code lenses, the preview
 * and the payload commands, for payload and automation files. Activation registers the providers
 * and the commands; what serves them (in dist/webhooks.js) is set up when a payload or automation
 * file is open, since its diagnostics appear unasked, or on the first request or command. Nothing
 * reads files before that. Returns that loader (test sends analyse payloads with it).
 */
export function registerPayloadLanguage(services: Services, store: WebhookStore): () => PayloadLanguage.PayloadLanguageFeature {
  const { context } = services;
  const codeLensesChanged = new RelayedEvent<void>();
  const previewChanged = new RelayedEvent<vscode.Uri>();
  const openedPayloads = vscode.workspace.onDidOpenTextDocument((document) => {
    if (payloadKindOf(document)) payloadLanguage();
  });
  const payloadLanguage = onFirstUse('payload language', services.log, () => {
    openedPayloads.dispose();
    const feature = (require('../..') as typeof PayloadLanguage).startPayloadLanguage(services, store);
    codeLensesChanged.connect(feature.codeLenses.onDidChangeCodeLenses);
    previewChanged.connect(feature.preview.onDidChange);
    return feature;
  });
  services.registerFeatureCommands('payloadLanguage', payloadLanguage);
  context.subscriptions.push(codeLensesChanged, previewChanged, openedPayloads);

  context.subscriptions.push(
    vscode.languages.registerCompletionItemProvider(
      payloadSelector,
      { provideCompletionItems: (document, position) => payloadLanguage().completion.provideCompletionItems(document, position) },
      '{',
      '.',
    ),
    vscode.languages.registerHoverProvider(payloadSelector, {
      provideHover: (document, position) => payloadLanguage().hover.provideHover(document, position),
    }),
    vscode.languages.registerCodeActionsProvider(
      payloadSelector,
      { provideCodeActions: (document, range, actionContext) => payloadLanguage().quickFixes.provideCodeActions(document, range, actionContext) },
      PayloadQuickFixes.metadata(),
    ),
    vscode.languages.registerCodeLensProvider(payloadSelector, {
      onDidChangeCodeLenses: codeLensesChanged.event,
      provideCodeLenses: (document) => payloadLanguage().codeLenses.provideCodeLenses(document),
    }),
    vscode.workspace.registerTextDocumentContentProvider(previewScheme, {
      onDidChange: previewChanged.event,
      provideTextDocumentContent: (uri) => payloadLanguage().preview.provideTextDocumentContent(uri),
    }),
  );

  for (const document of vscode.workspace.textDocuments) {
    if (payloadKindOf(document)) {
      payloadLanguage();
      break;
    }
  }
  return payloadLanguage;
}
