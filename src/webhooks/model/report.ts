import { redactedMark, redactSecrets } from '../../platform/client/redact';
import { codeFence } from '../../platform/kit/markdownText';
import { credentialParts, looksLikeCredential } from './credentialShape';
import type { TestSendResult } from './send';

const statusTexts: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  301: 'Moved Permanently',
  302: 'Found',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  410: 'Gone',
  413: 'Payload Too Large',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export interface TestReportOptions {
  /** Values the report must not show: the token, the secret, the URL's tokens (see sendSecrets). */
  secrets?: readonly string[];
  /** Lines quoted under the title (which payload, which sample event, what was left unresolved). */
  notes?: readonly string[];
}

/** Response headers whose values are credentials or sessions: shown masked, whatever they hold (others when their value looks like one). */
const credentialHeader = /auth|token|key|secret|cookie|session|password|signature/i;

/**
 * The Markdown shown after "Send test": outcome, what to check, then the request and the answer.
 * The finished text is redacted last, after the body was pretty-printed: printing decodes `\/` and
 * `\uXXXX`, so masking before it could be undone by it.
 */
export function formatTestReport(result: TestSendResult, options: TestReportOptions = {}): string {
  const lines: string[] = [`# Webhook test: ${result.webhook}`, ''];
  if (options.notes && options.notes.length > 0) lines.push(options.notes.map((note) => `> ${note}`).join('\n>\n'), '');
  const when = new Date(result.startedAt).toISOString();
  if (result.response) {
    const { status, ms } = result.response;
    const verdict = result.ok ? 'Succeeded' : 'Failed';
    lines.push(`**${verdict}**: ${status} ${statusTexts[status] ?? ''}`.trimEnd() + ` in ${Math.round(ms)} ms (${when})`);
  } else {
    lines.push(`**Failed**: ${result.failure?.message ?? 'no answer'} (${when})`);
  }
  if (result.advice.length > 0) {
    lines.push('', '## What to check', '', ...result.advice.map((item) => `- ${item}`));
  }
  lines.push('', '## Request', '', `POST ${result.request.endpoint}`, '', ...headerLines(result.request.headers), '');
  lines.push(`Body (${result.request.bodyBytes} bytes):`, '', ...fence(result.request.body, 'json'));
  if (result.response) {
    const response = result.response;
    const text = result.responseText ?? new TextDecoder('utf-8', { fatal: false }).decode(response.body);
    lines.push('', '## Response', '', `Status: ${response.status}`, `Time: ${Math.round(response.ms)} ms`, '', ...headerLines(maskCredentialHeaders(response.headers)), '');
    const truncated = response.truncated ? ', cut at the kept maximum' : '';
    lines.push(`Body (${response.body.byteLength} bytes${truncated}):`, '', ...fence(prettyIfJson(text), looksJson(text) ? 'json' : 'text'));
  }
  const hidden = [...(options.secrets ?? []), ...cookieValues(result.response?.headers ?? {}), ...credentialShapedValues(result.response?.headers ?? {})];
  return redactSecrets(lines.join('\n') + '\n', hidden);
}

function maskCredentialHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string | string[] | undefined> {
  const masked: Record<string, string | string[] | undefined> = {};
  for (const [name, value] of Object.entries(headers)) {
    const hidden = value !== undefined && (credentialHeader.test(name) || (Array.isArray(value) ? value : [value]).some(looksLikeCredential));
    masked[name] = !hidden ? value : Array.isArray(value) ? value.map(() => redactedMark) : redactedMark;
  }
  return masked;
}

/** Header values shaped like a credential, whatever the header's name, so the body cannot show them either. */
function credentialShapedValues(headers: Record<string, string | string[] | undefined>): string[] {
  return Object.values(headers).flatMap((value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]).flatMap(credentialParts));
}

/** The values of the cookies the endpoint set or echoed, so the body cannot show them either. */
function cookieValues(headers: Record<string, string | string[] | undefined>): string[] {
  const values: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || !/cookie/i.test(name)) continue;
    for (const one of Array.isArray(value) ? value : [value]) {
      const pairs = /^set-cookie$/i.test(name) ? [one.split(';')[0]] : one.split(';');
      for (const pair of pairs) {
        const cookie = pair.slice(pair.indexOf('=') + 1).trim();
        if (cookie) values.push(cookie);
      }
    }
  }
  return values;
}

export function headerLines(headers: Record<string, string | string[] | undefined>): string[] {
  const lines: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) lines.push(`    ${name}: ${one}`);
  }
  return lines.length > 0 ? lines : ['    (no headers)'];
}

/** A fenced block that cannot be closed early by backticks in the text. */
export function fence(text: string, language: string): string[] {
  const marker = codeFence(text);
  return [marker + language, text.length > 0 ? text : '(empty)', marker];
}

function looksJson(text: string): boolean {
  try {
    JSON.parse(text);
    return text.trim().length > 0;
  } catch {
    return false;
  }
}

function prettyIfJson(text: string): string {
  if (!looksJson(text)) return text;
  return JSON.stringify(JSON.parse(text), null, 2);
}
