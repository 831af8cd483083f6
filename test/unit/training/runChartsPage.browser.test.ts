import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { RpcEndpoint } from '../../../src/platform/pages/rpc';
import type { NoMethods } from '../../../src/platform/pages/wire';
import type { RunChartsHostEvent, RunChartsHostMethods, RunChartsSnapshot } from '../../../src/training/protocol';
import { hasChromium, launchChromium, openWebviewPage, startPageServer } from '../platform/pages/browserHarness';
import { eventually } from '../emulator/client';

const steps = (count: number) => Array.from({ length: count }, (_, index) => index + 1);
const snapshot = (count: number): RunChartsSnapshot => ({
  title: 'Training: acme/agents/solver',
  runs: [
    {
      id: 'm-1',
      kind: 'model',
      label: 'acme/agents/solver',
      axis: 'model step',
      metrics: { reward: { xs: steps(count), ys: steps(count).map((step) => step / count) }, 'train/loss': { xs: steps(count), ys: steps(count).map((step) => 1 - step / count) } },
      truncated: false,
    },
  ],
  jobs: [
    { id: 'job-a', label: 'groups.jsonl → solver', firstStep: 1, lastStep: 4, phase: 'succeeded' },
    { id: 'job-b', label: 'more.jsonl → solver', firstStep: 5, lastStep: 8, phase: 'running' },
  ],
});

describe('the run charts page in a real browser', function () {
  this.timeout(120_000);
  let browser: Browser;
  let server: Awaited<ReturnType<typeof startPageServer>>;

  before(async function () {
    if (!hasChromium()) {
      if (process.env.CI) throw new Error('chromium is required for the model training page tests');
      this.skip();
    }
    browser = await launchChromium();
    server = await startPageServer('runCharts');
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('charts every checkpoint metric by model step, marks the jobs, opens one, and follows new checkpoints', async () => {
    const opened: string[] = [];
    let channel!: RpcEndpoint<NoMethods, RunChartsHostMethods, RunChartsHostEvent, never>;
    const view = await openWebviewPage(browser, server.url, (post) => {
      channel = new RpcEndpoint<NoMethods, RunChartsHostMethods, RunChartsHostEvent, never>({
        post,
        handlers: {
          ready: () => snapshot(8),
          saveChart: () => null,
          openJob: (raw) => {
            opened.push(String((raw as { jobId?: unknown }).jobId));
            return null;
          },
        },
      });
      return (message) => channel.receive(message);
    });
    try {
      await view.page.waitForSelector('figure.chart[data-metric="reward"] path.line');
      assert.equal(await view.page.locator('figure.chart').count(), 2, 'a chart per metric');
      assert.equal(await view.page.locator('figure.chart[data-metric="reward"] line.marker').count(), 2, 'each job marked where it started');
      assert.equal(await view.page.locator('.facts').textContent(), 'acme/agents/solver: 8 checkpoints, model steps 1 to 8');
      await view.page.getByRole('button', { name: 'more.jsonl → solver' }).click();
      await eventually(async () => (opened.length === 1 ? true : undefined), 5_000);
      assert.deepEqual(opened, ['job-b']);

      channel.emit({ type: 'update', snapshot: snapshot(12) });
      await view.page.waitForFunction(() => document.querySelector('.facts')?.textContent?.includes('12 checkpoints'));
      assert.deepEqual(view.problems, []);
      assert.deepEqual(await view.page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations), []);
    } finally {
      await view.page.context().close();
    }
  });

  it('overlays several runs on shared charts, one line and one colour per run, each named with its steps', async () => {
    const compared: RunChartsSnapshot = {
      title: 'Compare 1 model and 1 job',
      runs: [
        { ...snapshot(8).runs[0]! },
        { id: 'job-c', kind: 'job', label: 'groups.jsonl → solver', axis: 'job step', metrics: { reward: { xs: steps(4), ys: [0.1, 0.2, 0.3, 0.4] } }, truncated: false },
      ],
      jobs: [],
    };
    let channel!: RpcEndpoint<NoMethods, RunChartsHostMethods, RunChartsHostEvent, never>;
    const view = await openWebviewPage(browser, server.url, (post) => {
      channel = new RpcEndpoint<NoMethods, RunChartsHostMethods, RunChartsHostEvent, never>({ post, handlers: { ready: () => compared, saveChart: () => null, openJob: () => null } });
      return (message) => channel.receive(message);
    });
    try {
      await view.page.waitForSelector('figure.chart[data-metric="reward"] path.line');
      assert.equal(await view.page.locator('figure.chart[data-metric="reward"] path.line').count(), 2, 'both runs on the reward chart');
      assert.equal(await view.page.locator('figure.chart[data-metric="train/loss"] path.line').count(), 1, 'only the model has a loss');
      assert.match((await view.page.locator('figure.chart[data-metric="reward"] .x-name').textContent()) ?? '', /^step \(model step for models/);
      assert.deepEqual(await view.page.locator('.run-list li').allTextContents(), [
        'acme/agents/solver · model · 8 checkpoints, model steps 1 to 8',
        'groups.jsonl → solver · job · 4 gradient steps, job steps 1 to 4',
      ]);
      assert.deepEqual(view.problems, []);
    } finally {
      await view.page.context().close();
    }
  });
});
