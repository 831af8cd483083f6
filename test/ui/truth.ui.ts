/**
 * What a person sees when the platform stops answering while the workbench is open, and when it
 * comes back, in the packaged extension: the status bar turns red by itself, the Models view
 * says what failed (its welcome view with Retry, Configure Endpoints and Show Log when it has
 * nothing else to list; a warning row in the catalogue's section while the training models stay
 * listed), job rows turn to a warning with words instead of a request line; and everything
 * recovers by itself. A job that trains a model shows its new checkpoints in the Models view live.
 * Every step is checked in the DOM and kept as a screenshot. A step that needs a state an earlier
 * one left (signed in, a job running, the platform down) makes it when it is not there. How fast
 * the status bar and the views follow the platform is for `npm run bench`; the steps only log it.
 */
import * as assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import type { Emulator } from '../emulator/contract';
import type { UiTestContext } from './context';
import { startJobThroughTheApi } from '../support/emulatorJobs';
import {
  addModelByIdAndName,
  collapseView,
  ensureSignedIn,
  expandView,
  openViewContainer,
  runCommand,
  signInThroughThePalette,
  typeInto,
  until,
  viewPane,
  viewRows,
  viewWelcomeText,
  waitForText,
  waitForViewRows,
} from './workbench';

/** The pace of the jobs these steps watch: slow enough to see them run, quick enough to see checkpoints come. */
const secondsPerStep = 2;
const stepsPerJob = 50;
/** How long a step waits for the views to follow the platform before it fails: ample, not a promise. */
const followMs = 30_000;

let outageStartedAt = 0;
let outageEndedAt = 0;
const jobs: string[] = [];

function seeded(emulator: Emulator) {
  const ids = emulator.seeded;
  assert.ok(ids, 'the emulator was seeded');
  return ids;
}

/** Starts a job on the seeded trained model through the platform's API, as another client would. */
function startSlowJob(emulator: Emulator): Promise<string> {
  return startJobThroughTheApi(emulator, { steps: stepsPerJob, secondsPerStep });
}

/** A new slow job, followed in the Training Jobs view through the palette and kept in `jobs`. */
async function followNewSlowJob(page: Page, emulator: Emulator): Promise<string> {
  const jobId = await startSlowJob(emulator);
  jobs.push(jobId);
  await runCommand(page, 'RL Studio: Add Training Job by ID…');
  await typeInto(page, 'Add Training Job by ID', jobId);
  return jobId;
}

const jobRowName = (jobId: string) => `Job ${jobId.slice(0, 8)}`;

/** The status bar item of RL Studio's health, as drawn. */
function healthItem(page: Page): Locator {
  return page.locator('[id="rl-studio.rl-studio.rlStudio.health"]');
}

async function healthState(page: Page): Promise<string> {
  const item = healthItem(page);
  if ((await item.count()) === 0) return 'absent';
  const classes = (await item.getAttribute('class')) ?? '';
  const kind = classes.includes('error-kind') ? 'error' : classes.includes('warning-kind') ? 'warning' : 'plain';
  return `${kind}: ${(await item.innerText()).replace(/\s+/g, ' ').trim()}`;
}

/** What the status bar may be waited for to show, each as a test of its state (see healthState). */
const statusBarShows = {
  red: (state: string) => state.startsWith('error'),
  'back to normal': (state: string) => state.startsWith('plain') && !/unreachable/.test(state),
  'without an outage': (state: string) => !state.startsWith('error') && !/unreachable/.test(state),
};

/** Waits for the status bar to show `what`, and returns its state. */
function statusBar(page: Page, what: keyof typeof statusBarShows): Promise<string> {
  return until(`the status bar ${what}`, () => healthState(page), statusBarShows[what], followMs);
}

