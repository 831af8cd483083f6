/**
 * Removes secrets from text that is about to be shown or logged. Each secret is replaced wherever
 * it occurs, and any `Bearer <token>` is masked too, so a server that echoes a header back cannot
 * leak a key into the log.
 */
export const redactedMark = '[redacted]';

const bearerToken = /\b(Bearer\s+)[A-Za-z0-9._~+/=-]+/g;
/**
 * Shorter values are not searched for: replacing them would mangle ordinary words ("k" inside
 * "chunks"), and no real key is that short.
 */
const minimumSecretLength = 6;

export function redactSecrets(text: string, secrets: readonly string[]): string {
  let result = text;
  // Longest first, so a secret that contains another one is replaced whole.
  const ordered = secrets.filter((secret) => typeof secret === 'string' && secret.length >= minimumSecretLength).sort((a, b) => b.length - a.length);
  for (const secret of ordered) {
    if (result.includes(secret)) result = result.split(secret).join(redactedMark);
  }
  return result.replace(bearerToken, `$1${redactedMark}`);
}
