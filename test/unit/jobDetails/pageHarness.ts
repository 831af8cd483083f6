/**
 * Runs the job details webview's real bundle (media/dist/jobDetails.js) in chromium, in a page with
 * the panel's Content Security Policy, fed with host messages as the panel sends them.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createNonce } from '../../../src/webviewSecurity/nonce';

const repoRoot = join(__dirname, '..', '..', '..', '..');

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

export async function startJobDetailsServer(): Promise<{ url: string; close(): Promise<void> }> {
  let origin = '';
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0]!;
    if (path === '/') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(pageHtml(origin));
      return;
    }
    if (path === '/favicon.ico') {
      response.writeHead(204).end();
      return;
    }
    const file = join(repoRoot, path);
    if (!file.startsWith(join(repoRoot, 'media')) || !existsSync(file)) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': file.endsWith('.css') ? 'text/css' : 'text/javascript' });
    response.end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: `${origin}/`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
