import type { Webhook } from '../model/model';
import type { VariableScope } from '../model/payload/variables';
import type * as Send from '../model/send';
import { payloadCore } from './payload/payloadCore';
import type { Services } from '../../platform/host/services';
import { featureSetting } from '../../platform/host/settings';
import type { WebhookStore } from './webhookStore';

/** A payload template sent by RL Studio itself (an alert rule), not as a test. */
export interface TemplateSend {
  webhook: Webhook;
  /** The template's text: a payload document. */
  template: string;
  /** Values of the plain variables this send fills, by name, inserted as they are. */
  values: Record<string, string>;
  /** The scopes of the variables `values` fills: a variable of another scope leaves the payload unsent. */
  scopes: readonly VariableScope[];
  /**
   * Asked after the payload rendered and before anything is sent, with the endpoint's URL (from
   * secret storage): false sends nothing.
   */
  confirm?: (url: string) => Promise<boolean>;
}

export type TemplateSendOutcome =
  | { sent: true; ok: boolean; status?: number; failure?: string }
  /** Nothing left the machine; `reason` says why, in words to show (no secret in it). */
  | { sent: false; reason: string; declined?: boolean };

/**
 * Renders a template with given values and the webhook's secret values, and sends it the way a test
 * send does (model/send.ts): POST, `Authorization: Bearer` with the access token, `X-Service-Signature`
 * over the exact body bytes, through the platform client's one raw sender. Nothing is sent when a
 * variable is unknown, of another scope or without a value, or when the rendering is not valid JSON.
 */
export async function sendTemplate(services: Services, store: WebhookStore, send: TemplateSend): Promise<TemplateSendOutcome> {
  const { webhook } = send;
  const url = await store.url(webhook.id);
  if (!url) return { sent: false, reason: `the endpoint URL of "${webhook.name}" is not stored: edit the webhook to set it again` };
  const credentials = await store.credentials(webhook.id);
  const secrets: Record<string, string | undefined> = { ACCESS_TOKEN: credentials.accessToken };
  if (webhook.secretName) secrets[webhook.secretName] = credentials.secret;
  const names = { name: webhook.name, hasAccessToken: webhook.hasAccessToken, ...(webhook.secretName ? { secretName: webhook.secretName } : {}) };

  const core = payloadCore();
  const analysis = core.analysePayload(send.template, 'payload');
  const foreign = new Set<string>();
  for (const reference of analysis.references) {
    if (!reference.terminated) return { sent: false, reason: `the template has an unterminated \`\${\`` };
    const resolution = core.resolveName(reference.name, names);
    const fills = resolution.kind === 'access-token' || resolution.kind === 'secret' || (resolution.kind === 'variable' && send.scopes.includes(resolution.info.scope));
    if (!fills && foreign.size < 10) foreign.add(reference.name);
  }
  if (foreign.size > 0) return { sent: false, reason: `the template uses ${[...foreign].map((name) => `\${${name}}`).join(', ')}, which this send does not fill` };
  const rendered = core.renderPayload(analysis, { sample: { type: 'RUN_STATE', values: send.values, metadata: {} }, webhook: names, secrets, maskSecrets: false });
  if (rendered.notRendered) return { sent: false, reason: rendered.invalid?.message ?? 'the payload was not rendered' };
  if (rendered.unresolved.length > 0) return { sent: false, reason: `no value for ${rendered.unresolved.map((name) => `\${${name}}`).join(', ')}` };
  if (rendered.invalid) return { sent: false, reason: rendered.invalid.message };
  if (send.confirm && !(await send.confirm(url))) return { sent: false, reason: 'not allowed', declined: true };

  // Signing needs node:crypto: loaded with the first send, not with the feature.
  const { sendTest: sendSigned, testTimeoutMs } = require('../model/send') as typeof Send;
  const network = await services.network();
  const result = await sendSigned(rendered.text, { name: webhook.name, url }, credentials, network.sendRaw, {
    timeoutMs: testTimeoutMs(featureSetting('webhooks.testTimeoutSeconds')),
    signal: services.lifetime,
  });
  const outcome: TemplateSendOutcome = { sent: true, ok: result.ok };
  if (result.response) outcome.status = result.response.status;
  if (result.failure) outcome.failure = result.failure.message;
  return outcome;
}
