import * as vscode from 'vscode';
import { createNonce } from '../../webviews/nonce';

/**
 * The page of a job details webview: a strict content security policy (no inline script or style,
 * only this load's nonce), styles and script from media/ only.
 */
export function jobDetailsHtml(webview: vscode.Webview, extensionUri: vscode.Uri, title: string): string {
  const nonce = createNonce();
  const script = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'dist', 'jobDetails.js'));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'jobDetails.css'));
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${webview.cspSource}`,
    `img-src ${webview.cspSource} data:`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${style.toString()}">
<title>${escapeHtml(title)}</title>
</head>
<body>
<main id="app" aria-live="polite"><p class="muted">Loading…</p></main>
<script nonce="${nonce}" src="${script.toString()}"></script>
</body>
</html>`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