/** A row of a view, by the start of its text, with what it shows: its text and its icon. */
async function rowState(page: Page, view: string, start: string): Promise<{ text: string; icon: string } | undefined> {
  const pane = viewPane(page, view);
  const rows = await pane.locator('.pane-body .monaco-list-row').evaluateAll((elements) =>
    elements.map((row) => ({
      text: ['.label-name', '.label-description']
        .map((selector) => row.querySelector(selector)?.textContent?.trim() ?? '')
        .filter(Boolean)
        .join(' '),
      icon: [...(row.querySelector('.custom-view-tree-node-item-icon')?.classList ?? [])].find((name) => name.startsWith('codicon-')) ?? '',
    })),
  );
  return rows.find((row) => row.text.startsWith(start));
}

/** Waits for a followed job's row to show the warning icon, and returns the row. */
async function jobRowWarning(page: Page, jobId: string): Promise<{ text: string; icon: string }> {
  const row = await until(
    'the job row in a warning state',
    () => rowState(page, 'Training Jobs', jobRowName(jobId)),
    (state) => state?.icon === 'codicon-warning',
    followMs,
  );
  return row!;
}

async function welcomeButtons(page: Page, view: string): Promise<string[]> {
  const pane = await expandView(page, view);
  return (await pane.locator('.pane-body .welcome-view-content .monaco-button').allInnerTexts()).map((text) => text.trim());
}

/** Drags a sash (the handle between two parts) by an offset, as a person resizes with the mouse. */
async function dragSash(page: Page, sash: Locator, dx: number, dy: number): Promise<void> {
  const box = await sash.boundingBox();
  if (!box) return;
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx / 2, y + dy / 2, { steps: 5 });
  await page.mouse.move(x + dx, y + dy, { steps: 5 });
  await page.mouse.up();
}

/**
 * Room to read: a side bar wide enough for a row's words, and the Models view taller than the
 * Training Jobs view (the screenshots show both).
 */
async function makeRoom(page: Page): Promise<void> {
  const sidebar = await page.locator('.part.sidebar').boundingBox();
  if (sidebar) {
    const edge = sidebar.x + sidebar.width;
    const sashes = page.locator('.monaco-sash.vertical');
    for (let index = 0; index < (await sashes.count()); index++) {
      const box = await sashes.nth(index).boundingBox();
      if (box && Math.abs(box.x + box.width / 2 - edge) < 6) {
        await dragSash(page, sashes.nth(index), 620 - sidebar.width, 0);
        break;
      }
    }
  }
  const jobsHeader = await viewPane(page, 'Training Jobs').locator('.pane-header').first().boundingBox();
  if (jobsHeader) {
    const sashes = page.locator('.part.sidebar .monaco-sash.horizontal');
    for (let index = 0; index < (await sashes.count()); index++) {
      const box = await sashes.nth(index).boundingBox();
      if (box && Math.abs(box.y + box.height / 2 - jobsHeader.y) < 6) {
        await dragSash(page, sashes.nth(index), 0, 520 - jobsHeader.y);
        break;
      }
    }
  }
  // Away from anything that shows a hover.
  await page.mouse.move(900, 600);
}

/**
 * Before a screenshot: editors left open by earlier steps closed (an untitled payload is reverted,
 * not saved), and the mouse away from rows, so no hover covers what the picture is about.
 */
async function tidy(page: Page): Promise<void> {
  const tabs = page.locator('.part.editor .tabs-container .tab');
  for (let round = 0; round < 5 && (await tabs.count()) > 0; round++) {
    const open = await tabs.count();
    await runCommand(page, 'View: Revert and Close Editor');
    await until(
      'the editor to close',
      () => tabs.count(),
      (count) => count < open,
      10_000,
    );
  }
  await page.mouse.move(1000, 700);
  await page.locator('.monaco-hover').filter({ visible: true }).first().waitFor({ state: 'detached', timeout: 10_000 });
}

/** The platform answering, the status bar saying so, and the workbench signed in: an earlier step may have left it down. */
async function platformUpAndSignedIn(page: Page, emulator: Emulator): Promise<void> {
  if (!emulator.reachable) await emulator.setReachable(true);
  await statusBar(page, 'without an outage');
  await ensureSignedIn(page, emulator.apiKey, seeded(emulator).inferenceModels);
}

