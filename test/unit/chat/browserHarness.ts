/**
 * The chat page in chromium (see ../webviews/browserHarness.ts), talking to a real ChatController
 * in Node: for the browser tests and the render benchmark.
 */
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import type { Browser } from 'playwright-core';
import { pageBaseStyle, webviewPages } from '../../../src/platform/pages/host/pageHtml';
import { chromiumPageSuite, startPageServer } from '../platform/pages/browserHarness';

const repoRoot = join(__dirname, '..', '..', '..', '..');

/** Serves the chat document (`/`), and `/plain`: its stylesheets and an empty #app, for renderers injected by a benchmark. */
export function startPanelServer(): Promise<{ url: string; close(): Promise<void> }> {
  return startPageServer('chat', {
    '/plain': (origin) => {
      const links = [pageBaseStyle, webviewPages.chat.style].map((style) => `<link rel="stylesheet" href="${origin}/media/${style}">`).join('');
      return `<!DOCTYPE html><html><head><meta charset="UTF-8">${links}</head><body><div id="app"></div></body></html>`;
    },
  });
}

/**
 * One browser script for `/plain`, bundled from `source`: TypeScript that imports the page's modules
 * by paths from the repository's root (`./src/chat/page/markdownRenderer`) and sets on `window`
 * what the test or benchmark calls.
 */
export async function bundlePageScript(source: string): Promise<string> {
  const bundle = await esbuild.build({
    stdin: { contents: source, resolveDir: repoRoot, loader: 'ts' },
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    logLevel: 'silent',
  });
  return bundle.outputFiles[0]!.text;
}

/** A 1 MB answer on one line (long words, a bold number every 50): what the browser test shows whole and the benchmark times. */
export function singleLineAnswer(): string {
  const word = 'lorem'.repeat(40);
  return Array.from({ length: Math.ceil(1_000_000 / (word.length + 1)) }, (_, i) => (i % 50 === 0 ? `<b>${i}</b>` : word)).join(' ');
}

/** Chromium and the chat page's server for the describe block it is called in. */
export function chatPageSuite(): { readonly browser: Browser; readonly url: string } {
  return chromiumPageSuite('the chat webview tests', startPanelServer);
}
