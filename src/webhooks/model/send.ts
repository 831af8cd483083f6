import type { RawRequest, RawResponse } from '../../platform/client';
import { describeFailure } from '../../platform/client/describeFailure';
import { errorMessage } from '../../platform/client/errorMessage';
import { redactSecrets } from '../../platform/client/redact';
import { adviceForFailure, adviceForStatus, type SendFailure } from './advice';
import { endpointForDisplay, endpointSecrets } from './endpoint';
import type { WebhookCredentials } from './model';
import { signatureHeader, signPayload } from './signature';

export type RawSend = (request: RawRequest) => Promise<RawResponse>;

export interface SentRequest {
  /** The endpoint as shown: origin and masked path, never the URL (it may carry a token). */
  endpoint: string;
  method: 'POST';
  /** As sent, except the bearer token, which is masked. */
  headers: Record<string, string>;
  /** As sent, except that the token and secret values are masked wherever they appear. */
  body: string;
  bodyBytes: number;
}

export interface TestSendResult {
  webhook: string;
  startedAt: number;
  request: SentRequest;
  /** Present when the endpoint answered, whatever the status. */
  response?: RawResponse;
  /**
   * The answer's body as text, with the token, the secret and the URL's tokens masked (an endpoint
   * may echo them). The report masks its final text again, after pretty-printing.
   */
  responseText?: string;
  /** Present when no answer came (refused, timed out, bad address...); its message is redacted. */
  failure?: SendFailure;
  /** True for a 2xx answer. */
  ok: boolean;
  /** What to check when the test failed; empty on success. */
  advice: string[];
}

export interface SendTestOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** Where a test goes: the webhook's name and its full endpoint URL, read from secret storage. */
export interface SendTarget {
  name: string;
  url: string;
}

export const defaultTestTimeoutSeconds = 30;
const shortestTestTimeoutSeconds = 1;
const longestTestTimeoutSeconds = 600;

/**
 * The `rlStudio.webhooks.testTimeoutSeconds` setting in milliseconds, kept within 1 s and 600 s
 * whatever a settings file says (the manifest's limits are advice to the editor, not enforced).
 */
export function testTimeoutMs(seconds: unknown): number {
  const value = typeof seconds === 'number' && Number.isFinite(seconds) ? seconds : defaultTestTimeoutSeconds;
  return Math.round(Math.min(longestTestTimeoutSeconds, Math.max(shortestTestTimeoutSeconds, value)) * 1000);
}

/** Every value a report of a send to `url` with `credentials` must not show. */
export function sendSecrets(url: string, credentials: WebhookCredentials): string[] {
  const values = [...endpointSecrets(url)];
  if (credentials.accessToken) values.push(credentials.accessToken);
  if (credentials.secret) values.push(credentials.secret);
  return values;
}

/**
 * Sends one test request the way the platform calls a webhook (specification 4.3): POST, JSON
 * content type, the bearer token when the webhook has one, and the signature of the exact body
 * bytes when it has a secret. `send` is the platform client's raw send, so all HTTP stays in one place.
 */
export async function sendTest(payloadText: string, webhook: SendTarget, secrets: WebhookCredentials, send: RawSend, options: SendTestOptions = {}): Promise<TestSendResult> {
  const body = Buffer.from(payloadText, 'utf8');
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (secrets.accessToken) headers.Authorization = `Bearer ${secrets.accessToken}`;
  if (secrets.secret !== undefined && secrets.secret !== '') headers[signatureHeader] = signPayload(secrets.secret, body);

  const shownHeaders = { ...headers };
  if (shownHeaders.Authorization) shownHeaders.Authorization = 'Bearer ********';
  const hide = masker([secrets.accessToken, secrets.secret]);
  const redact = (text: string): string => redactSecrets(text, sendSecrets(webhook.url, secrets));
  const request: SentRequest = { endpoint: endpointForDisplay(webhook.url), method: 'POST', headers: shownHeaders, body: hide(payloadText), bodyBytes: body.byteLength };
  const startedAt = Date.now();
  const raw: RawRequest = { url: webhook.url, method: 'POST', headers, body };
  if (options.timeoutMs !== undefined) raw.timeoutMs = options.timeoutMs;
  if (options.signal) raw.signal = options.signal;
  try {
    const response = await send(raw);
    const ok = response.status >= 200 && response.status < 300;
    const responseText = redact(hide(new TextDecoder('utf-8', { fatal: false }).decode(response.body)));
    return { webhook: webhook.name, startedAt, request, response, responseText, ok, advice: adviceForStatus(response.status) };
  } catch (error) {
    const failure = failureOf(error, redact);
    return { webhook: webhook.name, startedAt, request, failure, ok: false, advice: adviceForFailure(failure) };
  }
}

/** Replaces every occurrence of the given values (longest first) with a mask. */
function masker(values: (string | undefined)[]): (text: string) => string {
  const hidden = [...new Set(values.filter((value): value is string => Boolean(value)))].sort((a, b) => b.length - a.length);
  return (text) => hidden.reduce((result, value) => result.split(value).join('********'), text);
}

/**
 * A failed send: describeFailure's reason (which the advice follows), with the client's own account
 * of it, request line included, as the message: the report is for finding out what went wrong.
 */
function failureOf(error: unknown, redact: (text: string) => string): SendFailure {
  const { kind, connection } = describeFailure(error);
  return { kind, ...(connection ? { connection } : {}), message: redact(errorMessage(error) || 'the request failed') };
}
