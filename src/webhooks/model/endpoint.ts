/**
 * A webhook's endpoint URL is a secret: chat-service hooks carry their token in the path, some
 * endpoints put one in the query or in `user:password@`. Wherever a URL is shown (trees, quick
 * picks, tooltips, reports) it is shown as its origin and a masked path; the pieces that may be
 * tokens are handed to redaction.
 */

const hidden = '…';

/**
 * `https://hooks.example.com/services/T0/B0/XYZ?token=1` → `https://hooks.example.com/services/…?…`.
 * The first path segment stays when it reads like a word (`hooks`, `services`, `api`, `v1`), so
 * endpoints can be told apart; userinfo, the rest of the path, the query and the fragment never show.
 */
export function endpointForDisplay(url: string): string {
  const parsed = parse(url);
  if (!parsed) return 'an address that is not a valid URL';
  const segments = parsed.pathname.split('/').filter(Boolean);
  let shown = parsed.origin;
  if (segments.length > 0) {
    const first = readsLikeWord(segments[0]) ? segments[0] : hidden;
    shown += `/${first}`;
    if (segments.length > 1 && first !== hidden) shown += `/${hidden}`;
  }
  if (parsed.search || parsed.hash) shown += `?${hidden}`;
  return shown;
}

/**
 * The parts of the URL that may be credentials, for redaction: userinfo, the path after the first
 * word-like segment, each query value and the fragment, decoded and as written. Never the origin:
 * its pieces ("https://") would mask every address in the log.
 */
export function endpointSecrets(url: string): string[] {
  const parsed = parse(url);
  if (!parsed) return url ? [url] : [];
  const found = new Set<string>();
  const add = (value: string): void => {
    if (!value) return;
    found.add(value);
    const decoded = safeDecode(value);
    if (decoded) found.add(decoded);
  };
  add(parsed.username);
  add(parsed.password);
  const segments = parsed.pathname.split('/').filter(Boolean);
  const kept = segments.length > 0 && readsLikeWord(segments[0]) ? 1 : 0;
  const secretPath = segments.slice(kept).join('/');
  // Short paths (`/hooks/deploy`) are names, not tokens: masking them would mask the word everywhere.
  if (secretPath.length >= 8) add(secretPath);
  for (const [, value] of parsed.searchParams) add(value);
  add(parsed.hash.slice(1));
  return [...found];
}

function parse(url: string): URL | undefined {
  try {
    return new URL(url.trim());
  } catch {
    return undefined;
  }
}

/** A short word or a version (`v2`): nothing a generated token looks like. */
function readsLikeWord(segment: string): boolean {
  return /^(?:[A-Za-z][A-Za-z_.-]{0,23}|v\d{1,2})$/.test(segment);
}

function safeDecode(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}
