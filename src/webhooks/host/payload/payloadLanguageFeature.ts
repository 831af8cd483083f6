import type { Services } from '../../../platform/host/services';
import type { WebhookStore } from '../webhookStore';
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

/** What the providers payloadLanguageActivation.ts registered hand their requests to. */
export interface PayloadLanguageFeature {
  completion: PayloadCompletionProvider;
  hover: PayloadHoverProvider;
  quickFixes: PayloadQuickFixes;
  codeLenses: PayloadCodeLensProvider;
  preview: PayloadPreview;
  /** Each open payload's analysis, webhook and sample event (test sends render with them). */
  documents: PayloadDocuments;
}

/**
 * Part of dist/webhooks.js (exported by its index.ts), set up when a payload or automation file is open, or a payload
 * request or command first comes: analysis, diagnostics, completion, hover, quick fixes, code
 * lenses, the preview and the payload commands. `store` is the user's webhooks, which a payload is
 * written for.
 */
export function startPayloadLanguage(services: Services, store: WebhookStore): PayloadLanguageFeature {
  const { context } = services;
  const choice = new WebhookChoice(context.workspaceState, store);
  const samples = new SampleEvents(context.workspaceState);
  const metadataKeys = new MetadataKeyIndex();
  const documents = new PayloadDocuments(choice, samples, metadataKeys);
  const diagnostics = new PayloadDiagnostics(documents);
  const codeLenses = new PayloadCodeLensProvider(documents);
  const preview = new PayloadPreview(documents);
  const status = new WebhookLanguageStatus(documents);
  context.subscriptions.push(choice, samples, metadataKeys, documents, diagnostics, codeLenses, preview, status);

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

  return {
    completion: new PayloadCompletionProvider(documents),
    hover: new PayloadHoverProvider(documents),
    quickFixes: new PayloadQuickFixes(diagnostics),
    codeLenses,
    preview,
    documents,
  };
}
