import * as vscode from 'vscode';
import { optionalText, ToolRefusal, workspacePath } from '../../../platform/agent/toolInput';
import { capText } from '../../../platform/agent/textCap';
import { contentDigest, quoted } from '../../../platform/kit/confirmationText';
import { escapedLine, foreignName } from '../../../platform/agent/foreignText';
import { sendWebhookTestConfirmation } from '../../../platform/agent/toolConfirmations';
import type { PayloadAnalysis } from '../../model/payload';
import type { Webhook } from '../../model/model';
import { payloadCore } from '../payload/payloadCore';
import type { PayloadLanguageFeature } from '../payload/payloadLanguageFeature';
import type { Services } from '../../../platform/host/services';
import { sendTest } from '../sendTestCommand';
import type { ReportDocuments } from '../reportDocuments';
import type { WebhookStore } from '../webhookStore';
import type { AgentTool } from '../../../platform/agent/agentTool';
import { workspaceFile } from '../../../platform/agent/workspaceFiles';

/** Characters of the rendered body a result shows. */
const shownBodyChars = 4_000;
/** Problems listed one by one at most. */
const listedProblems = 20;

interface PayloadInput {
  path: string;
  webhook?: string;
}

interface Rendering {
  label: string;
  document: vscode.TextDocument;
  analysis: PayloadAnalysis;
  webhook: Webhook | undefined;
}

/** The payload language's parts a tool needs, loaded with it on first use. */
export interface PayloadParts {
  payloadLanguage: () => PayloadLanguageFeature;
  webhooks: () => { reports: ReportDocuments };
  store: WebhookStore;
}

function payloadInput(input: Record<string, unknown>): PayloadInput {
  const webhook = optionalText(input, 'webhook', 200);
  return { path: workspacePath(input, 'path'), ...(webhook ? { webhook } : {}) };
}

/** The webhook named in the input, else the one the document is written for (chosen in the editor, or named by the automation). */
function webhookOf(parts: PayloadParts, name: string | undefined, document: vscode.TextDocument, analysis: PayloadAnalysis): Webhook | undefined {
  if (name === undefined) return parts.payloadLanguage().documents.webhooks.webhookFor(document, analysis);
  const webhook = parts.store.list().find((candidate) => candidate.name === name || candidate.id === name);
  if (!webhook)
    throw new ToolRefusal(
      `No webhook named ${quoted(name)} is set up in RL Studio. Set up: ${
        parts.store
          .list()
          .map((candidate) => foreignName(candidate.name, 80))
          .join(', ') || 'none'
      }.`,
    );
  return webhook;
}

async function renderingOf(parts: PayloadParts, input: PayloadInput): Promise<Rendering> {
  const file = await workspaceFile(input.path);
  if (!/\.(payload|automation)\.json$/i.test(file.uri.fsPath)) throw new ToolRefusal(`${quoted(file.label)} is not a payload (*.payload.json) or automation (*.automation.json) file.`);
  const document = await vscode.workspace.openTextDocument(file.uri);
  const analysis = parts.payloadLanguage().documents.analysisOf(document);
  if (!analysis) throw new ToolRefusal(`${quoted(file.label)} could not be read as a payload.`);
  return { label: file.label, document, analysis, webhook: webhookOf(parts, input.webhook, document, analysis) };
}

export function renderPayloadTool(parts: PayloadParts): AgentTool<PayloadInput> {
  return {
    name: 'rlstudio_render_payload',
    needsPlatform: false,
    read: payloadInput,
    progress: (input) => `Rendering ${input.path}`,
    run: async (input) => {
      const { label, document, analysis, webhook } = await renderingOf(parts, input);
      const core = payloadCore();
      const documents = parts.payloadLanguage().documents;
      const sample = documents.samples.sampleFor(document, analysis);
      const problems = core.diagnose(analysis);
      const names = webhook ? { name: webhook.name, hasAccessToken: webhook.hasAccessToken, ...(webhook.secretName ? { secretName: webhook.secretName } : {}) } : undefined;
      // Secrets render as a mask: the result goes to a language model.
      const rendered = core.renderPayload(analysis, { sample, ...(names ? { webhook: names } : {}), maskSecrets: true });
      const lines = [
        `${quoted(label)}: ${problems.length === 0 ? 'no problems' : `${problems.length} problems`}; rendered with the ${sample.type} sample event${webhook ? ` for webhook ${foreignName(webhook.name)}` : ' (no webhook chosen: its secret names are unknown)'}.`,
      ];
      for (const problem of problems.slice(0, listedProblems)) {
        const position = document.positionAt(problem.start);
        lines.push(`- line ${position.line + 1}, column ${position.character + 1}: ${problem.severity}: ${escapedLine(problem.message, 300)}`);
      }
      if (problems.length > listedProblems) lines.push(`- … ${problems.length - listedProblems} more`);
      if (rendered.notRendered) lines.push(`Not rendered: ${rendered.invalid?.message ?? 'the template is past a limit'}.`);
      else {
        if (rendered.invalid) lines.push(`The rendered body is not valid JSON: ${rendered.invalid.message} (offset ${rendered.invalid.offset}). The endpoint would most likely reject it.`);
        if (rendered.unresolved.length > 0) lines.push(`Left as written: ${rendered.unresolved.map((name) => quoted(`\${${name}}`, 80)).join(', ')}.`);
        lines.push('Rendered body (secrets masked):', capText(rendered.text, shownBodyChars));
      }
      return lines.join('\n');
    },
  };
}

