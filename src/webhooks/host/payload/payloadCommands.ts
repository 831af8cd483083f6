import * as vscode from 'vscode';
import type { Dialogs } from '../../../platform/host/dialogs';
import type { Services } from '../../../platform/host/services';
import type { WebhookStore } from '../webhookStore';
import type { EventType, TemplateId } from '../../model/payload';
import { payloadCore } from './payloadCore';
import type { PayloadDocuments } from './payloadDocuments';
import type { PayloadPreview } from './payloadPreview';
import { payloadKindOf, payloadLanguageId } from './selector';

/** Commands on payload documents: webhook choice, sample event, preview and templates. */
export function registerPayloadCommands(services: Services, documents: PayloadDocuments, preview: PayloadPreview, store: WebhookStore): void {
  services.registerCommand('rlStudio.payload.chooseWebhook', async (target?: vscode.Uri, webhookId?: string) => {
    const document = await payloadDocument(target);
    if (documents.analysisOf(document)?.kind === 'automation') {
      services.dialogs.info('An automation names its webhook in its "webhook" field.');
      return undefined;
    }
    if (webhookId !== undefined) {
      await documents.webhooks.choose(document.uri, webhookId || undefined);
      return webhookId;
    }
    const webhooks = store.list();
    type Pick = vscode.QuickPickItem & { id?: string; add?: boolean };
    const current = documents.webhooks.webhookFor(document, documents.analysisOf(document)!);
    const picks: Pick[] = [
      ...webhooks.map((webhook) => ({
        label: webhook.name,
        description: webhook.id === current?.id ? 'chosen' : webhook.endpoint,
        detail: [webhook.hasAccessToken ? '${ACCESS_TOKEN}' : 'no access token', webhook.secretName ? `\${${webhook.secretName}}` : 'no secret'].join(' · '),
        id: webhook.id,
      })),
      { label: '$(add) Add a webhook…', add: true },
      ...(current ? [{ label: '$(close) No webhook', description: 'secret references are then not checked', id: '' }] : []),
    ];
    const picked = await services.dialogs.pick(picks, { title: 'Webhook for this payload', placeHolder: 'Its secrets are completed and checked in the payload' });
    if (!picked) return undefined;
    let id = picked.id;
    if (picked.add) id = await vscode.commands.executeCommand<string | undefined>('rlStudio.webhook.add');
    if (id === undefined) return undefined;
    await documents.webhooks.choose(document.uri, id || undefined);
    return id;
  });

  services.registerCommand('rlStudio.payload.preview', async (target?: vscode.Uri) => {
    const document = await payloadDocument(target);
    await preview.show(document.uri);
  });

  services.registerCommand('rlStudio.payload.chooseSampleEvent', async (target?: vscode.Uri, type?: EventType) => {
    const document = await payloadDocument(target);
    const analysis = documents.analysisOf(document)!;
    if (analysis.kind === 'automation') {
      services.dialogs.info('An automation is previewed with its own event type.');
      return;
    }
    const current = documents.samples.typeFor(document, analysis);
    const { describeEvent, eventTypes } = payloadCore();
    const chosen =
      type ??
      (
        await services.dialogs.pick(
          eventTypes.map((candidate) => ({
            label: candidate,
            description: candidate === current ? 'current' : describeEvent(candidate).category,
            detail: describeEvent(candidate).title,
            type: candidate,
          })),
          { title: 'Sample event for this payload' },
        )
      )?.type;
    if (chosen) await documents.samples.chooseType(document.uri, chosen);
  });

  services.registerCommand('rlStudio.payload.editSampleEvent', async (target?: vscode.Uri) => {
    const document = await payloadDocument(target);
    const type = documents.samples.typeFor(document, documents.analysisOf(document));
    await editSampleValues(services.dialogs, documents, type);
  });

  services.registerCommand('rlStudio.payload.newFromTemplate', async (id?: TemplateId) => {
    const template = id ?? (await pickTemplate(services.dialogs));
    if (!template) return undefined;
    const document = await vscode.workspace.openTextDocument({ language: payloadLanguageId, content: `${payloadCore().templateText(template)}\n` });
    await vscode.window.showTextDocument(document);
    return document.uri;
  });

  services.registerCommand('rlStudio.payload.insertTemplate', async (target?: vscode.Uri, id?: TemplateId) => {
    const document = await payloadDocument(target);
    const editor = await vscode.window.showTextDocument(document);
    const template = id ?? (await pickTemplate(services.dialogs));
    if (!template) return;
    const analysis = documents.analysisOf(document)!;
    const { isRunEvent, templateText } = payloadCore();
    const category = analysis.kind === 'automation' && isRunEvent(documents.samples.typeFor(document, analysis)) ? 'run' : 'artifact';
    if (document.getText().trim() === '') {
      await editor.edit((edit) => edit.replace(new vscode.Range(0, 0, document.lineCount, 0), `${templateText(template, category)}\n`));
      return;
    }
    const line = document.lineAt(editor.selection.active.line);
    const indent = line.text.slice(0, line.firstNonWhitespaceCharacterIndex);
    await editor.edit((edit) => edit.insert(editor.selection.active, templateText(template, category, '  ', indent)));
  });
}

