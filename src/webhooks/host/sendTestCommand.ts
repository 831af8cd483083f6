import * as vscode from 'vscode';
import type { PayloadAnalysis } from '../model/payload';
import type { Webhook } from '../model/model';
import type * as Report from '../model/report';
import type * as Send from '../model/send';
import { sendTestConfirmation } from '../model/testConfirmation';
import { payloadCore } from './payload/payloadCore';
import type { PayloadDocuments } from './payload/payloadDocuments';
import { payloadKindOf } from './payload/selector';
import type { Dialogs } from '../../platform/host/dialogs';
import { changedAfterConfirmation, FileSnapshot } from '../../platform/host/fileSnapshot';
import type { Services } from '../../platform/host/services';
import { signalFor } from '../../platform/host/cancellationSignal';
import { featureSetting } from '../../platform/host/settings';
import type { ReportDocuments } from './reportDocuments';
import { resolveWebhook } from './webhookCommands';
import type { WebhookStore } from './webhookStore';

export interface SendTestSummary {
  ok: boolean;
  status?: number;
  failure?: string;
  report: vscode.Uri;
}

/**
 * "Send test" (specification 4.4): renders the payload with the sample event and the webhook's
 * real secret values, POSTs it through the platform client's raw send, and shows the answer.
 * `payloadDocuments` loads the payload language on the first test.
 */
export function registerSendTest(services: Services, store: WebhookStore, payloadDocuments: () => PayloadDocuments, reports: ReportDocuments): void {
  // "Send Anyway" is the user's answer to a warning: no caller can give it for them (tests answer
  // through the dialogs service).
  services.registerCommand('rlStudio.webhook.sendTest', async (target?: unknown): Promise<SendTestSummary | undefined> => {
    const documents = payloadDocuments();
    const source = await chooseSource(services.dialogs, target, documents);
    if (!source) return undefined;
    // A webhook from the view wins; otherwise the one the document is written for.
    const fromView = target !== undefined && !(target instanceof vscode.Uri);
    let webhook = fromView
      ? await resolveWebhook(services.dialogs, store, target, 'Send the test to which webhook?')
      : source.document
        ? documents.webhooks.webhookFor(source.document, source.analysis)
        : undefined;
    if (!webhook) {
      if (source.analysis.kind === 'automation' && source.analysis.automation?.webhook) {
        throw new Error(`The webhook "${source.analysis.automation.webhook.value}" named by this automation is not set up in RL Studio. Add it first.`);
      }
      webhook = await resolveWebhook(services.dialogs, store, undefined, 'Send the test to which webhook?');
      if (!webhook) return undefined;
      if (source.document && source.analysis.kind === 'payload') await documents.webhooks.choose(source.document.uri, webhook.id);
    }
    return sendTest(services, store, documents, reports, webhook, source, { confirm: true });
  });
}

/** What a test sends: a payload or automation document (or the generic sample) and its analysis. */
export interface Source {
  document?: vscode.TextDocument;
  analysis: PayloadAnalysis;
  label: string;
  /** What the document held when it was analysed: nothing is sent when it changed after the confirmation. */
  snapshot?: FileSnapshot;
}

export interface SendTestOptions {
  /** Ask a modal confirmation naming the endpoint's host, the payload and the credentials it carries. */
  confirm?: boolean;
}

/**
 * Renders the source with the sample event and the webhook's secret values, sends it signed, shows
 * the report, and says how it went. A rendering that is not valid JSON is sent only when the user
 * chooses "Send Anyway". With `confirm`, nothing is sent before the person confirms the endpoint and
 * the payload, and what is sent is the rendering confirmed, to the address confirmed.
 */
