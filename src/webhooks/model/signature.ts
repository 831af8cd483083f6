import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header that carries the payload signature (specification 4.3). */
export const signatureHeader = 'X-Service-Signature';

/** base64(HMAC-SHA256(key = the secret's UTF-8 bytes, message = the exact body bytes)), padded, no prefix. */
export function signPayload(secret: string, body: Uint8Array | string): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(typeof body === 'string' ? Buffer.from(body, 'utf8') : body)
    .digest('base64');
}

/** Checks a received signature in constant time (for equal lengths: a length says nothing about the secret). */
export function verifySignature(secret: string, body: Uint8Array | string, received: string): boolean {
  const expected = Buffer.from(signPayload(secret, body), 'utf8');
  const given = Buffer.from(received.trim(), 'utf8');
  return expected.length === given.length && timingSafeEqual(expected, given);
}
