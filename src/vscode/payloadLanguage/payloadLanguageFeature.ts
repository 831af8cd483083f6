import type { Services } from '../platform/services';
import { ReceiverController } from '../webhooks/receiverController';
import { registerReceiverCommands } from '../webhooks/receiverCommands';
import { ReportDocuments } from '../webhooks/reportDocuments';
import { registerSendTest } from '../webhooks/sendTestCommand';
import { registerWebhookCommands } from '../webhooks/webhookCommands';
import { WebhooksTreeProvider } from '../webhooks/webhooksTree';
import type { WebhookStore } from '../webhooks/webhookStore';
import { PayloadCodeLensProvider } from './payloadCodeLens';
import { registerPayloadCommands } from './payloadCommands';
import { PayloadCompletionProvider } from './completionProvider';
import { PayloadDiagnostics } from './payloadDiagnostics';
import { PayloadDocuments } from './payloadDocuments';
import { PayloadHoverProvider } from './hoverProvider';
import { MetadataKeyIndex } from './metadataKeyIndex';
import { PayloadPreview } from './payloadPreview';
import { PayloadQuickFixes } from './quickFixes';
import { SampleEvents } from './sampleEvents';
import { WebhookChoice } from './webhookChoice';
import { WebhookLanguageStatus } from './webhookStatus';

/** The providers register.ts registered at activation hand their requests to. */
export interface PayloadFeature {
  completion: PayloadCompletionProvider;
  hover: PayloadHoverProvider;
  quickFixes: PayloadQuickFixes;
  codeLenses: PayloadCodeLensProvider;
  preview: PayloadPreview;
  reports: ReportDocuments;
  tree: WebhooksTreeProvider;
}

/**
 * Entry of dist/payload.js, loaded when a payload or automation file is open, the Webhooks view
 * first shows its content, or a payload or webhook command first runs: analysis, diagnostics,
 * completion, hover, quick fixes, code lenses, the preview, test sends and the local receiver.
 */
export function startPayload(services: Services, store: WebhookStore): PayloadFeature {
  const { context } = services;
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
  context.subscriptions.push(choice, samples, metadataKeys, documents, diagnostics, codeLenses, preview, reports, receiver, tree, status);

  // What the features depend on besides the text: refresh everything that shows it.
  const refresh = (): void => {
    diagnostics.refreshAll();
    codeLenses.refresh();
    preview.refreshAll();
    status.update();
  };
  context.subscriptions.push(store.onDidChange(refresh), choice.onDidChange(refresh), samples.onDidChange(refresh));
  status.update();

  registerPayloadCommands(services, documents, preview, store);
  registerWebhookCommands(services, store);
  registerSendTest(services, store, documents, reports);
  registerReceiverCommands(services, receiver, store);
  services.registerCommand('rlStudio.webhook.refresh', () => tree.refresh());

  return {
    completion: new PayloadCompletionProvider(documents),
    hover: new PayloadHoverProvider(documents),
    quickFixes: new PayloadQuickFixes(diagnostics),
    codeLenses,
    preview,
    reports,
    tree,
  };
}