async function pickTemplate(dialogs: Dialogs): Promise<TemplateId | undefined> {
  const picked = await dialogs.pick(
    payloadCore().payloadTemplates.map((template) => ({ label: template.label, detail: template.description, id: template.id })),
    { title: 'Payload template' },
  );
  return picked?.id;
}

/** The document a command is about: the one given, else the active payload or automation editor. */
async function payloadDocument(target?: vscode.Uri): Promise<vscode.TextDocument> {
  const uri = target instanceof vscode.Uri ? target : vscode.window.activeTextEditor?.document.uri;
  if (uri) {
    const document = await vscode.workspace.openTextDocument(uri);
    if (payloadKindOf(document)) return document;
  }
  throw new Error('Open a payload (*.payload.json, or a JSON file in the "Webhook Payload" language mode) or an automation (*.automation.json) first.');
}

/** A quick pick of every sample value; picking one edits it. Loops until dismissed. */
async function editSampleValues(dialogs: Dialogs, documents: PayloadDocuments, type: EventType): Promise<void> {
  type Pick = vscode.QuickPickItem & { action: 'value' | 'metadata' | 'add-metadata' | 'reset'; name?: string };
  const { lookupVariable, plainVariables } = payloadCore();
  for (;;) {
    const sample = documents.samples.sampleOf(type);
    const picks: Pick[] = [
      { label: 'Variables', kind: vscode.QuickPickItemKind.Separator, action: 'value' },
      ...plainVariables()
        .filter((variable) => variable.name !== 'event_type')
        .map((variable) => ({
          label: variable.name,
          description: sample.values[variable.name] || '(blank)',
          detail: lookupVariable(variable.name)?.meaning,
          action: 'value' as const,
          name: variable.name,
        })),
      { label: 'Artifact metadata', kind: vscode.QuickPickItemKind.Separator, action: 'metadata' },
      ...Object.entries(sample.metadata).map(([key, value]) => ({ label: `artifact_metadata.${key}`, description: value || '(blank)', action: 'metadata' as const, name: key })),
      { label: '$(add) Add a metadata key…', action: 'add-metadata' },
      { label: '$(discard) Reset to the defaults', action: 'reset' },
    ];
    const picked = await dialogs.pick(picks, { title: `Sample event values: ${type}`, placeHolder: 'Pick a value to change; Escape when done', matchOnDescription: true });
    if (!picked) return;
    if (picked.action === 'reset') {
      await documents.samples.reset(type);
      continue;
    }
    if (picked.action === 'add-metadata') {
      const key = await dialogs.input({
        title: 'Metadata key',
        prompt: "A top-level key of the artifact version's metadata",
        validateInput: (value) => (/^[^.}"\\\s]+$/.test(value) ? undefined : 'A top-level key: no dots, spaces, quotes, backslashes or braces.'),
      });
      if (!key) continue;
      const value = await dialogs.input({ title: `Sample value of artifact_metadata.${key}` });
      if (value !== undefined) await documents.samples.setValue(type, 'metadata', key, value);
      continue;
    }
    const name = picked.name!;
    const current = picked.action === 'value' ? sample.values[name] : sample.metadata[name];
    const value = await dialogs.input({
      title: `Sample value of ${picked.label}`,
      value: current,
      prompt: picked.action === 'metadata' ? 'Clear the value and press Enter to remove the key.' : 'Inserted verbatim into the payload, as the platform does.',
    });
    if (value === undefined) continue;
    if (picked.action === 'metadata' && value === '') await documents.samples.removeMetadataKey(type, name);
    else await documents.samples.setValue(type, picked.action === 'value' ? 'values' : 'metadata', name, value);
  }
}