/** What a webhook test's confirmation named: the webhook, where it sends, how it signs, and the rendered body by its digest. */
interface WebhookTestPlan {
  webhookId: string;
  endpoint: string;
  urlDigest: string;
  hasAccessToken: boolean;
  secretName: string | undefined;
  payloadDigest: string;
}

export function sendWebhookTestTool(services: Services, parts: PayloadParts): AgentTool<PayloadInput, WebhookTestPlan> {
  const prepare = async (input: PayloadInput) => {
    const rendering = await renderingOf(parts, input);
    if (!rendering.webhook)
      throw new ToolRefusal(
        `${quoted(rendering.label)} is not written for a webhook: name one with "webhook" (set up: ${
          parts.store
            .list()
            .map((candidate) => foreignName(candidate.name, 80))
            .join(', ') || 'none'
        }).`,
      );
    // Checked with masked secrets: a body that is not JSON is refused here instead of asking "Send Anyway" in the middle of a chat.
    const rendered = payloadCore().renderPayload(rendering.analysis, { sample: parts.payloadLanguage().documents.samples.sampleFor(rendering.document, rendering.analysis), maskSecrets: true });
    if (rendered.notRendered || rendered.invalid)
      throw new ToolRefusal(
        `${quoted(rendering.label)} does not render to valid JSON (${quoted(rendered.invalid?.message ?? 'past a limit')}), so nothing was sent. Render it with the render-payload tool to see why.`,
      );
    const webhook = rendering.webhook;
    const plan: WebhookTestPlan = {
      webhookId: webhook.id,
      endpoint: webhook.endpoint,
      urlDigest: contentDigest((await parts.store.url(webhook.id)) ?? ''),
      hasAccessToken: webhook.hasAccessToken,
      secretName: webhook.secretName,
      payloadDigest: contentDigest(`${rendering.document.uri.toString()}\u0000${rendering.document.getText()}\u0000${rendered.text}`),
    };
    return { ...rendering, webhook, bytes: Buffer.byteLength(rendered.text), plan };
  };
  return {
    name: 'rlstudio_send_webhook_test',
    needsPlatform: false,
    read: payloadInput,
    confirm: async (input) => {
      const { label, webhook, bytes, plan } = await prepare(input);
      return {
        confirmation: sendWebhookTestConfirmation({
          file: label,
          bytes,
          webhook: webhook.name,
          endpoint: webhook.endpoint,
          hasAccessToken: webhook.hasAccessToken,
          ...(webhook.secretName ? { secretName: webhook.secretName } : {}),
        }),
        plan,
      };
    },
    progress: (input) => `Sending ${input.path} as a webhook test`,
    run: async (input, _signal, confirmed) => {
      // Rendered again, and sent only when the webhook, its address, its credentials' names and the body are those confirmed.
      const { label, document, analysis, webhook, plan } = await prepare(input);
      const same =
        plan.webhookId === confirmed.webhookId &&
        plan.endpoint === confirmed.endpoint &&
        plan.urlDigest === confirmed.urlDigest &&
        plan.hasAccessToken === confirmed.hasAccessToken &&
        plan.secretName === confirmed.secretName &&
        plan.payloadDigest === confirmed.payloadDigest;
      if (!same)
        throw new ToolRefusal(
          `The payload or the webhook changed after you confirmed; nothing was sent. ${quoted(label)} for webhook ${foreignName(webhook.name)} is no longer what the confirmation named: call the tool again to confirm it as it is now.`,
        );
      const summary = await sendTest(services, parts.store, parts.payloadLanguage().documents, parts.webhooks().reports, webhook, { document, analysis, label });
      if (!summary) return 'Nothing was sent.';
      const outcome = summary.status !== undefined ? `the endpoint answered ${summary.status}` : `it failed: ${quoted(summary.failure ?? 'no answer')}`;
      return `Sent ${quoted(label)} to webhook ${foreignName(webhook.name)}: ${outcome}${summary.ok ? ' (success)' : ''}. The full report (request and answer, secrets masked) is open in the editor.`;
    },
  };
}
