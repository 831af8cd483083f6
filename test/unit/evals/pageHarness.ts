/**
 * The evaluation report page's real bundle in chromium (see ../webviews/browserHarness.ts), with the
 * editor's side of its channel played in Node by the same RpcEndpoint the editor uses.
 */
import type { Browser } from 'playwright-core';
import { RpcEndpoint, type Handlers } from '../../../src/platform/pages/rpc';
import type { ReportHostEvent, ReportHostMethods, ReportPageEvent, ReportPageMethods } from '../../../src/evals/protocol';
import { chromiumPageSuite, openWebviewPage, startPageServer, type WebviewPage } from '../platform/pages/browserHarness';
import type { FixtureRun } from './reportFixtures';

export function startEvalReportServer(): Promise<{ url: string; close(): Promise<void> }> {
  return startPageServer('evalReport');
}

export interface EvalReportPageUnderTest extends WebviewPage {
  push(event: ReportHostEvent): void;
  /** Requests the page made, by method, in order. */
  requests: { method: string; params: unknown }[];
}

/** The handlers of a host that answers from `run`; `more` replaces any of them. */
export function fixtureHandlers(run: () => FixtureRun, more: Partial<Handlers<ReportHostMethods>> = {}): Handlers<ReportHostMethods> {
  return {
    ready: () => run().snapshot,
    answers: () => ({ answers: [], total: run().snapshot.answerCount }),
    answer: (params) => run().whole.get((params as { key: string }).key) ?? null,
    retry: () => null,
    useModel: () => null,
    deleteOthers: () => null,
    cancel: () => null,
    saveChart: () => null,
    ...more,
  };
}

export async function openEvalReportPage(browser: Browser, url: string, handlers: Handlers<ReportHostMethods>, viewport?: { width: number; height: number }): Promise<EvalReportPageUnderTest> {
  let channel!: RpcEndpoint<ReportPageMethods, ReportHostMethods, ReportHostEvent, ReportPageEvent>;
  const requests: { method: string; params: unknown }[] = [];
  const view = await openWebviewPage(
    browser,
    url,
    (post) => {
      channel = new RpcEndpoint<ReportPageMethods, ReportHostMethods, ReportHostEvent, ReportPageEvent>({ post, handlers });
      return (message) => {
        const request = message as { kind?: string; method?: string; params?: unknown };
        if (request.kind === 'request' && typeof request.method === 'string') requests.push({ method: request.method, params: request.params });
        channel.receive(message);
      };
    },
    viewport,
  );
  return Object.assign(view, { push: (event: ReportHostEvent) => channel.emit(event), requests });
}

/**
 * Chromium and the page's server for the describe block it is called in (skipped without chromium,
 * failed under CI), and `withPage`, which runs a test against a fresh page and always closes it.
 */
export function evalReportPageSuite(): {
  withPage<T>(handlers: Handlers<ReportHostMethods>, run: (view: EvalReportPageUnderTest) => Promise<T>, viewport?: { width: number; height: number }): Promise<T>;
} {
  const chromium = chromiumPageSuite('the evaluation report page tests', startEvalReportServer);
  return {
    async withPage(handlers, run, viewport) {
      const view = await openEvalReportPage(chromium.browser, chromium.url, handlers, viewport);
      try {
        return await run(view);
      } finally {
        await view.page.context().close();
      }
    },
  };
}
