import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import type { TrainingJobEvent } from '../../../src/platform/client/types';
import type { JobAppend, JobSnapshot } from '../../../src/training/protocol';
import { applyJobEvents, initialJobStatus } from '../../../src/training/model/jobStatus';
import { contentSecurityPolicy } from '../../../src/platform/pages/host/pageHtml';
import { startEmulator } from '../../emulator';
import type { Emulator } from '../../emulator/contract';
import { hasChromium, launchChromium, type WebviewPage } from '../platform/pages/browserHarness';
import { call, eventually, trajectoryGroup } from '../emulator/client';
import { openJobDetailsPage, startJobDetailsServer } from './pageHarness';

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
    axis: [...document.querySelectorAll('figure.chart[data-metric="loss"] .x-axis, figure.chart[data-metric="loss"] .x-name')].map((label) => label.textContent ?? ''),
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
    assert.deepEqual(
      gradientSteps.map((event) => event.data?.step),
      [6, 7, 8, 9],
      'the emulator continues the model step across jobs',
    );
    const early = secondJob.slice(0, 3);
    const snapshot: JobSnapshot = { job: { id: 'job-2', label: 'Job job-2' }, status: applyJobEvents(initialJobStatus, early), events: early, now: Date.now() };
    const view = await openJobDetailsPage(browser, server.url, () => ({ ready: () => snapshot, refresh: () => null, copy: () => null, saveChart: () => null }));
    try {
      await view.page.waitForSelector('figure.chart[data-metric="loss"] path.line');
      let page = await shown(view);
      assert.equal(page.facts.split(' · ').slice(0, 3).join(' · '), 'running · job step 2 of 4 · model step 7');
      assert.match(page.rows[0]!, /^job step 2model step 7 · loss /);
      assert.deepEqual(page.axis, ['6', '7', 'model step']);

      const rest: JobAppend = { type: 'append', status: applyJobEvents(initialJobStatus, secondJob), events: secondJob.slice(3), now: Date.now() };
      view.push(rest);
      await view.drained();
      await view.page.waitForFunction(() => document.querySelector('.pill')?.textContent === 'succeeded');
      page = await shown(view);
      assert.equal(page.facts.split(' · ').slice(0, 3).join(' · '), 'succeeded · 4 job steps · model step 9');
      assert.deepEqual(
        page.rows.map((row) => row.replace(/ · loss.*/, '')),
        ['job step 4model step 9', 'job step 3model step 8', 'job step 2model step 7', 'job step 1model step 6'],
      );
      assert.deepEqual(page.axis, ['6', '7', '8', '9', 'model step']);

      // Hover the newest point: both numberings, the axis's first.
      const plot = await view.page.locator('figure.chart[data-metric="loss"] svg').boundingBox();
      assert.ok(plot);
      await view.page.mouse.move(plot.x + plot.width - 14, plot.y + plot.height / 2);
      const hover = view.page.locator('figure.chart[data-metric="loss"] .chart-hover');
      await hover.waitFor({ state: 'visible' });
      const loss = String(gradientSteps.at(-1)!.data!.loss);
      assert.equal(await hover.textContent(), `model step 9 · job step 4loss: ${loss}`);
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

  it('reads its charts as a dashboard: smoothing, log scale, a zoom on steps and back, and exports of the data and the image', async () => {
    const snapshot: JobSnapshot = { job: { id: 'job-4', label: 'Job job-4' }, status: applyJobEvents(initialJobStatus, secondJob), events: secondJob, now: Date.now() };
    const saved: { fileName: string; content: string; encoding: string }[] = [];
    const view = await openJobDetailsPage(browser, server.url, () => ({
      ready: () => snapshot,
      refresh: () => null,
      copy: () => null,
      saveChart: (raw) => {
        saved.push(raw as { fileName: string; content: string; encoding: string });
        return null;
      },
    }));
    const chart = 'figure.chart[data-metric="loss"]';
    const ticks = () => view.page.evaluate((selector) => [...document.querySelectorAll(`${selector} .x-axis`)].map((tick) => tick.textContent), chart);
    try {
      await view.page.waitForSelector(`${chart} path.line`);
      assert.deepEqual(await ticks(), ['6', '7', '8', '9']);
      assert.equal(await view.page.locator(`${chart} path.line`).count(), 1, 'one raw line while nothing is smoothed');

      await view.page.locator('input.smoothing').fill('0.6');
      await view.page.waitForSelector(`${chart} path.line.raw`);
      assert.equal(await view.page.locator(`${chart} path.line`).count(), 2, 'the smoothed line over the raw one, kept faint');

      await view.page.getByLabel('Log scale').check();
      await view.page.waitForFunction((selector) => [...document.querySelectorAll(`${selector} .axis`)].some((tick) => /^(0\.\d+|1|10)$/.test(tick.textContent ?? '')), chart);

      // Drag across the middle of the chart: a zoom on steps, on every chart; a double-click undoes it.
      const plot = (await view.page.locator(`${chart} svg`).boundingBox())!;
      await view.page.mouse.move(plot.x + plot.width * 0.45, plot.y + plot.height / 2);
      await view.page.mouse.down();
      await view.page.mouse.move(plot.x + plot.width * 0.8, plot.y + plot.height / 2, { steps: 4 });
      await view.page.mouse.up();
      await view.page.waitForFunction((selector) => document.querySelector(`${selector} .x-name`)?.textContent?.includes('zoomed'), chart);
      assert.ok((await ticks()).length < 4, 'fewer steps in the zoom');
      assert.equal(await view.page.getByRole('button', { name: 'Show All Steps' }).isEnabled(), true);
      await view.page.locator(`${chart} svg`).dblclick();
      await view.page.waitForFunction((selector) => !document.querySelector(`${selector} .x-name`)?.textContent?.includes('zoomed'), chart);
      assert.deepEqual(await ticks(), ['6', '7', '8', '9']);

      await view.page.locator(chart).getByRole('button', { name: 'CSV' }).click();
      await view.page.locator(chart).getByRole('button', { name: 'PNG' }).click();
      await eventually(async () => (saved.length === 2 ? true : undefined), 5_000);
      const [csv, png] = saved;
      assert.equal(csv!.fileName, 'loss.csv');
      const rows = csv!.content.trim().split('\n');
      assert.equal(rows[0], 'series,step,value,smoothed');
      assert.equal(rows.length, 1 + secondJob.filter((event) => event.type === 'gradient_step').length);
      assert.equal(png!.fileName, 'loss.png');
      assert.equal(png!.encoding, 'base64');
      assert.ok(Buffer.from(png!.content, 'base64').subarray(1, 4).toString() === 'PNG', 'a PNG image');
      assert.deepEqual(view.problems, []);
      assert.deepEqual(await view.page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations), []);
    } finally {
      await view.page.context().close();
    }
  });

  it("loads under the panel's policy, asks for its snapshot by request, applies an append that overtook the reply, and asks by request for refresh and copy", async () => {
    const early = secondJob.slice(0, 3);
    const snapshot: JobSnapshot = { job: { id: 'job-3', label: 'Job job-3' }, status: applyJobEvents(initialJobStatus, early), events: early, now: Date.now() };
    const rest: JobAppend = { type: 'append', status: applyJobEvents(initialJobStatus, secondJob), events: secondJob.slice(3), now: Date.now() };
    const asked: string[] = [];
    const copied: string[] = [];
    const view = await openJobDetailsPage(browser, server.url, (push) => ({
      ready: () => {
        asked.push('ready');
        // Posted before the reply, as an append can be when a poll ends while the snapshot is on its way.
        push(rest);
        return snapshot;
      },
      refresh: () => {
        asked.push('refresh');
        return null;
      },
      copy: (raw) => {
        copied.push(String((raw as { text?: unknown }).text));
        return null;
      },
      saveChart: () => null,
    }));
    try {
      await view.page.waitForFunction(() => document.querySelector('.pill')?.textContent === 'succeeded');
      assert.deepEqual(view.sent[0], { kind: 'request', id: 1, method: 'ready', params: {} }, 'the page asks for its snapshot first, by request');
      const rows = await view.page.locator('.events .type-gradient_step').count();
      assert.equal(rows, secondJob.filter((event) => event.type === 'gradient_step').length, 'the early append was applied after the snapshot');

      await view.page.getByRole('button', { name: 'Refresh' }).click();
      await view.page.locator('details.raw summary').click();
      await view.page.getByRole('button', { name: 'Copy JSON' }).click();
      await eventually(async () => (copied.length === 1 && asked.includes('refresh') ? true : undefined), 5_000);
      assert.deepEqual(asked, ['ready', 'refresh']);
      assert.equal((JSON.parse(copied[0]!) as { events: unknown[] }).events.length, secondJob.length);
      assert.equal(view.sent.length, 3);
      assert.ok(
        view.sent.every((message) => (message as { kind?: string }).kind === 'request'),
        'the page sends requests only',
      );

      // The document's policy is the panel's, with this load's nonce; nothing broke it while loading.
      const loaded = await view.page.evaluate(() => ({
        policy: document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content'),
        nonce: document.querySelector('script')?.nonce ?? '',
        violations: [...(window as unknown as { __cspViolations: string[] }).__cspViolations],
      }));
      assert.match(loaded.nonce, /^[A-Za-z0-9]{32}$/);
      assert.equal(loaded.policy, contentSecurityPolicy(new URL(server.url).origin, loaded.nonce));
      assert.deepEqual(loaded.violations, []);
      assert.deepEqual(view.problems, []);

      // And it holds: a script without the nonce and an image are refused.
      await view.page.evaluate((origin) => {
        const script = document.createElement('script');
        script.textContent = 'window.__ran = true';
        document.body.append(script);
        const image = document.createElement('img');
        image.src = `${origin}/media/icon.png`;
        document.body.append(image);
      }, new URL(server.url).origin);
      await view.page.waitForFunction(() => (window as unknown as { __cspViolations: string[] }).__cspViolations.length >= 2);
      const refused = await view.page.evaluate(() => ({ ran: (window as unknown as { __ran?: boolean }).__ran, violations: (window as unknown as { __cspViolations: string[] }).__cspViolations }));
      assert.equal(refused.ran, undefined, 'the inline script did not run');
      assert.deepEqual(refused.violations.map((entry) => entry.split(' ')[0]).sort(), ['img-src', 'script-src-elem']);
    } finally {
      await view.page.context().close();
    }
  });

  it('holds a bounded number of appends that overtake the snapshot, and asks for a fresh snapshot when more came', async () => {
    const early = secondJob.slice(0, 3);
    const first: JobSnapshot = { job: { id: 'job-4', label: 'Job job-4' }, status: applyJobEvents(initialJobStatus, early), events: early, now: Date.now() };
    const full: JobSnapshot = { ...first, status: applyJobEvents(initialJobStatus, secondJob), events: secondJob };
    let snapshots = 0;
    const view = await openJobDetailsPage(browser, server.url, (push) => ({
      ready: () => {
        snapshots++;
        if (snapshots > 1) return full;
        for (let i = 0; i < 60; i++) push({ type: 'append', status: first.status, events: [], now: Date.now() });
        return first;
      },
      refresh: () => null,
      copy: () => null,
      saveChart: () => null,
    }));
    try {
      await view.page.waitForFunction(() => document.querySelector('.pill')?.textContent === 'succeeded');
      assert.equal(snapshots, 2, 'one more snapshot, asked for once');
      assert.equal(await view.page.locator('.events .type-gradient_step').count(), secondJob.filter((event) => event.type === 'gradient_step').length);
      assert.deepEqual(view.problems, []);
    } finally {
      await view.page.context().close();
    }
  });
});
