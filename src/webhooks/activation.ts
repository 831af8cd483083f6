import * as vscode from 'vscode';
import type { PayloadLanguageFeature } from './host/payload/payloadLanguageActivation';
import { DeferredTreeProvider } from '../platform/host/lazy/deferredTreeProvider';
import { onFirstUse } from '../platform/host/lazy/onFirstUse';
import { RelayedEvent } from '../platform/host/lazy/relayedEvent';
import type { Services } from '../platform/host/services';
import { reportScheme } from './host/reportDocuments';
import type { WebhookNode } from './host/webhooksTree';
import type * as Webhooks from '.';
import { WebhookStore } from './host/webhookStore';

/**
 * The user's team webhooks, read by the payload language (which webhook a payload is written for)
 * and the Webhooks view. Opened at activation: every URL, token and secret the store reads or is
 * given is masked in the log from then on.
 */
export function openWebhookStore(services: Services): WebhookStore {
  const { context } = services;
  const store = new WebhookStore(context.globalState, context.secrets, (value) => services.log.addSecret(value));
  context.subscriptions.push(store);
  void vscode.commands.executeCommand('setContext', 'rlStudio.hasWebhooks', store.list().length > 0);
  return store;
}

/**
 * Webhooks: the Webhooks view, its commands, test sends (and the documents that show their
 * reports) and the local receiver. Activation registers the view, the report documents and the
 * commands; what serves them (dist/webhooks.js) loads when the view first shows its content, a
 * report is read or a command first runs. Nothing opens a socket before that. A test send renders
 * the payload with the payload language, which it loads then.
 */
export function registerWebhooks(services: Services, store: WebhookStore, payloadLanguage: () => PayloadLanguageFeature): () => Webhooks.WebhooksFeature {
  const reportsChanged = new RelayedEvent<vscode.Uri>();
  const webhooks = onFirstUse('webhooks', services.log, () => {
    const feature = (require('.') as typeof Webhooks).startWebhooks(services, store, () => payloadLanguage().documents);
    reportsChanged.connect(feature.reports.onDidChange);
    tree.attach(feature.tree);
    return feature;
  });
  services.registerFeatureCommands('webhooks', webhooks);
  const tree = new DeferredTreeProvider<WebhookNode>(webhooks);
  services.context.subscriptions.push(
    reportsChanged,
    tree,
    vscode.workspace.registerTextDocumentContentProvider(reportScheme, {
      onDidChange: reportsChanged.event,
      provideTextDocumentContent: (uri) => webhooks().reports.provideTextDocumentContent(uri),
    }),
    vscode.window.createTreeView('rlStudio.webhooks', { treeDataProvider: tree }),
  );
  return webhooks;
}