/** A followed job still running, as the outage steps need: one is started unless the list has one. */
async function runningJobFollowed(page: Page, emulator: Emulator): Promise<string> {
  for (const jobId of jobs) {
    if (/running/.test((await rowState(page, 'Training Jobs', jobRowName(jobId)))?.text ?? '')) return jobId;
  }
  const jobId = await followNewSlowJob(page, emulator);
  await waitForViewRows(page, 'Training Jobs', (rows) => rows.some((row) => row.startsWith(`${jobRowName(jobId)} running · job step`)));
  return jobId;
}

/** The seeded trained model in the Models view, added by id and name unless it is listed; opened to its checkpoints when asked. */
async function trainedModelListed(page: Page, emulator: Emulator, { expanded = false } = {}): Promise<void> {
  const ids = seeded(emulator);
  if (!(await viewRows(page, 'Models')).some((row) => row.startsWith(ids.trainedModelName))) {
    await addModelByIdAndName(page, ids.trainedModelId, `${ids.trainedModelEntity}/${ids.trainedModelProject}/${ids.trainedModelName}`);
    await waitForViewRows(page, 'Models', (rows) => rows.some((row) => row.startsWith(ids.trainedModelName)));
  }
  if (!expanded) return;
  const modelRow = viewPane(page, 'Models').locator('.monaco-list-row').filter({ hasText: ids.trainedModelName }).first();
  if ((await modelRow.getAttribute('aria-expanded')) !== 'true') await modelRow.click();
}

/** The platform stopped while a followed job runs, and the status bar red: made unless it is so already. */
async function platformDown(page: Page, emulator: Emulator): Promise<void> {
  if (emulator.reachable) {
    await ensureSignedIn(page, emulator.apiKey, seeded(emulator).inferenceModels);
    await runningJobFollowed(page, emulator);
    await emulator.setReachable(false);
    outageStartedAt = Date.now();
  }
  await statusBar(page, 'red');
}

export async function signsInAndFollowsARunningJob({ page, emulator }: UiTestContext): Promise<void> {
  await openViewContainer(page, 'RL Studio');
  for (const other of ['Webhooks', 'Local Runs']) await collapseView(page, other);
  await makeRoom(page);
  await signInThroughThePalette(page, emulator.apiKey, seeded(emulator).inferenceModels);
  // No job and no training model yet: the Training Jobs welcome suggests creating a model first.
  await waitForText(() => viewWelcomeText(page, 'Training Jobs'), /No training jobs yet.*No model to train\?/, 10_000);
  const jobId = await followNewSlowJob(page, emulator);
  await waitForViewRows(page, 'Training Jobs', (rows) => rows.some((row) => row.startsWith(`${jobRowName(jobId)} running · job step`)));
  assert.equal(await healthState(page).then((state) => state.startsWith('plain')), true, 'the status bar is not red while the platform answers');
}

