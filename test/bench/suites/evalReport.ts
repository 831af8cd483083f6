/**
 * The evaluation report page in chromium, its real bundle, with the editor played by a host in the
 * page itself that answers `ready` with a snapshot made beforehand, by window messages (a host in
 * Node would carry the reply through the browser's debugging protocol, whose cost lands on the
 * page's main thread and is no part of a webview's):
 *  - the report opens: from the start of the page's load to the leaderboard and the first rows of
 *    the matrix painted (the frame after both are in the document), for a 5,000-answer run (1,000
 *    samples × 5 checkpoints) against the same page with a 50-answer run (10 samples × 5).
 * Each side runs five times, alternately; the figure is the median over the runs.
 */
import type { Browser } from 'playwright-core';
import type { BenchFigure, BenchSuite } from '../report';
import { median } from '../stats';
import type { ReportSnapshot } from '../../../src/evals/protocol';
import { fixtureRun } from '../../unit/evals/reportFixtures';
import { startEvalReportServer } from '../../unit/evals/pageHarness';
import { hasChromium, launchChromium } from '../../unit/platform/pages/browserHarness';

const runs = 5;
const steps = [50, 100, 150, 200, 250];

export const suite: BenchSuite = {
  name: 'evalReport: the evaluation report page (chromium)',
  async run(): Promise<BenchFigure[]> {
    if (!hasChromium()) {
      console.log('  skipped: the evaluation report page benchmark needs chromium at /usr/bin/chromium');
      return [];
    }
    const large = fixtureRun({ samples: 1_000, steps, failEvery: 97, longEvery: 41 }).snapshot;
    const small = fixtureRun({ samples: 10, steps, failEvery: 97, longEvery: 41 }).snapshot;
    const browser = await launchChromium();
    const server = await startEvalReportServer();
    try {
      const open = { large: [] as number[], small: [] as number[] };
      for (let run = 0; run < runs; run++) {
        for (const side of run % 2 === 0 ? (['large', 'small'] as const) : (['small', 'large'] as const)) open[side].push(await opens(browser, server.url, side === 'large' ? large : small));
      }
      return [
        {
          name: 'Report of a 5,000-answer run (1,000 samples × 5 checkpoints) opens: page load start to the leaderboard and the first matrix rows painted',
          value: median(open.large),
          unit: 'ms',
          peer: { name: 'the same page with a 50-answer run', value: median(open.small) },
          better: 'lower',
          goal: { kind: 'absolute', atMost: 500 },
          note: `the host in the page answers ready with the snapshot (${Math.round(JSON.stringify(large).length / 1024)} KB of JSON); median of ${runs} loads each, runs ${open.large.map(Math.round).join(', ')} ms`,
        },
      ];
    } finally {
      await browser.close();
      await server.close();
    }
  },
};

/** The editor's side in the page: `ready` is answered by a later window message, as a webview receives its panel's. */
const inPageHost = `
  window.acquireVsCodeApi = () => ({
    postMessage(message) {
      if (message.kind !== 'request') return;
      const result = message.method === 'ready' ? window.__evalSnapshot : null;
      setTimeout(() => window.postMessage({ kind: 'reply', id: message.id, ok: true, result }, '*'), 0);
    },
    getState: () => undefined,
    setState: () => undefined,
  });`;

/**
 * Loads the page, then loads it again (its bundle and stylesheet then come from the cache, as a
 * webview's do from disk) and times the leaderboard and first rows from the start of that load.
 */
async function opens(browser: Browser, url: string, snapshot: ReportSnapshot): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(String(error)));
  try {
    await page.addInitScript({ content: `window.__evalSnapshot = ${JSON.stringify(snapshot)};` });
    await page.addInitScript({ content: inPageHost });
    await page.goto(url);
    await page.waitForSelector('.matrix-body .matrix-row');
    await page.addInitScript(() => {
      const w = window as unknown as { __opened?: Promise<number> };
      w.__opened = new Promise<number>((resolve) => {
        const observer = new MutationObserver(() => {
          if (!document.querySelector('.leaderboard tbody tr') || !document.querySelector('.matrix-body .matrix-row')) return;
          observer.disconnect();
          // Both are in the document; the next frame paints them.
          requestAnimationFrame((at) => resolve(at));
        });
        observer.observe(document, { childList: true, subtree: true });
      });
    });
    await page.reload();
    const at = await page.evaluate(() => (window as unknown as { __opened: Promise<number> }).__opened);
    if (problems.length) throw new Error(`the page reported problems: ${problems.join('; ')}`);
    return at;
  } finally {
    await context.close();
  }
}
