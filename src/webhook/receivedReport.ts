import { fence, headerLines } from './report';
import type { ReceivedRequest, SignatureVerdict } from './receiver';

const verdicts: Record<SignatureVerdict, string> = {
  valid: 'signature valid (X-Service-Signature matches the secret)',
  invalid: 'signature INVALID (X-Service-Signature does not match the secret)',
  missing: 'signature MISSING (no X-Service-Signature header, but a secret was given)',
  'not-checked': 'signature not checked (no secret given to the receiver)',
};

export function describeVerdict(verdict: SignatureVerdict): string {
  return verdicts[verdict];
}

/** One received request as plain text for the receiver's log. */
export function formatReceivedRequest(request: ReceivedRequest): string {
  const when = new Date(request.receivedAt).toISOString();
  const lines = [
    `#${request.sequence} ${request.method} ${request.path} at ${when}: ${describeVerdict(request.signature)}`,
    ...headerLines(maskAuthorization(request.headers)),
    `Body (${request.body.byteLength} bytes${request.truncated ? ', cut at the limit' : ''}):`,
    ...fence(request.bodyText, ''),
  ];
  return lines.join('\n');
}

/** The bearer token is shown by its last characters only, enough to tell which token arrived. */
function maskAuthorization(headers: Record<string, string | string[]>): Record<string, string | string[]> {
  const authorization = headers.authorization;
  if (typeof authorization !== 'string') return headers;
  const match = /^Bearer\s+(.+)$/i.exec(authorization);
  const shown = match ? `Bearer ****${match[1].length > 8 ? match[1].slice(-4) : ''}` : '****';
  return { ...headers, authorization: shown };
}