export async function sendTest(
  services: Services,
  store: WebhookStore,
  documents: PayloadDocuments,
  reports: ReportDocuments,
  webhook: Webhook,
  source: Source,
  options: SendTestOptions = {},
): Promise<SendTestSummary | undefined> {
  const url = await store.url(webhook.id);
  if (!url) throw new Error(`The endpoint URL of "${webhook.name}" is not stored: edit the webhook to set it again.`);
  const credentials = await store.credentials(webhook.id);
  const secrets: Record<string, string | undefined> = { ACCESS_TOKEN: credentials.accessToken };
  if (webhook.secretName) secrets[webhook.secretName] = credentials.secret;
  const sample = source.document ? documents.samples.sampleFor(source.document, source.analysis) : documents.samples.sampleOf('LINK_ARTIFACT');
  const names = { name: webhook.name, hasAccessToken: webhook.hasAccessToken, ...(webhook.secretName ? { secretName: webhook.secretName } : {}) };
  const rendered = payloadCore().renderPayload(source.analysis, { sample, webhook: names, secrets, maskSecrets: false });
  if (rendered.notRendered) {
    services.dialogs.error(`${rendered.invalid?.message ?? 'The payload was not rendered.'} Nothing was sent to "${webhook.name}".`);
    return undefined;
  }
  if (rendered.invalid) {
    const sendAnyway = 'Send Anyway';
    const answer = await services.dialogs.choose(rendered.invalid.message, { modal: true, detail: 'The endpoint will most likely reject it.' }, sendAnyway);
    if (answer !== sendAnyway) return undefined;
  }

  // Signing needs node:crypto: loaded with the first test, not at activation.
  const { sendSecrets, sendTest: sendSigned, testTimeoutMs } = require('../model/send') as typeof Send;
  if (options.confirm) {
    const confirmation = sendTestConfirmation({
      webhook: webhook.name,
      url,
      secrets: sendSecrets(url, credentials),
      payload: source.label,
      sampleEvent: sample.type,
      bodyBytes: Buffer.byteLength(rendered.text, 'utf8'),
      carriesAccessToken: credentials.accessToken !== undefined && credentials.accessToken !== '',
      signedWith: webhook.secretName && credentials.secret !== undefined ? webhook.secretName : undefined,
      unresolved: rendered.unresolved,
    });
    if (!(await services.dialogs.confirm(confirmation.message, confirmation.detail, confirmation.action))) return undefined;
    if (source.snapshot && (await source.snapshot.changed())) {
      services.dialogs.error(changedAfterConfirmation(source.label));
      return undefined;
    }
  }
  const { formatTestReport } = require('../model/report') as typeof Report;
  const network = await services.network();
  const timeoutMs = testTimeoutMs(featureSetting('webhooks.testTimeoutSeconds'));
  const result = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Sending a test to ${webhook.name}…`, cancellable: true }, (_progress, token) => {
    // Cancelled by the user, or by the extension being turned off.
    const cancel = signalFor(token, services.lifetime);
    return sendSigned(rendered.text, { name: webhook.name, url }, credentials, network.sendRaw, { timeoutMs, signal: cancel.signal }).finally(() => cancel.dispose());
  });

  const notes: string[] = [`Payload: ${source.label}, rendered with the ${sample.type} sample event.`];
  if (rendered.unresolved.length > 0) notes.push(`Left as written (unknown, or a secret with no stored value): ${rendered.unresolved.map((name) => `\`\${${name}}\``).join(', ')}.`);
  if (webhook.secretName && credentials.secret === undefined) notes.push(`The secret ${webhook.secretName} has no stored value, so the request was not signed.`);
  const hidden = sendSecrets(url, credentials);
  const report = formatTestReport(result, { secrets: hidden, notes });
  const uri = await reports.show(`webhook-test-${webhook.name}`, report, hidden);
  services.log.info(`webhook test to ${webhook.name} (${webhook.endpoint}): ${result.response ? result.response.status : result.failure?.message}`);
  if (!result.ok) {
    const why = result.response ? `the endpoint answered ${result.response.status}` : (result.failure?.message ?? 'no answer');
    services.dialogs.warn(services.log.redact(`Test of "${webhook.name}" failed: ${why}. ${result.advice[0] ?? ''}`.trim()));
  }
  const summary: SendTestSummary = { ok: result.ok, report: uri };
  if (result.response) summary.status = result.response.status;
  if (result.failure) summary.failure = result.failure.message;
  return summary;
}

async function chooseSource(dialogs: Dialogs, target: unknown, documents: PayloadDocuments): Promise<Source | undefined> {
  const fromUri = async (uri: vscode.Uri): Promise<Source | undefined> => {
    const document = await vscode.workspace.openTextDocument(uri);
    // The very text analysed: read in the same turn, nothing can change it in between.
    const text = document.getText();
    const analysis = documents.analysisOf(document);
    return analysis ? { document, analysis, label: vscode.workspace.asRelativePath(uri), snapshot: await FileSnapshot.ofEditor(document, text) } : undefined;
  };
  if (target instanceof vscode.Uri) {
    const source = await fromUri(target);
    if (!source) throw new Error('That file is neither a payload nor an automation.');
    return source;
  }
  const active = vscode.window.activeTextEditor?.document;
  if (active && payloadKindOf(active)) return fromUri(active.uri);

  type Pick = vscode.QuickPickItem & { uri?: vscode.Uri };
  const files = await vscode.workspace.findFiles('**/*.{payload,automation}.json', '**/node_modules/**', 50);
  const picks: Pick[] = [
    ...files.map((uri) => ({ label: vscode.workspace.asRelativePath(uri), uri })),
    { label: 'Generic sample payload', description: 'no file: every variable, rendered with the sample event' },
  ];
  const picked = await dialogs.pick(picks, { title: 'Which payload should the test send?' });
  if (!picked) return undefined;
  if (picked.uri) return fromUri(picked.uri);
  const { analysePayload, templateText } = payloadCore();
  return { analysis: analysePayload(templateText('generic'), 'payload'), label: 'the generic sample payload' };
}
