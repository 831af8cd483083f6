/**
 * The chat page in chromium (see ../webviews/browserHarness.ts), talking to a real ChatController
 * in Node: for the browser tests and the render benchmark.
 */
import { startPageServer } from '../webviews/browserHarness';

/** Serves the chat document (`/`), and `/plain`: its stylesheet and an empty #app, for renderers injected by a benchmark. */
export function startPanelServer(): Promise<{ url: string; close(): Promise<void> }> {
  return startPageServer('chat', {
    '/plain': (origin) => `<!DOCTYPE html><html><head><meta charset="UTF-8"><link rel="stylesheet" href="${origin}/media/chat.css"></head><body><div id="app"></div></body></html>`,
  });
}
