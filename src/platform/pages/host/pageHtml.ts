// Each load of a page gets a fresh nonce from the helper every webview of the extension uses.
export { createNonce } from './nonce';

/**
 * The document of every webview page of the extension. Its Content Security Policy allows nothing
 * by default; scripts run only from the extension's media folder and only with this load's nonce;
 * styles only from the media folder (no inline styles anywhere); images and fonts not at all, so
 * nothing a page shows (a model's answer, a job's events) can load a remote resource (a tracking
 * pixel) or run code. No module here uses the editor's API: tests build the same documents.
 */

/**
 * The pages: each has its bundle in media/dist (one per folder of src/webview), its own stylesheet
 * in media/ (every page gets media/pageBase.css, what all pages share, linked before it), and the
 * element its script draws into, showing what is there until it has.
 */
export const webviewPages = {
  chat: { script: 'dist/chat.js', style: 'chat.css', body: '<div id="app" class="loading">Loading the chat…</div>' },
  jobDetails: { script: 'dist/jobDetails.js', style: 'jobDetails.css', body: '<main id="app" aria-live="polite"><p class="muted">Loading…</p></main>' },
  runCharts: { script: 'dist/runCharts.js', style: 'runCharts.css', body: '<main id="app" aria-live="polite"><p class="muted">Reading the runs…</p></main>' },
  taskRun: { script: 'dist/taskRun.js', style: 'taskRun.css', body: '<main id="app" aria-live="polite"><p class="muted">Reading the run…</p></main>' },
  rollouts: { script: 'dist/rollouts.js', style: 'rollouts.css', body: '<main id="app"><p class="muted">Reading the rollouts…</p></main>' },
  rewardTrial: { script: 'dist/rewardTrial.js', style: 'rewardTrial.css', body: '<main id="app"><p class="muted">Reading the comparison…</p></main>' },
  evalReport: { script: 'dist/evalReport.js', style: 'evalReport.css', body: '<main id="app"><p class="muted">Reading the evaluation…</p></main>' },
  localRun: { script: 'dist/localRun.js', style: 'localRun.css', body: '<main id="app"><p class="muted">Reading the run…</p></main>' },
} as const;

export type WebviewPageName = keyof typeof webviewPages;

/** The stylesheet of media/ every page links first, before its own. */
export const pageBaseStyle = 'pageBase.css';

export interface PageHtmlOptions {
  page: WebviewPageName;
  /** The tab's and the document's title. */
  title: string;
  /** The webview's resource origin (`webview.cspSource`). */
  cspSource: string;
  /** The address the webview loads a file of media/ from (`webview.asWebviewUri`). */
  mediaUri(path: string): string;
  nonce: string;
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [`default-src 'none'`, `script-src 'nonce-${nonce}'`, `style-src ${cspSource}`, `form-action 'none'`, `base-uri 'none'`].join('; ');
}

export function buildPageHtml(options: PageHtmlOptions): string {
  const attr = escapeHtml;
  const page = webviewPages[options.page];
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(contentSecurityPolicy(options.cspSource, options.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
${[pageBaseStyle, page.style].map((style) => `<link rel="stylesheet" href="${attr(options.mediaUri(style))}">`).join('\n')}
<title>${escapeHtml(options.title)}</title>
</head>
<body>
${page.body}
<script nonce="${attr(options.nonce)}" src="${attr(options.mediaUri(page.script))}"></script>
</body>
</html>`;
}

/** Text safe inside an element and inside a double-quoted attribute. */
function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/'/g, '&#39;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
