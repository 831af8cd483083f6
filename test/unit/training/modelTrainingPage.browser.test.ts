import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { RpcEndpoint } from '../../../src/platform/pages/rpc';
import type { NoMethods } from '../../../src/platform/pages/wire';
import type { ModelTrainingHostEvent, ModelTrainingHostMethods, ModelTrainingSnapshot } from '../../../src/training/protocol';
import { hasChromium, launchChromium, openWebviewPage, startPageServer } from '../platform/pages/browserHarness';
import { eventually } from '../emulator/client';

const snapshot = (steps: number): ModelTrainingSnapshot => ({
  model: { id: 'm-1', label: 'acme/agents/solver' },
  checkpoints: Array.from({ length: steps }, (_, index) => ({ step: index + 1, metrics: { reward: index / steps, 'train/loss': 1 - index / steps } })),
  jobs: [
    { id: 'job-a', label: 'groups.jsonl → solver', firstStep: 1, lastStep: 4, phase: 'succeeded' },
    { id: 'job-b', label: 'more.jsonl → solver', firstStep: 5, lastStep: 8, phase: 'running' },
  ],
  truncated: false,
});

describe("a model's training page in a real browser", function () {
  this.timeout(120_000);
  let browser: Browser;
  let server: Awaited<ReturnType<typeof startPageServer>>;

  before(async function () {
    if (!hasChromium()) {
      if (process.env.CI) throw new Error('chromium is required for the model training page tests');
      this.skip();
    }
    browser = await launchChromium();
    server = await startPageServer('modelTraining');
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('charts every checkpoint metric by model step, marks the jobs, opens one, and follows new checkpoints', async () => {
    const opened: string[] = [];
    let channel!: RpcEndpoint<NoMethods, ModelTrainingHostMethods, ModelTrainingHostEvent, never>;
    const view = await openWebviewPage(browser, server.url, (post) => {
      channel = new RpcEndpoint<NoMethods, ModelTrainingHostMethods, ModelTrainingHostEvent, never>({
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
      assert.match((await view.page.locator('.facts').textContent()) ?? '', /^8 checkpoints · model steps 1 to 8 · 2 followed jobs$/);
      await view.page.getByRole('button', { name: 'more.jsonl → solver' }).click();
      await eventually(async () => (opened.length === 1 ? true : undefined), 5_000);
      assert.deepEqual(opened, ['job-b']);

      channel.emit({ type: 'update', snapshot: snapshot(12) });
      await view.page.waitForFunction(() => document.querySelector('.facts')?.textContent?.startsWith('12 checkpoints'));
      assert.deepEqual(view.problems, []);
      assert.deepEqual(await view.page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations), []);
    } finally {
      await view.page.context().close();
    }
  });
});
