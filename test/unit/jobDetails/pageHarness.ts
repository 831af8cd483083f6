/**
 * Runs the job details webview's real bundle (media/dist/jobDetails.js) in chromium, in a page with
 * the panel's Content Security Policy, fed with host messages as the panel sends them.
 */
import { createNonce } from '../../../src/vscode/webviews/nonce';
import { startMediaServer } from '../chat/browserHarness';

/** The document jobDetailsHtml.ts builds, with this server's origin as the webview's resource origin. */
function pageHtml(origin: string): string {
  const nonce = createNonce();
  const csp = ["default-src 'none'", `script-src 'nonce-${nonce}'`, `style-src ${origin}`, `img-src ${origin} data:`].join('; ');
  return `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<link rel="stylesheet" href="${origin}/media/jobDetails.css"><title>Job</title></head>
<body><main id="app" aria-live="polite"><p class="muted">Loading…</p></main>
<script nonce="${nonce}" src="${origin}/media/dist/jobDetails.js"></script></body></html>`;
}

export function startJobDetailsServer(): Promise<{ url: string; close(): Promise<void> }> {
  return startMediaServer({ '/': pageHtml });
}
