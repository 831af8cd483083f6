/**
 * The run view's page, its real bundle in chromium under the editor's policy, with the host played in
 * Node: the chart across steps (a line of mean rewards broken where a step has none, stacked flag
 * bars, a gap for a step that could not be read with its reason as text), the batches that fill it
 * in, the split picker, and a step opened from the chart and from the list.
 */
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import type { Handlers } from '../../../src/platform/pages/rpc';
import { RpcEndpoint } from '../../../src/platform/pages/rpc';
import type { RunHostEvent, RunHostMethods, RunPageEvent, RunPageMethods, RunSnapshot, StepRow } from '../../../src/localRuns/protocol';
import { chromiumPageSuite, openWebviewPage, startPageServer, type WebviewPage } from '../platform/pages/browserHarness';
import { requestMatching } from '../rollouts/waitFor';

const flags = [
  { flag: 'noSignal', badge: 'NS', label: 'no signal', meaning: 'every trajectory got the same reward' },
  { flag: 'exceptions', badge: 'EX', label: 'exceptions', meaning: 'the rollout recorded exceptions' },
];
const hostile = '<img src=x onerror="window.__owned=1">';

function read(step: number, meanReward: number, flagCounts = [1, 0]): StepRow {
  return { step, fileName: `${String(step).padStart(4, '0')}.parquet`, bytes: 2048, state: 'read', figures: { groups: 4, trajectories: 16, meanReward, flagCounts, unreadableGroups: 0 } };
}

function snapshot(split = 'train'): RunSnapshot {
  return {
    title: 'tic-tac-toe / agent-001',
    folder: '/runs/.art/tic-tac-toe/models/agent-001/trajectories',
    splits: [
      { name: 'train', stepCount: 4 },
      { name: 'val', stepCount: 1 },
    ],
    split,
    steps:
      split === 'train'
        ? [
            read(0, 0.2),
            { step: 1, fileName: '0001.parquet', bytes: 10, state: 'failed', reason: `not Parquet ${hostile}` },
            { step: 2, fileName: '0002.parquet', bytes: 2048, state: 'pending' },
            read(3, 0.6, [0, 2]),
          ]
        : [read(0, 0.5)],
    moreSteps: false,
    flags,
  };
}

interface RunPage extends WebviewPage {
  push(event: RunHostEvent): void;
  requests: { method: string; params: unknown }[];
}

async function openRunPage(browser: Browser, url: string, handlers: Handlers<RunHostMethods>): Promise<RunPage> {
  let channel!: RpcEndpoint<RunPageMethods, RunHostMethods, RunHostEvent, RunPageEvent>;
  const requests: { method: string; params: unknown }[] = [];
  const view = await openWebviewPage(browser, url, (post) => {
    channel = new RpcEndpoint<RunPageMethods, RunHostMethods, RunHostEvent, RunPageEvent>({ post, handlers });
    return (message) => {
      const request = message as { kind?: string; method?: string; params?: unknown };
      if (request.kind === 'request' && typeof request.method === 'string') requests.push({ method: request.method, params: request.params });
      channel.receive(message);
    };
  });
  return Object.assign(view, { push: (event: RunHostEvent) => channel.emit(event), requests });
}

async function waitForText(view: RunPage, selector: string, pattern: RegExp): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const text = await view.page.evaluate((selector) => document.querySelector(selector)?.textContent ?? '', selector);
    if (pattern.test(text)) return text;
    if (Date.now() > deadline) throw new Error(`${selector} did not match ${pattern}: ${JSON.stringify(text)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the run view page in a real browser', function () {
  this.timeout(60_000);
  const chromium = chromiumPageSuite('the run view page tests', () => startPageServer('localRun'));
  const handlers: Handlers<RunHostMethods> = {
    ready: () => snapshot(),
    chooseSplit: (params) => snapshot((params as { split: string }).split),
    openStep: () => null,
  };

  it('draws the steps, a gap with its reason as text, and fills in as batches come', async () => {
    const view = await openRunPage(chromium.browser, chromium.url, handlers);
    try {
      await waitForText(view, '.progress', /3 of 4 steps read, 1 could not be read/);
      const chart = await view.page.evaluate(() => ({
        hits: document.querySelectorAll('.run-chart .hit').length,
        gaps: document.querySelectorAll('.run-chart .gap').length,
        bars: document.querySelectorAll('.run-chart .bar').length,
        line: document.querySelector('.run-chart .reward-line')?.getAttribute('d') ?? '',
        titles: [...document.querySelectorAll('.run-chart .hit title')].map((title) => title.textContent),
      }));
      assert.equal(chart.hits, 4);
      assert.equal(chart.gaps, 1);
      assert.equal(chart.bars, 2, 'one bar for step 0 (no signal), one for step 3 (exceptions)');
      assert.equal((chart.line.match(/M/g) ?? []).length, 2, 'the line breaks at the failed and the pending step');
      assert.equal(chart.titles[1], `Step 1: not read (not Parquet ${hostile})`);
      assert.match(chart.titles[3]!, /Step 3: mean reward 0\.6 · 4 groups, 16 trajectories · EX 2/);
      assert.equal(await view.page.evaluate(() => (window as unknown as { __owned?: number }).__owned), undefined);

      view.push({ type: 'steps', split: 'train', rows: [read(2, 0.4)] });
      await waitForText(view, '.progress', /4 of 4 steps read, 1 could not be read/);
      const line = await view.page.evaluate(() => document.querySelector('.run-chart .reward-line')?.getAttribute('d') ?? '');
      assert.equal((line.match(/M/g) ?? []).length, 2, 'still broken at the failed step only');
      view.push({ type: 'listed', split: 'train', steps: [...snapshot().steps.slice(0, 2), read(2, 0.4), read(3, 0.6), read(4, 0.7)], moreSteps: false });
      await waitForText(view, '.progress', /5 of 5 steps read/);
      // An update for another split is not this page's.
      view.push({ type: 'steps', split: 'val', rows: [read(9, 1)] });
      await view.drained();
      assert.equal(await view.page.evaluate(() => document.querySelectorAll('.run-chart .hit').length), 5);
      assert.deepEqual(view.problems, []);
      assert.deepEqual(await view.page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations), []);
    } finally {
      await view.page.context().close();
    }
  });

  it('opens a step from the chart and from the list, and switches splits', async () => {
    const view = await openRunPage(chromium.browser, chromium.url, handlers);
    try {
      await waitForText(view, '.progress', /steps read/);
      await view.page.locator('.run-chart .hit[data-step="3"]').dispatchEvent('click');
      assert.deepEqual(await requestMatching<{ split: string; step: number }>(view.requests, 'openStep', (params) => params.step === 3), { split: 'train', step: 3 });
      await view.page.locator('.step-list').selectOption('0');
      await view.page.locator('.step-list').press('Enter');
      assert.deepEqual(await requestMatching<{ split: string; step: number }>(view.requests, 'openStep', (params) => params.step === 0), { split: 'train', step: 0 });
      await view.page.locator('.step-list option[value="2"]').click();
      assert.deepEqual(await requestMatching<{ split: string; step: number }>(view.requests, 'openStep', (params) => params.step === 2), { split: 'train', step: 2 });
      await view.page.locator('.split select').selectOption('val');
      await requestMatching(view.requests, 'chooseSplit', (params: { split: string }) => params.split === 'val');
      await waitForText(view, '.progress', /1 of 1 steps read/);
    } finally {
      await view.page.context().close();
    }
  });
});
