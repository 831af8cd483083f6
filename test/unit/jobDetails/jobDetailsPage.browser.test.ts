import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import type { TrainingJobEvent } from '../../../src/api/types';
import type { AppendMessage, SnapshotMessage } from '../../../src/webview/jobDetails/protocol';
import { applyJobEvents, initialJobStatus } from '../../../src/core/jobStatus';
import { startEmulator } from '../../emulator';
import type { Emulator } from '../../emulator/contract';
import { hasChromium, launchChromium, openWebviewPage, type WebviewPage } from '../chat/browserHarness';
import { call, eventually, trajectoryGroup } from '../emulator/client';
import { startJobDetailsServer } from './pageHarness';

/** Runs a job of `groups` trajectory groups on the model and returns its events once it ended. */
async function runJob(emulator: Emulator, modelId: string, groups: number): Promise<TrainingJobEvent[]> {
  const created = await call(emulator, 'training', 'POST', '/preview/training-jobs', { body: { model_id: modelId, trajectory_groups: Array.from({ length: groups }, () => trajectoryGroup()) } });
  assert.equal(created.status, 200, created.text);
  return eventually(async () => {
    const page = await call(emulator, 'training', 'GET', `/preview/training-jobs/${created.json.id}/events?limit=100`);
    const events = page.json.data as TrainingJobEvent[];
    return events.at(-1)?.type === 'training_ended' ? events : undefined;
  }, 10_000);
}

/** What the page shows about steps: header, gradient rows (newest first), x axis and hover. */
async function shown(view: WebviewPage) {
  return view.page.evaluate(() => ({
    facts: document.querySelector('.facts')!.textContent ?? '',
    rows: [...document.querySelectorAll('.events .type-gradient_step')].map((row) => row.textContent ?? ''),
    axis: [...document.querySelectorAll('figure.chart[data-metric="loss"] .x-axis')].map((label) => label.textContent ?? ''),
    text: document.body.innerText,
  }));
}

describe('job details page in a real browser', function () {
  this.timeout(120_000);
  let browser: Browser;
  let server: Awaited<ReturnType<typeof startJobDetailsServer>>;
  let emulator: Emulator;
  let secondJob: TrainingJobEvent[];

  before(async function () {
    if (!hasChromium()) {
      if (process.env.CI) throw new Error('chromium is required for the job details page tests');
      this.skip();
    }
    emulator = await startEmulator({ secondsPerStep: 0.01, seed: false });
    const model = await call(emulator, 'training', 'POST', '/preview/models', { body: { project: 'p', name: 'steps', base_model: 'OpenPipe/Qwen3-14B-Instruct' } });
    // The platform's `step` is the model's: a second job on the model goes on where the first ended.
    await runJob(emulator, model.json.id, 5);
    secondJob = await runJob(emulator, model.json.id, 4);
    browser = await launchChromium();
    server = await startJobDetailsServer();
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await emulator?.close();
  });

  it('a second job on a model: header, timeline, chart axis and hover name the job step and the model step alike', async () => {
    const gradientSteps = secondJob.filter((event) => event.type === 'gradient_step');
    assert.deepEqual(gradientSteps.map((event) => event.data?.step), [6, 7, 8, 9], 'the emulator continues the model step across jobs');
    const early = secondJob.slice(0, 3);
    const snapshot: SnapshotMessage = { type: 'snapshot', job: { id: 'job-2', label: 'Job job-2' }, status: applyJobEvents(initialJobStatus, early), events: early, now: Date.now() };
    const view = await openWebviewPage(browser, server.url, (post) => (message) => {
      if ((message as { type?: string }).type === 'ready') post(snapshot as never);
    });
    try {
      await view.page.waitForSelector('figure.chart[data-metric="loss"] path.line');
      let page = await shown(view);
      assert.equal(page.facts.split(' · ').slice(0, 3).join(' · '), 'running · job step 2 of 4 · model step 7');
      assert.match(page.rows[0]!, /^job step 2model step 7 · loss /);
      assert.deepEqual(page.axis, ['6', 'model step', '7']);

      const rest: AppendMessage = { type: 'append', status: applyJobEvents(initialJobStatus, secondJob), events: secondJob.slice(3), now: Date.now() };
      view.post(rest as never);
      await view.drained();
      await view.page.waitForFunction(() => document.querySelector('.pill')?.textContent === 'succeeded');
      page = await shown(view);
      assert.equal(page.facts.split(' · ').slice(0, 3).join(' · '), 'succeeded · 4 job steps · model step 9');
      assert.deepEqual(page.rows.map((row) => row.replace(/ · loss.*/, '')), ['job step 4model step 9', 'job step 3model step 8', 'job step 2model step 7', 'job step 1model step 6']);
      assert.deepEqual(page.axis, ['6', 'model step', '9']);

      // Hover the newest point: both numberings, the axis's first.
      const plot = await view.page.locator('figure.chart[data-metric="loss"] svg').boundingBox();
      assert.ok(plot);
      await view.page.mouse.move(plot.x + plot.width - 14, plot.y + plot.height / 2);
      const hover = view.page.locator('figure.chart[data-metric="loss"] .chart-hover');
      await hover.waitFor({ state: 'visible' });
      const loss = String(gradientSteps.at(-1)!.data!.loss);
      assert.equal(await hover.textContent(), `model step 9 · job step 4: ${loss}`);
      const figure = (await view.page.locator('figure.chart[data-metric="loss"]').boundingBox())!;
      const box = (await hover.boundingBox())!;
      assert.ok(box.x >= figure.x && box.x + box.width <= figure.x + figure.width + 1, 'the hover stays inside its chart');

      // Nowhere on the page is a step number left unnamed.
      const bare = page.text.match(/(?<!(job|model|gradient) )\bsteps? \d+/g);
      assert.equal(bare, null, `unnamed step numbers: ${bare?.join(', ')}`);
      assert.deepEqual(view.problems, []);
      assert.deepEqual(await view.page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations), []);
    } finally {
      await view.page.context().close();
    }
  });
});
