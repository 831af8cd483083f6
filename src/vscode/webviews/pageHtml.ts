// The nonce of the chat document comes from the helper every webview of the extension uses.
export { createNonce } from './nonce';

/**
 * The chat webview's document. Its Content Security Policy allows nothing by default; scripts run
 * only from the extension's media folder and only with this load's nonce; styles only from the
 * media folder (no inline styles anywhere); images and fonts not at all, so nothing in a model's
 * answer can load a remote resource (a tracking pixel) or run code.
 */
export interface PanelHtmlOptions {
  /** The webview's resource origin (`webview.cspSource`). */
  cspSource: string;
  scriptUri: string;
  styleUri: string;
  nonce: string;
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [`default-src 'none'`, `script-src 'nonce-${nonce}'`, `style-src ${cspSource}`, `form-action 'none'`, `base-uri 'none'`].join('; ');
}

export function buildPanelHtml(options: PanelHtmlOptions): string {
  const attr = escapeAttribute;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(contentSecurityPolicy(options.cspSource, options.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${attr(options.styleUri)}">
<title>RL Studio Chat</title>
</head>
<body>
<div id="app" class="loading">Loading the chat…</div>
<script nonce="${attr(options.nonce)}" src="${attr(options.scriptUri)}"></script>
</body>
</html>`;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
