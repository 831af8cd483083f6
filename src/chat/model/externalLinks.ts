/**
 * The rule for links a webview asks to open: only absolute http(s) addresses leave the editor;
 * everything else (javascript:, file:, data:, command:…) is refused, and so is an address that
 * carries a user name or password.
 */
export function safeExternalUrl(href: string): string | undefined {
  let url: URL;
  try {
    url = new URL(href.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username || url.password) return undefined;
  return url.toString();
}
