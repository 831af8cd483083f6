import type { PayloadDocuments } from './host/payload/payloadDocuments';
import type { Services } from '../platform/host/services';
import { ReceiverController } from './host/receiverController';
import { registerReceiverCommands } from './host/receiverCommands';
import { ReportDocuments } from './host/reportDocuments';
import { registerSendTest } from './host/sendTestCommand';
import { registerWebhookCommands } from './host/webhookCommands';
import { WebhooksTreeProvider } from './host/webhooksTree';
import type { WebhookStore } from './host/webhookStore';

/** What the view and the report documents that activation.ts registered hand their requests to. */
export interface WebhooksFeature {
  tree: WebhooksTreeProvider;
  reports: ReportDocuments;
}

/**
 * Entry of dist/webhooks.js, loaded when the Webhooks view first shows its content, a test report
 * is read or a webhook command first runs: the view, the webhook commands, test sends and the
 * local receiver. `payloadDocuments` loads the payload language, which a test send renders the
 * payload with, when the first test is sent.
 */
export function startWebhooks(services: Services, store: WebhookStore, payloadDocuments: () => PayloadDocuments): WebhooksFeature {
  const reports = new ReportDocuments();
  const receiver = new ReceiverController();
  const tree = new WebhooksTreeProvider(store, receiver);
  services.context.subscriptions.push(reports, receiver, tree);

  registerWebhookCommands(services, store);
  registerSendTest(services, store, payloadDocuments, reports);
  registerReceiverCommands(services, receiver, store);
  services.registerCommand('rlStudio.webhook.refresh', () => tree.refresh());

  return { tree, reports };
}

export { startPayloadLanguage, type PayloadLanguageFeature } from './host/payload/payloadLanguageFeature';
export { renderPayloadTool, sendWebhookTestTool, type PayloadParts } from './host/tools/webhookTools';
export { sendTemplate, type TemplateSend, type TemplateSendOutcome } from './host/templateSend';
export type { WebhookStore } from './host/webhookStore';
export type { Webhook } from './model/model';
