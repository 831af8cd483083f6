/**
 * Runs a webview page's real bundle (media/dist/<page>.js) in chromium, in the document the panel
 * loads (src/platform/pages/host/pageHtml.ts builds both), with `acquireVsCodeApi` bridged to Node so
 * a test plays the extension's side. Used by the browser tests and the render benchmark; no VS
 * Code needed.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { buildPageHtml, createNonce, type WebviewPageName } from '../../../../src/platform/pages/host/pageHtml';
import type { WireMessage } from '../../../../src/platform/pages/wire';

export const chromiumPath = '/usr/bin/chromium';
export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-dev-shm-usage',
];

const repoRoot = join(__dirname, '..', '..', '..', '..', '..');

export function hasChromium(): boolean {
  return existsSync(chromiumPath);
}

export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
}

/** A page's document as its panel builds it, with `origin` as the webview's resource origin. */
export function pageDocument(page: WebviewPageName, origin: string, title = 'Test page'): string {
  return buildPageHtml({ page, title, cspSource: origin, mediaUri: (path) => `${origin}/media/${path}`, nonce: createNonce() });
}

/** Serves a page's document (`/`) and media/ on 127.0.0.1, like the webview's resource origin. */
export function startPageServer(page: WebviewPageName, more: Record<string, (origin: string) => string> = {}): Promise<{ url: string; close(): Promise<void> }> {
  return startMediaServer({ '/': (origin) => pageDocument(page, origin), ...more });
}

/**
 * A webview's resource origin on 127.0.0.1: the given documents by path (each built with the
 * server's own origin) and the files under media/, nothing else.
 */
export async function startMediaServer(documents: Record<string, (origin: string) => string>): Promise<{ url: string; close(): Promise<void> }> {
  let origin = '';
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0]!;
    const document = Object.hasOwn(documents, path) ? documents[path] : undefined;
    if (document) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(document(origin));
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

export interface WebviewPage {
  page: Page;
  /** Posts a message to the webview as the extension does. */
  post(message: WireMessage): void;
  /** Resolves when every posted message has been delivered. */
  drained(): Promise<void>;
  /** Messages the page sent, in order. */
  sent: unknown[];
  /** Page errors and CSP violations seen so far. */
  problems: string[];
  dialogs: string[];
}

/**
 * Opens a page with `acquireVsCodeApi` bridged to the host. `connect` receives the function
 * that posts to the webview (usable at once: the webview says `ready` while the page loads) and
 * returns the handler of the webview's messages. Host messages are delivered in order.
 */
export async function openWebviewPage(
  browser: Browser,
  url: string,
  connect: (post: (message: WireMessage) => void) => (message: unknown) => void,
  viewport = { width: 1000, height: 760 },
): Promise<WebviewPage> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  let queue = Promise.resolve();
  const post = (message: WireMessage) => {
    const copy = JSON.parse(JSON.stringify(message));
    queue = queue.then(() =>
      page
        .evaluate((data) => window.postMessage(data, '*'), copy)
        .then(
          () => undefined,
          () => undefined,
        ),
    );
  };
  const onMessage = connect(post);
  const sent: unknown[] = [];
  const problems: string[] = [];
  const dialogs: string[] = [];
  page.on('pageerror', (error) => problems.push(`pageerror: ${String(error)}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.exposeFunction('__toHost', (message: unknown) => {
    sent.push(message);
    onMessage(message);
  });
  await page.addInitScript(() => {
    let state: unknown;
    const w = window as unknown as Record<string, unknown>;
    w.acquireVsCodeApi = () => ({
      postMessage: (message: unknown) => (w.__toHost as (m: unknown) => void)(JSON.parse(JSON.stringify(message))),
      getState: () => state,
      setState: (next: unknown) => {
        state = next;
      },
    });
    const violations: string[] = [];
    w.__cspViolations = violations;
    document.addEventListener('securitypolicyviolation', (event) => violations.push(`${event.violatedDirective} ${event.blockedURI}`));
  });
  await page.goto(url);
  return { page, post, drained: () => queue, sent, problems, dialogs };
}

/**
 * Chromium and a page's server for the describe block it is called in, closed after it: skipped
 * without chromium, failed under CI (where a missing chromium is a broken install). `what` names
 * the tests in that failure.
 */
export function chromiumPageSuite(what: string, startServer: () => Promise<{ url: string; close(): Promise<void> }>): { readonly browser: Browser; readonly url: string } {
  let browser: Browser | undefined;
  let server: { url: string; close(): Promise<void> } | undefined;
  before(async function () {
    if (!hasChromium()) {
      if (process.env.CI) throw new Error(`chromium is required for ${what}`);
      this.skip();
    }
    browser = await launchChromium();
    server = await startServer();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });
  return {
    get browser() {
      return browser!;
    },
    get url() {
      return server!.url;
    },
  };
}
