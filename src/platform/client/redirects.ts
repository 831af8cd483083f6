/**
 * Redirects are never followed. A request carries the API key; following a 302 or 307 to another
 * origin would hand the key to whoever the server (or a proxy, or a captive portal) pointed at.
 * Even a redirect to the same origin is refused: the configured address is what the user chose,
 * and a server that moved should be configured anew. Only the target's origin is named, since a
 * redirect's path and query may carry tokens of their own.
 */
import { PlatformError, type ApiName } from './errors';

export function isRedirect(status: number): boolean {
  return status >= 300 && status < 400 && status !== 304;
}

export function redirectError(
  status: number,
  location: string | string[] | undefined,
  base: string,
  context: { api: ApiName; method: string; path: string; secrets: readonly string[] },
): PlatformError {
  const { api, method, path } = context;
  let target = targetOrigin(location, base);
  // The URL parser lowercases host names, so a key a server put into one would slip past the
  // exact-match redaction every message gets; such a target is not named at all.
  const lowered = target.toLowerCase();
  if (context.secrets.some((secret) => secret.length >= 6 && lowered.includes(secret.toLowerCase()))) target = 'an address that contains your key';
  return new PlatformError({
    kind: 'http',
    message: `${method} ${path}: the server redirected to ${target} (${status}); RL Studio does not follow redirects, so your key stays with the address you set`,
    api,
    method,
    path,
    status,
  });
}

function targetOrigin(location: string | string[] | undefined, base: string): string {
  const text = Array.isArray(location) ? location[0] : location;
  if (!text) return 'an address it did not name';
  try {
    const url = new URL(text, base);
    return url.origin === 'null' ? 'an address that is not http(s)' : url.origin;
  } catch {
    return 'an address that is not valid';
  }
}
