import { redactedMark, redactSecrets } from '../../platform/client/redact';
import { authSchemeOf, credentialParts, looksLikeCredential } from './credentialShape';
import { fence, headerLines } from './report';
import { receiverLimits, type ReceivedRequest, type ReceiverStats, type Refusal, type SignatureVerdict } from './receiver';
import type { RefusalReason } from './receiverRules';

const verdicts: Record<SignatureVerdict, string> = {
  valid: 'signature valid (X-Service-Signature matches the secret)',
  invalid: 'signature INVALID (X-Service-Signature does not match the secret)',
  missing: 'signature MISSING (no X-Service-Signature header, but a secret was given)',
  'not-checked': 'signature not checked (no secret given to the receiver)',
};

/**
 * Characters of a body shown in the receiver's log. Enough to read any real payload; a larger body
 * is cut so one request cannot flood the log (the whole body stays in the kept request).
 */
export const shownBodyChars = 64 * 1024;

export function describeVerdict(verdict: SignatureVerdict): string {
  return verdicts[verdict];
}

/**
 * One received request as plain text for the receiver's log. Credentials never show: headers that
 * carry them are masked, their values are masked wherever else they occur (the body echoing a
 * cookie), fields named like a credential are masked in the body, and `knownSecrets` (the
 * receiver's path token and signing secret) are masked everywhere. Redaction runs last, on the
 * finished text.
 */
export function formatReceivedRequest(request: ReceivedRequest, knownSecrets: readonly string[] = []): string {
  const when = new Date(request.receivedAt).toISOString();
  const { shown, secrets } = maskHeaders(request.headers);
  const text = request.bodyText;
  const cut = text.length > shownBodyChars;
  const body = maskCredentialFields(cut ? text.slice(0, shownBodyChars) : text);
  const lines = [
    `#${request.sequence} ${request.method} ${request.path} at ${when}: ${describeVerdict(request.signature)}`,
    ...headerLines(shown),
    `Body (${request.body.byteLength} bytes${cut ? `, first ${shownBodyChars} characters shown` : ''}):`,
    ...fence(body, ''),
  ];
  return redactSecrets(lines.join('\n'), [...knownSecrets, ...secrets]);
}

/** Headers whose whole value is a credential. */
const credentialHeaders = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key']);
/** Names of headers, JSON fields and form fields that hold a credential. "auth" but not "author". */
const credentialName = /token|secret|passw|api[-_]?key|cookie|session|auth(?!or)|credential|private[-_]?key/i;

/**
 * The headers as shown, credentials masked (an authorization keeps its scheme, a cookie its names),
 * and the values masked, to be masked wherever else they appear. A header of any other name is
 * masked too when its value looks like a credential (a token prefix, a JWT, an auth scheme, a long
 * base64 or hex run): a sender names its headers as it likes.
 */
export function maskHeaders(headers: Record<string, string | string[]>): { shown: Record<string, string | string[]>; secrets: string[] } {
  const shown: Record<string, string | string[]> = {};
  const secrets: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    const values = Array.isArray(value) ? value : [value];
    const namedCredential = credentialHeaders.has(lower) || credentialName.test(lower);
    if (!namedCredential && !values.some(looksLikeCredential)) {
      shown[name] = value;
      continue;
    }
    const masked = values.map((one) => (namedCredential ? maskHeaderValue(lower, one, secrets) : maskByShape(one, secrets)));
    shown[name] = Array.isArray(value) ? masked : masked[0];
  }
  return { shown, secrets };
}

function maskHeaderValue(name: string, value: string, secrets: string[]): string {
  secrets.push(value);
  if (name === 'cookie' || name === 'set-cookie') {
    // Set-Cookie: only its first pair is the cookie; the attributes after it (Path, HttpOnly) are not secret.
    const pairs = name === 'cookie' ? value.split(';') : [value.split(';')[0]];
    const attributes = name === 'set-cookie' ? value.split(';').slice(1) : [];
    const maskedPairs = pairs.map((pair) => {
      const equals = pair.indexOf('=');
      const cookieValue = equals >= 0 ? pair.slice(equals + 1).trim() : pair.trim();
      secrets.push(cookieValue);
      return equals >= 0 ? `${pair.slice(0, equals).trim()}=${redactedMark}` : redactedMark;
    });
    return [...maskedPairs, ...attributes.map((attribute) => attribute.trim())].join('; ');
  }
  const scheme = /^(\S+)\s+(\S.*)$/.exec(value);
  if ((name === 'authorization' || name === 'proxy-authorization') && scheme) {
    const credentials = scheme[2].trim();
    secrets.push(credentials);
    if (scheme[1].toLowerCase() === 'basic') {
      // user:password, as a body that quotes the login would show it.
      const decoded = Buffer.from(credentials, 'base64').toString('utf8');
      secrets.push(decoded, decoded.slice(decoded.indexOf(':') + 1));
    }
    return `${scheme[1]} ${redactedMark} (${credentials.length} characters)`;
  }
  return `${redactedMark} (${value.length} characters)`;
}

