/**
 * The job details page's real bundle in chromium (see ../webviews/browserHarness.ts), with the
 * panel's side of its channel played in Node by the same RpcEndpoint the panel uses.
 */
import type { Browser } from 'playwright-core';
import { RpcEndpoint, type Handlers } from '../../../src/platform/pages/rpc';
import type { JobHostEvent, JobHostMethods, JobPageEvent, JobPageMethods } from '../../../src/training/protocol';
import { openWebviewPage, startPageServer, type WebviewPage } from '../platform/pages/browserHarness';

export type JobPanelChannel = RpcEndpoint<JobPageMethods, JobHostMethods, JobHostEvent, JobPageEvent>;

export function startJobDetailsServer(): Promise<{ url: string; close(): Promise<void> }> {
  return startPageServer('jobDetails');
}

/** Opens the page; `handlers` answer its requests as the panel does, and may `push` appends as the panel does. */
export async function openJobDetailsPage(
  browser: Browser,
  url: string,
  handlers: (push: (append: JobHostEvent) => void) => Handlers<JobHostMethods>,
): Promise<WebviewPage & { push(append: JobHostEvent): void }> {
  let channel!: JobPanelChannel;
  const push = (append: JobHostEvent) => channel.emit(append);
  const view = await openWebviewPage(browser, url, (post) => {
    channel = new RpcEndpoint<JobPageMethods, JobHostMethods, JobHostEvent, JobPageEvent>({ post, handlers: handlers(push) });
    return (message) => channel.receive(message);
  });
  return Object.assign(view, { push });
}
