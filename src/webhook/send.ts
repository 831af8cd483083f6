import type { RawRequest, RawResponse } from '../api';
import { adviceForFailure, adviceForStatus } from './advice';
import type { Webhook, WebhookCredentials } from './model';
import { signatureHeader, signPayload } from './signature';

export type RawSend = (request: RawRequest) => Promise<RawResponse>;

export interface SentRequest {
  url: string;
  method: 'POST';
  /** As sent, except the bearer token, which is masked. */
  headers: Record<string, string>;
  body: string;
  bodyBytes: number;
}

export interface TestSendResult {
  webhook: string;
  startedAt: number;
  request: SentRequest;
  /** Present when the endpoint answered, whatever the status. */
  response?: RawResponse;
  /** Present when no answer came (refused, timed out, bad address...). */
  failure?: { kind?: string; message: string };
  /** True for a 2xx answer. */
  ok: boolean;
  /** What to check when the test failed; empty on success. */
  advice: string[];
}

export interface SendTestOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * Sends one test request the way the platform calls a webhook (specification 4.3): POST, JSON
 * content type, the bearer token when the webhook has one, and the signature of the exact body
 * bytes when it has a secret. `send` is the platform client's raw send, so all HTTP stays in one place.
 */
export async function sendTest(
  payloadText: string,
  webhook: Pick<Webhook, 'name' | 'url'>,
  secrets: WebhookCredentials,
  send: RawSend,
  options: SendTestOptions = {},
): Promise<TestSendResult> {
  const body = Buffer.from(payloadText, 'utf8');
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (secrets.accessToken) headers.Authorization = `Bearer ${secrets.accessToken}`;
  if (secrets.secret !== undefined && secrets.secret !== '') headers[signatureHeader] = signPayload(secrets.secret, body);

  const shownHeaders = { ...headers };
  if (shownHeaders.Authorization) shownHeaders.Authorization = 'Bearer ********';
  const request: SentRequest = { url: webhook.url, method: 'POST', headers: shownHeaders, body: payloadText, bodyBytes: body.byteLength };
  const startedAt = Date.now();
  const raw: RawRequest = { url: webhook.url, method: 'POST', headers, body };
  if (options.timeoutMs !== undefined) raw.timeoutMs = options.timeoutMs;
  if (options.signal) raw.signal = options.signal;
  try {
    const response = await send(raw);
    const ok = response.status >= 200 && response.status < 300;
    return { webhook: webhook.name, startedAt, request, response, ok, advice: adviceForStatus(response.status) };
  } catch (error) {
    const failure = describeFailure(error);
    return { webhook: webhook.name, startedAt, request, failure, ok: false, advice: adviceForFailure(failure) };
  }
}

function describeFailure(error: unknown): { kind?: string; message: string } {
  if (typeof error === 'object' && error !== null) {
    const { kind, message } = error as { kind?: unknown; message?: unknown };
    const text = typeof message === 'string' && message ? message : String(error);
    return typeof kind === 'string' ? { kind, message: text } : { message: text };
  }
  return { message: String(error) };
}
