/**
 * The rollout inspector page's real bundle in chromium (see ../webviews/browserHarness.ts), with the
 * editor's side of its channel played in Node by the same RpcEndpoint the editor uses.
 */
import type { Browser } from 'playwright-core';
import { RpcEndpoint, type Handlers } from '../../../src/platform/pages/rpc';
import type { RolloutHostEvent, RolloutHostMethods, RolloutPageEvent, RolloutPageMethods } from '../../../src/rollouts/protocol';
import { chromiumPageSuite, openWebviewPage, startPageServer, type WebviewPage } from '../platform/pages/browserHarness';
import type { FixtureFile } from './pageFixtures';

export function startRolloutsServer(): Promise<{ url: string; close(): Promise<void> }> {
  return startPageServer('rollouts');
}

export interface RolloutsPageUnderTest extends WebviewPage {
  push(event: RolloutHostEvent): void;
  /** Requests the page made, by method, in order. */
  requests: { method: string; params: unknown }[];
}

/** The handlers of a host that answers from `file`; `more` replaces any of them. */
export function fixtureHandlers(file: () => FixtureFile, more: Partial<Handlers<RolloutHostMethods>> = {}): Handlers<RolloutHostMethods> {
  return {
    ready: () => file().state,
    rows: (params) => {
      const { query, start, count } = params as RolloutHostMethods['rows']['params'];
      return file().rows(query, start, count);
    },
    group: (params) => file().detail((params as { index: number }).index),
    revealLine: () => null,
    reopenWith: () => null,
    copyTrajectory: () => null,
    createJob: () => null,
    logToModel: () => null,
    exportGroups: () => null,
    ...more,
  };
}

export async function openRolloutsPage(browser: Browser, url: string, handlers: Handlers<RolloutHostMethods>, viewport?: { width: number; height: number }): Promise<RolloutsPageUnderTest> {
  let channel!: RpcEndpoint<RolloutPageMethods, RolloutHostMethods, RolloutHostEvent, RolloutPageEvent>;
  const requests: { method: string; params: unknown }[] = [];
  const view = await openWebviewPage(
    browser,
    url,
    (post) => {
      channel = new RpcEndpoint<RolloutPageMethods, RolloutHostMethods, RolloutHostEvent, RolloutPageEvent>({ post, handlers });
      return (message) => {
        const request = message as { kind?: string; method?: string; params?: unknown };
        if (request.kind === 'request' && typeof request.method === 'string') requests.push({ method: request.method, params: request.params });
        channel.receive(message);
      };
    },
    viewport,
  );
  return Object.assign(view, { push: (event: RolloutHostEvent) => channel.emit(event), requests });
}

/**
 * Chromium and the page's server for the describe block it is called in (skipped without chromium,
 * failed under CI), and `withPage`, which runs a test against a fresh page and always closes it.
 */
export function rolloutsPageSuite(): {
  withPage<T>(handlers: Handlers<RolloutHostMethods>, run: (view: RolloutsPageUnderTest) => Promise<T>, viewport?: { width: number; height: number }): Promise<T>;
} {
  const chromium = chromiumPageSuite('the rollout inspector page tests', startRolloutsServer);
  return {
    async withPage(handlers, run, viewport) {
      const view = await openRolloutsPage(chromium.browser, chromium.url, handlers, viewport);
      try {
        return await run(view);
      } finally {
        await view.page.context().close();
      }
    },
  };
}