/** A value masked for its shape: an auth scheme stays in view, the rest is hidden. */
function maskByShape(value: string, secrets: string[]): string {
  // The credential-looking parts, not the whole value: a path around a token must not mask every path in the body.
  secrets.push(...credentialParts(value));
  const scheme = authSchemeOf(value);
  if (!scheme) return `${redactedMark} (${value.length} characters)`;
  const credentials = value.trim().slice(scheme.length).trim();
  return `${scheme} ${redactedMark} (${credentials.length} characters)`;
}

/**
 * Masks the values of fields named like a credential in a body: JSON string fields
 * (`"api_key": "..."`), header-like lines (`Cookie: ...`) and form pairs (`token=...`). Each
 * pattern is linear in the text: no nested quantifiers over the same characters.
 */
export function maskCredentialFields(text: string): string {
  const quoted = JSON.stringify(redactedMark);
  return text
    .replace(/"((?:[^"\\\n]|\\.)*)"(\s*:\s*)"(?:[^"\\\n]|\\.)*"/g, (whole, key: string, colon: string) => (credentialName.test(key) ? `"${key}"${colon}${quoted}` : whole))
    .replace(/^([ \t]*(?:authorization|proxy-authorization|cookie|set-cookie|x-api-key)[ \t]*:[ \t]*)\S.*$/gim, `$1${redactedMark}`)
    .replace(/(^|[?&;\s])([\w.-]{1,64})=([^&;\s"']+)/g, (whole, before: string, key: string) => (credentialName.test(key) ? `${before}${key}=${redactedMark}` : whole));
}

const refusalTexts: Record<RefusalReason, string> = {
  'foreign-host': 'Refused a request addressed to another host name (a web page using a DNS name that points here, or a proxy); nothing was kept.',
  browser: 'Refused a request sent by a web page in a browser (it carried an Origin or Sec-Fetch-Site header); nothing was kept.',
  'unknown-path': "Refused a request to a path outside the receiver's address; nothing was kept. Send to the full address shown above.",
  'method-not-allowed': 'Refused a request that was not a POST; nothing was kept.',
  'too-large': `Refused a body over ${receiverLimits.maxBodyBytes / 1024 / 1024} MiB and closed its connection; nothing was kept.`,
  'too-slow': 'Closed a connection that sent its request too slowly; nothing was kept.',
  malformed: 'Closed a connection that did not send valid HTTP; nothing was kept.',
  'too-many-connections': `Closed a connection over the limit of ${receiverLimits.maxConnections} open at once; nothing was read.`,
};

/** One refused request for the receiver's log: what happened, plainly. */
export function describeRefusal(refusal: Refusal): string {
  return `${new Date(refusal.at).toISOString()} ${refusalTexts[refusal.reason]}${refusal.status ? ` (answered ${refusal.status})` : ''}`;
}

/** What the receiver holds and has turned away, in a few words: "3 kept, 2 dropped, 5 refused". */
export function describeReceiverState(stats: ReceiverStats): string {
  const refused = Object.values(stats.refused).reduce((sum, count) => sum + count, 0);
  const parts = [`${stats.kept} kept`];
  if (stats.dropped > 0) parts.push(`${stats.dropped} dropped`);
  if (refused > 0) parts.push(`${refused} refused`);
  return parts.join(', ');
}

/** Why requests were dropped: said next to the count wherever there is room. */
export const droppedExplanation = `The oldest requests are dropped first, to keep at most ${receiverLimits.maxKeptRequests} requests and ${receiverLimits.maxKeptBytes / 1024 / 1024} MiB.`;
