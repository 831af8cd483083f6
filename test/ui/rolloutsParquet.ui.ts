/**
 * The official client's Parquet trajectory log in the workbench: a step file `model.log()` wrote
 * opens in the rollout inspector by default, its groups placed by row, a group with its trained
 * choices; a Parquet file that is not a trajectory log says why and offers another editor.
 */
import * as assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import type { FrameLocator, Page } from 'playwright-core';
import type { UiTestContext } from './context';
import { openViewContainer, until } from './workbench';
import { loggable, writeArtParquet } from '../support/artParquet';

const logName = 'gsm8k-0042.parquet';
const otherName = 'cities.parquet';
const demoFile = join(__dirname, '../../../test/vscode/demo-workspace/trajectories/gsm8k-step-42.trajectories.jsonl');

function inspectorFrame(page: Page): FrameLocator {
  return page.frameLocator('iframe.webview').last().frameLocator('iframe').first();
}

/**
 * A file opened as a person opens one: Quick Open, its name, Enter. The workbench's file search may
 * not know a file written a moment ago yet: as a person would, it asks again until the file is found.
 */
async function quickOpen(page: Page, name: string): Promise<void> {
  await openViewContainer(page, 'Explorer');
  const row = page.locator('.quick-input-list .monaco-list-row').filter({ hasText: name }).first();
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('Control+P');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    await input.fill(name);
    try {
      await row.waitFor({ state: 'visible', timeout: 8_000 });
      break;
    } catch (error) {
      if (attempt >= 5) throw error;
      await page.keyboard.press('Escape');
    }
  }
  await page.keyboard.press('Enter');
}

export async function opensAParquetLogInTheInspector(context: UiTestContext): Promise<void> {
  const groups = readFileSync(demoFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as unknown);
  await writeArtParquet(join(context.workspace, logName), loggable(groups));
  await quickOpen(context.page, logName);
  const frame = inspectorFrame(context.page);
  await frame.locator('.grid-rows .grid-row').first().waitFor({ state: 'visible', timeout: 60_000 });
  const header = await until(
    'the whole log read',
    async () => (await frame.locator('.page-header').innerText()).replace(/\s+/g, ' '),
    (text) => /160 groups/.test(text) && /960 trajectories/.test(text) && /Parquet trajectory log/.test(text) && !/Reading/i.test(text),
  );
  console.log(`      header: ${header}`);
  assert.equal((await frame.locator('.grid-header .col-line').innerText()).trim(), 'Row', 'groups are placed by row');
  assert.ok((await frame.locator('.histogram .bar').count()) >= 10, 'the reward histogram draws its bins');
  await context.screenshot('rollouts-parquet-overview');
}

export async function opensAGroupOfTheLogWithItsTrainedChoices(context: UiTestContext): Promise<void> {
  const frame = inspectorFrame(context.page);
  await frame.locator('.grid-rows .grid-row:not(.pending)').nth(1).click();
  const head = frame.locator('.group-view .group-head');
  await head.waitFor({ state: 'visible', timeout: 20_000 });
  const facts = await until(
    'the group read',
    async () => (await head.innerText()).replace(/\s+/g, ' '),
    (text) => /trajectories/.test(text),
  );
  assert.match(facts, /row 7 ·/, `the group's first row: ${facts}`);
  assert.equal(await head.getByRole('button', { name: 'Reveal Line' }).count(), 0, 'a Parquet log has no text to reveal');
  assert.ok((await frame.locator('.group-view .siblings .trained').count()) >= 2, 'the trainable messages are trained choices');
  await frame.locator('.group-view').evaluate((element) => element.scrollIntoView({ block: 'start' }));
  await context.screenshot('rollouts-parquet-group');
}

export async function saysWhyAParquetFileIsNotATrajectoryLog(context: UiTestContext): Promise<void> {
  const bytes = parquetWriteBuffer({
    columnData: [
      { name: 'city', data: ['Lyon', 'Oslo'], type: 'STRING' },
      { name: 'population', data: [522_000, 709_000], type: 'INT32' },
    ],
  });
  writeFileSync(join(context.workspace, otherName), new Uint8Array(bytes));
  await quickOpen(context.page, otherName);
  const frame = inspectorFrame(context.page);
  const problem = frame.locator('.page-header .problem');
  const text = await until(
    'the reason shown',
    async () => ((await problem.isVisible()) ? await problem.innerText() : ''),
    (shown) => /its columns: city, population/.test(shown),
  );
  console.log(`      message: ${text}`);
  await frame.getByRole('button', { name: 'Open With…' }).waitFor({ state: 'visible', timeout: 10_000 });
  await context.screenshot('rollouts-parquet-not-a-log');
  await frame.getByRole('button', { name: 'Open With…' }).click();
  // VS Code's own editor picker: the inspector and the binary editor among its choices.
  await context.page.locator('.quick-input-widget').filter({ hasText: 'RL Studio Rollouts' }).waitFor({ state: 'visible', timeout: 10_000 });
  await context.page.keyboard.press('Escape');
}