export async function showsTheUnreachableWelcomeWithItsButtonsWhenThePlatformStops({ page, emulator, screenshot }: UiTestContext): Promise<void> {
  await platformUpAndSignedIn(page, emulator);
  const jobId = await runningJobFollowed(page, emulator);
  await emulator.setReachable(false);
  outageStartedAt = Date.now();
  try {
    const status = await statusBar(page, 'red');
    console.log(`      status bar after ${Date.now() - outageStartedAt} ms: ${status}`);
    assert.match(status, /RL Studio: (training API|inference API|platform) unreachable/);
    // Nothing else to list (no training model added yet): the welcome view, not an empty tree.
    const welcome = await waitForText(() => viewWelcomeText(page, 'Models'), /can.t reach the platform/, followMs);
    assert.match(welcome, /checks again every few seconds/);
    assert.deepEqual(await welcomeButtons(page, 'Models'), ['Retry', 'Configure Endpoints', 'Show Log']);
    const job = await jobRowWarning(page, jobId);
    console.log(`      job row: ${job.text}`);
    assert.match(job.text, /^Job \w{8} Can't reach the training API at 127\.0\.0\.1:\d+\. Retrying (in \d+ s|now)\. · last seen running/);
    assert.doesNotMatch(job.text, /GET |events\?|attempts/, 'no request line on the row');
    await tidy(page);
    await screenshot('platform-down-welcome');
  } catch (error) {
    await emulator.setReachable(true);
    throw error;
  }
}

export async function recoversWithoutAClickWhenThePlatformAnswersAgain({ page, emulator, screenshot }: UiTestContext): Promise<void> {
  await platformDown(page, emulator);
  const jobId = jobs[0]!;
  await emulator.setReachable(true);
  outageEndedAt = Date.now();
  const ids = seeded(emulator);
  await waitForViewRows(page, 'Models', (rows) => ids.inferenceModels.every((id) => rows.some((row) => row.includes(id))), followMs);
  await statusBar(page, 'back to normal');
  await until(
    'the job row running again',
    () => rowState(page, 'Training Jobs', jobRowName(jobId)),
    (row) => row !== undefined && row.icon !== 'codicon-warning' && /running · job step/.test(row.text),
    followMs,
  );
  console.log(`      everything back after ${Date.now() - outageEndedAt} ms`);
  await tidy(page);
  await screenshot('platform-back-catalogue');
}

export async function showsNewCheckpointsWhileAJobTrainsTheModel({ page, emulator, screenshot }: UiTestContext): Promise<void> {
  await platformUpAndSignedIn(page, emulator);
  // A second job on the same model, fresh, so it runs through the next outage too.
  await followNewSlowJob(page, emulator);
  await trainedModelListed(page, emulator, { expanded: true });
  const newestStep = async () => {
    const steps = (await viewRows(page, 'Models')).flatMap((row) => {
      const match = /^step (\d+)/.exec(row);
      return match ? [Number(match[1])] : [];
    });
    return steps.length ? Math.max(...steps) : -1;
  };
  const first = await until('the checkpoints of the model', newestStep, (step) => step >= 0, followMs);
  await tidy(page);
  await screenshot('checkpoints-before');
  // No click from here: the job's steps bring their checkpoints into the view.
  const later = await until('a newer checkpoint, without Refresh', newestStep, (step) => step >= first + 2, followMs);
  console.log(`      newest checkpoint went from step ${first} to step ${later} by itself`);
  await tidy(page);
  await screenshot('checkpoints-live');
}

export async function keepsTheTrainingModelsListedWhenThePlatformStopsAgain({ page, emulator, screenshot }: UiTestContext): Promise<void> {
  const ids = seeded(emulator);
  await platformUpAndSignedIn(page, emulator);
  await trainedModelListed(page, emulator);
  // The jobs still running now are the ones polled through the outage (a finished job is not polled).
  await runningJobFollowed(page, emulator);
  const running: string[] = [];
  for (const jobId of jobs) if (/running/.test((await rowState(page, 'Training Jobs', jobRowName(jobId)))?.text ?? '')) running.push(jobId);
  assert.ok(running.length > 0, 'a job runs through the outage');
  await emulator.setReachable(false);
  outageStartedAt = Date.now();
  try {
    await statusBar(page, 'red');
    const rows = await waitForViewRows(page, 'Models', (shown) => shown.some((row) => row.startsWith("Can't reach the inference API")), followMs);
    console.log(`      Models: ${JSON.stringify(rows.slice(0, 6))}`);
    const catalogueAt = rows.indexOf('Inference Models');
    assert.ok(catalogueAt >= 0, 'the catalogue keeps its section');
    assert.match(rows[catalogueAt + 1]!, /^Can't reach the inference API at 127\.0\.0\.1:\d+\. Retrying (in \d+ s|now)\.$/, 'one warning row says what failed and what happens next');
    assert.ok(!ids.inferenceModels.some((id) => rows.some((row) => row.includes(id))), 'no stale catalogue shown as if it could be read');
    assert.ok(rows.includes('Training Models') && rows.some((row) => row.startsWith(ids.trainedModelName)), 'the training models are still listed');
    const warning = await rowState(page, 'Models', "Can't reach the inference API");
    assert.equal(warning?.icon, 'codicon-warning');
    for (const jobId of running) {
      const job = await jobRowWarning(page, jobId);
      assert.match(job.text, /Can't reach the training API at 127\.0\.0\.1:\d+\. Retrying/);
    }
    await tidy(page);
    await screenshot('platform-down');
    // The tooltip of the status bar item says which API failed, in words.
    await healthItem(page).hover();
    const tooltip = page.locator('.monaco-hover').filter({ hasText: 'Training API' }).first();
    await tooltip.waitFor({ state: 'visible', timeout: 10_000 });
    assert.match(await tooltip.innerText(), /Training API: Can't reach the training API at 127\.0\.0\.1:\d+\./);
    await screenshot('platform-down-status-tooltip');
    await page.mouse.move(900, 600);
  } catch (error) {
    await emulator.setReachable(true);
    throw error;
  }
}

export async function recoversAgainWithoutAClick({ page, emulator, screenshot }: UiTestContext): Promise<void> {
  const ids = seeded(emulator);
  if (emulator.reachable) {
    // An earlier step did not leave the platform down: list the model before taking it down here.
    await ensureSignedIn(page, emulator.apiKey, ids.inferenceModels);
    await trainedModelListed(page, emulator, { expanded: true });
  }
  await platformDown(page, emulator);
  await emulator.setReachable(true);
  outageEndedAt = Date.now();
  await waitForViewRows(
    page,
    'Models',
    (rows) => !rows.some((row) => row.startsWith("Can't")) && ids.inferenceModels.every((id) => rows.some((row) => row.includes(id))) && rows.some((row) => /^step \d+/.test(row)),
    followMs,
  );
  await statusBar(page, 'back to normal');
  await until(
    'the job rows running again',
    async () => Promise.all(jobs.map((jobId) => rowState(page, 'Training Jobs', jobRowName(jobId)))),
    (rows) => rows.every((row) => row !== undefined && row.icon !== 'codicon-warning'),
    followMs,
  );
  console.log(`      everything back after ${Date.now() - outageEndedAt} ms`);
  await tidy(page);
  await screenshot('platform-back');
}

export async function stopsSuggestingToCreateAModelOnceOneIsListed({ page, emulator }: UiTestContext): Promise<void> {
  await platformUpAndSignedIn(page, emulator);
  await trainedModelListed(page, emulator);
  if (jobs.length === 0) await runningJobFollowed(page, emulator);
  for (const jobId of jobs) {
    const row = viewPane(page, 'Training Jobs')
      .locator('.monaco-list-row')
      .filter({ hasText: jobRowName(jobId) })
      .first();
    await row.click({ button: 'right' });
    const remove = page.getByRole('menuitem', { name: 'Remove from List' });
    await remove.waitFor({ state: 'visible', timeout: 10_000 });
    // A menu ignores a click that comes right as it opens; pointing at the item and pressing Enter is what a keyboard user does.
    await remove.hover();
    await page.keyboard.press('Enter');
    await remove.waitFor({ state: 'hidden', timeout: 5_000 });
    await row.waitFor({ state: 'detached', timeout: 10_000 });
  }
  const welcome = await waitForText(() => viewWelcomeText(page, 'Training Jobs'), /No training jobs yet/, 10_000);
  assert.ok(
    (await viewRows(page, 'Models')).some((row) => row.startsWith(seeded(emulator).trainedModelName)),
    'a training model is listed',
  );
  assert.doesNotMatch(welcome, /No model to train/);
}

export async function leavesTheEmulatorAsItFoundIt({ emulator }: UiTestContext): Promise<void> {
  await emulator.setReachable(true);
  emulator.setSecondsPerStep(0.05);
  assert.equal(emulator.reachable, true);
}
